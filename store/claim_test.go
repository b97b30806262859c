package store_test

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/store"
)

// checkClaimedOnce fails unless every ID was claimed by exactly one worker,
// and every point is done.
func checkClaimedOnce(t *testing.T, d *store.DB, ids []string, claimed map[string][]string) {
	t.Helper()
	by := make(map[string]string)
	for worker, got := range claimed {
		for _, id := range got {
			if other, dup := by[id]; dup {
				t.Errorf("point %s claimed by both %s and %s", id, other, worker)
			}
			by[id] = worker
		}
	}
	if len(by) != len(ids) {
		t.Errorf("%d of %d points claimed", len(by), len(ids))
	}
	for worker, got := range claimed {
		t.Logf("%s claimed %d points", worker, len(got))
	}
	if done, _ := counts(t, d); done != len(ids) {
		t.Errorf("%d points done, want %d", done, len(ids))
	}
	var left int
	if err := store.SQLDB(d).QueryRow("SELECT count(*) FROM claims").Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d claims left after all results were stored", left)
	}
	integrityCheck(t, d)
}

func TestClaimExclusiveAcrossHandles(t *testing.T) {
	d, path := newDB(t)
	ids := pointIDs(300)
	var mu sync.Mutex
	claimed := make(map[string][]string)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			// Two workers per handle, two handles: like two processes.
			h := d
			if w%2 == 1 {
				var err error
				if h, err = store.Open(path); err != nil {
					t.Error(err)
					return
				}
				defer h.Close()
			}
			owner := fmt.Sprintf("worker%d", w)
			got, err := claimAndRun(h, owner, ids, uint64(w))
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			claimed[owner] = got
			mu.Unlock()
		})
	}
	wg.Wait()
	checkClaimedOnce(t, d, ids, claimed)
}

func TestClaimExclusiveAcrossProcesses(t *testing.T) {
	d, path := newDB(t)
	ids := pointIDs(300)
	cmd, out := startHelper(t, "claim", path, ids, 99)
	if !out.Scan() || out.Text() != "ready" {
		t.Fatalf("helper said %q, want ready", out.Text())
	}
	claimed := make(map[string][]string)
	parent, err := claimAndRun(d, "parent", ids, 1)
	if err != nil {
		t.Fatal(err)
	}
	claimed["parent"] = parent
	for out.Scan() {
		claimed["child"] = append(claimed["child"], out.Text())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper process: %v", err)
	}
	checkClaimedOnce(t, d, ids, claimed)
}

func TestClaimOfKilledProcessIsTakenOver(t *testing.T) {
	d, path := newDB(t)
	ids := pointIDs(10)
	cmd, out := startHelper(t, "hold", path, ids, 0)
	if !out.Scan() || out.Text() != "claimed 10" {
		t.Fatalf("helper said %q, want %q", out.Text(), "claimed 10")
	}
	got, err := d.Claim(t.Context(), ids, "rerun", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("claimed %v held by a live process", got)
	}
	cmd.Process.Kill() // SIGKILL: no chance to release
	cmd.Wait()
	got, err = d.Claim(t.Context(), ids, "rerun", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, ids) {
		t.Errorf("after the holder was killed, claimed %v, want all of %v", got, ids)
	}
}

func TestClaimLeaseExpires(t *testing.T) {
	d, _ := newDB(t)
	ctx := t.Context()
	ids := pointIDs(3)
	if got, err := d.Claim(ctx, ids, "a", 50*time.Millisecond); err != nil || len(got) != 3 {
		t.Fatalf("Claim = %v, %v; want all", got, err)
	}
	if got, err := d.Claim(ctx, ids, "b", time.Hour); err != nil || len(got) != 0 {
		t.Fatalf("Claim of a valid lease = %v, %v; want none", got, err)
	}
	time.Sleep(100 * time.Millisecond)
	if got, err := d.Claim(ctx, ids, "b", time.Hour); err != nil || len(got) != 3 {
		t.Errorf("Claim after the lease expired = %v, %v; want all", got, err)
	}
}

func TestClaimRules(t *testing.T) {
	d, _ := newDB(t)
	ctx := t.Context()
	failed := doneResult("failed", testGrid.ID)
	failed.Status, failed.Metrics = store.StatusFailed, nil
	if err := d.SaveResults(ctx, []store.Result{doneResult("done", testGrid.ID), failed}); err != nil {
		t.Fatal(err)
	}
	claim := func(owner string, ids ...string) string {
		t.Helper()
		got, err := d.Claim(ctx, ids, owner, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(got, ",")
	}
	if got := claim("a", "x", "done", "failed", "y", "x"); got != "x,failed,y" {
		t.Errorf("a claimed %q, want x,failed,y: done points are skipped, failed ones retried", got)
	}
	if got := claim("a", "y", "z"); got != "y,z" {
		t.Errorf("a claimed %q, want y,z: its own claims are renewed", got)
	}
	if got := claim("b", "x", "y", "z", "w"); got != "w" {
		t.Errorf("b claimed %q, want w", got)
	}
	if err := d.SaveResults(ctx, []store.Result{doneResult("x", testGrid.ID)}); err != nil {
		t.Fatal(err)
	}
	if err := d.Release(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if got := claim("b", "x", "y", "z", "w"); got != "y,z,w" {
		t.Errorf("after a's release and x done, b claimed %q, want y,z,w", got)
	}
	if _, err := d.Claim(ctx, []string{"q"}, "", time.Hour); err == nil {
		t.Error("Claim without an owner succeeded")
	}
}

// TestClaimNeedsAPositiveLease: a lease of zero or less is refused (Claim's
// contract: "a positive lease"), a lease of one nanosecond is one.
func TestClaimNeedsAPositiveLease(t *testing.T) {
	d, _ := newDB(t)
	for _, ttl := range []time.Duration{0, -time.Second} {
		if got, err := d.Claim(t.Context(), pointIDs(2), "a", ttl); err == nil {
			t.Errorf("Claim with lease %v = %v, nil; want an error", ttl, got)
		}
	}
	if got, err := d.Claim(t.Context(), pointIDs(2), "a", time.Nanosecond); err != nil || len(got) != 2 {
		t.Errorf("Claim with a 1ns lease = %v, %v; want both points", got, err)
	}
}

// TestClaimsOfSeveralDeadProcessesAreAllTakenOver: when two processes of
// this host that held claims have died, the next Claim takes over the
// points of both, not only of the first found dead.
func TestClaimsOfSeveralDeadProcessesAreAllTakenOver(t *testing.T) {
	d, path := newDB(t)
	ids := pointIDs(6)
	// Both hold their claims before either dies: a Claim made while one
	// is dead would already drop its claims.
	var held []*exec.Cmd
	for _, part := range [][]string{ids[:3], ids[3:]} {
		cmd, out := startHelper(t, "hold", path, part, 0)
		if !out.Scan() || out.Text() != "claimed 3" {
			t.Fatalf("helper said %q, want %q", out.Text(), "claimed 3")
		}
		held = append(held, cmd)
	}
	for _, cmd := range held {
		cmd.Process.Kill() // SIGKILL: no chance to release
		cmd.Wait()
	}
	got, err := d.Claim(t.Context(), ids, "rerun", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, ids) {
		t.Errorf("after both holders were killed, claimed %v, want all of %v", got, ids)
	}
}
