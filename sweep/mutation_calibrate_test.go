package sweep_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/sweep"
)

// smallCalibration writes calibGrid with two values per axis and the given
// rounds beside a measurement of testbed-s2, and loads it.
func smallCalibration(t *testing.T, rounds string) *grids.Grid {
	t.Helper()
	dir := t.TempDir()
	measure(t, filepath.Join(dir, "fabric.csv"), "testbed-s2", map[string]string{"host_io_gbps": "11.5", "switch_link_gbps": "27"})
	src := strings.NewReplacer("count = 5", "count = 2", "rounds   = 8", "rounds   = "+rounds).Replace(calibGrid)
	if !strings.Contains(src, "count = 2") || !strings.Contains(src, "rounds   = "+rounds) {
		t.Fatal("calibGrid changed: update smallCalibration")
	}
	path := filepath.Join(dir, "calib.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := grids.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A calibration of `rounds = N` runs the grid (round 0) and N search
// rounds, no more: docs/sweeps.md, "rounds search rounds after the grid's
// own points".
func TestCalibrationRunsExactlyItsRounds(t *testing.T) {
	for _, rounds := range []string{"0", "1"} {
		g := smallCalibration(t, rounds)
		db := openDB(t, "calib.db")
		sum, err := sweep.RunRounds(context.Background(), sweep.NewRounds(g, nil), db, sweep.Options{Workers: 1})
		if err != nil || !sum.State.Finished {
			t.Fatal(sum, err)
		}
		want := map[string]int{"0": 0, "1": 1}[rounds]
		if sum.State.Round != want || sum.Rounds != want+1 {
			t.Errorf("rounds = %s: finished in round %d after running %d rounds; want round %d after %d (the grid and %s search rounds)",
				rounds, sum.State.Round, sum.Rounds, want, want+1, rounds)
		}
	}
}
