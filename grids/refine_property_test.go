package grids_test

import (
	"math"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// TestRefineTableDefaultsAndLimits checks the rules of a grid's [refine]
// table that the malformed-grid corpus does not: the default axes (every
// numeric axis with two values or more, in the grid's order, on a linear
// scale), the default round size (a quarter of the budget, at least 1), and
// the refusals of a table without a budget, without anything to follow, of
// a grid without a numeric axis to split, and of a log scale over a value
// that is not positive.
func TestRefineTableDefaultsAndLimits(t *testing.T) {
	const head = "name = \"r\"\nscenario = \"testbed-s1\"\n[sweep]\n"
	g, err := grids.Parse("r.toml", []byte(head+
		"host_io_gbps = [8, 10, 13]\nmarking_rate = [4]\ncc_level = [\"qp\", \"sl\"]\nccti_timer = [\"50us\", \"500us\"]\n"+
		"[refine]\npoints = 9\nmetric = \"victim_gbps\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := g.Refine
	var names []string
	for _, a := range r.Axes {
		names = append(names, a.Name)
		if a.Log {
			t.Errorf("axis %s on a log scale without log = [...]", a.Name)
		}
	}
	if got := strings.Join(names, ","); got != "host_io_gbps,ccti_timer" {
		t.Errorf("default axes %s, want host_io_gbps,ccti_timer (the numeric axes with two values or more, in order)", got)
	}
	if r.Points != 9 || r.PerRound != 3 {
		t.Errorf("points %d per round %d, want 9 and 3 (a quarter, rounded up)", r.Points, r.PerRound)
	}
	for points := 1; points <= 100; points++ {
		if per := grids.DefaultPerRound(points); per < 1 || math.Abs(float64(per)-float64(points)/4) >= 1 {
			t.Errorf("DefaultPerRound(%d) = %d, want a quarter of it, at least 1", points, per)
		}
	}

	for _, tc := range []struct{ name, grid, want string }{
		{"no budget", head + "ccti_timer = [\"50us\", \"500us\"]\n[refine]\nmetric = \"victim_gbps\"\n",
			"r.toml:5: refine: needs points, the most points refinement may add, e.g. points = 40"},
		{"nothing to follow", head + "ccti_timer = [\"50us\", \"500us\"]\n[refine]\npoints = 4\n",
			"r.toml:5: refine: needs a metric to follow, where constraints whose boundary to follow, or both"},
		{"no numeric axis", head + "cc_level = [\"qp\", \"sl\"]\nmarking_rate = [4]\n[refine]\npoints = 4\nmetric = \"victim_gbps\"\n",
			"r.toml:6: refine: the grid has no numeric axis with two values or more to refine"},
		{"log over 0", head + "marking_rate = [0, 8]\n[refine]\npoints = 4\nmetric = \"victim_gbps\"\nlog = [\"marking_rate\"]\n",
			"r.toml:8: refine.log: marking_rate has the value 0: a log scale needs positive values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := grids.Parse("r.toml", []byte(tc.grid))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}
