package sweep_test

import (
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/sweep"
)

// TestEfficiencyIsBusyOverWorkersTime checks Summary.Efficiency, the
// fraction of the workers' time spent simulating: 3 s of simulations by 2
// workers in 2 s is 0.75; no wall time or no workers is 0, not a division
// by zero.
func TestEfficiencyIsBusyOverWorkersTime(t *testing.T) {
	for _, tt := range []struct {
		s    sweep.Summary
		want float64
	}{
		{sweep.Summary{Busy: 3 * time.Second, Wall: 2 * time.Second, Workers: 2}, 0.75},
		{sweep.Summary{Busy: 4 * time.Second, Wall: 4 * time.Second, Workers: 1}, 1},
		{sweep.Summary{Busy: 3 * time.Second, Wall: 0, Workers: 2}, 0},
		{sweep.Summary{Busy: 3 * time.Second, Wall: 2 * time.Second, Workers: 0}, 0},
	} {
		if got := tt.s.Efficiency(); got != tt.want {
			t.Errorf("busy %v, wall %v, %d workers: efficiency %g, want %g", tt.s.Busy, tt.s.Wall, tt.s.Workers, got, tt.want)
		}
	}
}
