package store_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/store"
)

// A test binary started with helperEnv set acts as a second ccsweep process on
// a shared database instead of running tests (see startHelper).
const helperEnv = "STORE_TEST_HELPER"

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "claim":
		helperClaim()
	case "hold":
		helperHold()
	case "read":
		helperRead()
	default:
		fmt.Fprintf(os.Stderr, "unknown %s=%q\n", helperEnv, os.Getenv(helperEnv))
		os.Exit(2)
	}
}

// helperClaim opens STORE_TEST_DB, prints "ready", runs claimAndRun and
// prints the claimed IDs, one per line.
func helperClaim() {
	d, err := store.Open(os.Getenv("STORE_TEST_DB"))
	if err != nil {
		fatal(err)
	}
	seed, _ := strconv.ParseUint(os.Getenv("STORE_TEST_SEED"), 10, 64)
	ids := strings.Split(os.Getenv("STORE_TEST_IDS"), ",")
	fmt.Println("ready")
	claimed, err := claimAndRun(d, "child", ids, seed)
	if err != nil {
		fatal(err)
	}
	if err := d.Close(); err != nil {
		fatal(err)
	}
	for _, id := range claimed {
		fmt.Println(id)
	}
	os.Exit(0)
}

// helperHold claims STORE_TEST_IDS for an hour, says so, and waits to be
// killed.
func helperHold() {
	d, err := store.Open(os.Getenv("STORE_TEST_DB"))
	if err != nil {
		fatal(err)
	}
	ids := strings.Split(os.Getenv("STORE_TEST_IDS"), ",")
	claimed, err := d.Claim(context.Background(), ids, "held", time.Hour)
	if err != nil {
		fatal(err)
	}
	fmt.Printf("claimed %d\n", len(claimed))
	select {}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

// startHelper starts this test binary as a helper process of the given kind.
func startHelper(t *testing.T, kind, path string, ids []string, seed uint64) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(),
		helperEnv+"="+kind,
		"STORE_TEST_DB="+path,
		"STORE_TEST_IDS="+strings.Join(ids, ","),
		"STORE_TEST_SEED="+strconv.FormatUint(seed, 10))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, bufio.NewScanner(out)
}

// claimAndRun works through ids like a sweep worker sharing the database with
// others: it claims them in small chunks in random order, stores a done
// result for each ID it got, and returns the IDs it claimed.
func claimAndRun(d *store.DB, owner string, ids []string, seed uint64) ([]string, error) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(seed, 1))
	ids = slices.Clone(ids)
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	w := d.NewWriter(5, 5*time.Millisecond)
	var claimed []string
	for len(ids) > 0 {
		n := min(1+r.IntN(8), len(ids))
		got, err := d.Claim(ctx, ids[:n], owner, time.Hour)
		if err != nil {
			w.Close()
			return nil, err
		}
		for _, id := range got {
			if err := w.Write(doneResult(id, testGrid.ID)); err != nil {
				w.Close()
				return nil, err
			}
		}
		claimed = append(claimed, got...)
		ids = ids[n:]
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return claimed, d.Release(ctx, owner)
}

var testGrid = store.GridRecord{
	ID:           "grid-1",
	Name:         "fig11-14",
	Scenario:     "testbed-s1",
	ModelVersion: "m1",
	Canonical:    "name = \"fig11-14\"\nscenario = \"testbed-s1\"\n",
}

// newDB opens a new database in a temporary directory with testGrid saved.
func newDB(t *testing.T) (*store.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "results.db")
	d, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if err := d.SaveGrid(t.Context(), testGrid); err != nil {
		t.Fatal(err)
	}
	return d, path
}

// doneResult returns a small done result for point id of the grid.
func doneResult(id, gridID string) store.Result {
	return store.Result{
		ID: id, GridID: gridID, Point: store.Point{
			Scenario: "testbed-s1", Seed: 1,
			Params: []store.Param{{Name: "marking_rate", Value: "1"}},
		},
		Status:       store.StatusDone,
		ModelVersion: "m1",
		Metrics:      map[string]float64{"victim_gbps": 13},
	}
}

// pointIDs returns n distinct point IDs.
func pointIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("p%04d", i)
	}
	return ids
}

// integrityCheck fails the test unless PRAGMA integrity_check passes.
func integrityCheck(t *testing.T, d *store.DB) {
	t.Helper()
	var got string
	if err := store.SQLDB(d).QueryRow("PRAGMA integrity_check").Scan(&got); err != nil {
		t.Fatal(err)
	}
	if got != "ok" {
		t.Fatalf("integrity_check = %q, want ok", got)
	}
}

// counts returns the grid's done and failed counts, failing the test on error.
func counts(t *testing.T, d *store.DB) (done, failed int) {
	t.Helper()
	done, failed, err := d.Counts(t.Context(), "")
	if err != nil {
		t.Fatal(err)
	}
	return done, failed
}
