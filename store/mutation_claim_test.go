package store_test

import (
	"os/exec"
	"slices"
	"testing"
	"time"
)

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
