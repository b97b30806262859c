package sweep_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/sweep"
)

// TestEfficiencyIsBusyOverWorkersTime checks Outcome.Efficiency, the
// fraction of the workers' time spent simulating: 3 s of simulations by 2
// workers in 2 s is 0.75; no wall time or no workers is 0, not a division
// by zero.
func TestEfficiencyIsBusyOverWorkersTime(t *testing.T) {
	for _, tt := range []struct {
		s    sweep.Outcome
		want float64
	}{
		{sweep.Outcome{Busy: 3 * time.Second, Wall: 2 * time.Second, Workers: 2}, 0.75},
		{sweep.Outcome{Busy: 4 * time.Second, Wall: 4 * time.Second, Workers: 1}, 1},
		{sweep.Outcome{Busy: 3 * time.Second, Wall: 0, Workers: 2}, 0},
		{sweep.Outcome{Busy: 3 * time.Second, Wall: 2 * time.Second, Workers: 0}, 0},
	} {
		if got := tt.s.Efficiency(); got != tt.want {
			t.Errorf("busy %v, wall %v, %d workers: efficiency %g, want %g", tt.s.Busy, tt.s.Wall, tt.s.Workers, got, tt.want)
		}
	}
}

// TestZeroWorkersMeansEveryCore checks Options.Workers' default: 0 runs as
// many simulations at once as there are cores (runtime.NumCPU), and runs
// every point. A minute's deadline turns a sweep that never starts a
// worker into an error instead of a hung test.
func TestZeroWorkersMeansEveryCore(t *testing.T) {
	g := parse(t, strings.Replace(defaultGrid, "[0, 1, 2]\n\n[[grid]]\n", "[0, 2]\n", 1))
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sum, err := sweep.Run(ctx, plan, openDB(t, "w.db"), sweep.Options{})
	if err != nil || sum.Workers != runtime.NumCPU() || sum.Ran != 2 {
		t.Errorf("Workers 0: %d workers ran %d points, %v; want %d (NumCPU) running both", sum.Workers, sum.Ran, err, runtime.NumCPU())
	}
}
