package grids_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// refine.points and refine.per_round take "a whole number from 1 to
// MaxPoints", both ends included.
func TestRefineCountsRange(t *testing.T) {
	parse := func(points, perRound int64) (*grids.Grid, error) {
		src := fmt.Sprintf("name = \"g\"\nscenario = \"testbed-s1\"\n[sweep]\nmarking_rate = [0, 8]\n[refine]\npoints = %d\nper_round = %d\nmetric = \"victim_gbps\"\n", points, perRound)
		return grids.Parse("g.toml", []byte(src))
	}
	for _, c := range [][2]int64{{1, 1}, {grids.MaxPoints, grids.MaxPoints}} {
		g, err := parse(c[0], c[1])
		if err != nil || g.Refine == nil || g.Refine.Points != int(c[0]) || g.Refine.PerRound != int(c[1]) {
			t.Errorf("points = %d, per_round = %d: %v", c[0], c[1], err)
		}
	}
	for _, c := range [][2]int64{{0, 1}, {grids.MaxPoints + 1, 1}, {1, 0}, {1, grids.MaxPoints + 1}} {
		if _, err := parse(c[0], c[1]); err == nil || !strings.Contains(err.Error(), "want a whole number from 1 to 10000000") {
			t.Errorf("points = %d, per_round = %d: %v, want refused", c[0], c[1], err)
		}
	}
}

// RefineWith takes any budget from 1 point and refuses 0 with the reason.
func TestRefineWithBudgetFromOne(t *testing.T) {
	g, err := grids.Parse("plain.toml", []byte("name = \"p\"\nscenario = \"testbed-s1\"\n[sweep]\nccti_timer = [\"50us\", \"100us\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := g.RefineWith(1, ""); err != nil || r.Points != 1 {
		t.Errorf("RefineWith(1) = %+v, %v; want a budget of 1", r, err)
	}
	if _, err := g.RefineWith(0, ""); err == nil || err.Error() != "refine 0 points: want at least 1" {
		t.Errorf("RefineWith(0): %v, want refine 0 points: want at least 1", err)
	}
}

// RefineWith on a grid without [refine] refines the numeric axes with two
// values or more: not one with a single value.
func TestRefineWithLeavesSingleValueAxesOut(t *testing.T) {
	g, err := grids.Parse("plain.toml", []byte("name = \"p\"\nscenario = \"testbed-s1\"\n[sweep]\nccti_timer = [\"50us\", \"100us\"]\nmarking_rate = [4]\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.RefineWith(5, "")
	if err != nil || len(r.Axes) != 1 || r.Axes[0].Name != "ccti_timer" {
		t.Errorf("RefineWith(5) = %+v, %v; want ccti_timer alone", r, err)
	}
}

// A grid without [refine], [calibrate] or a seed target is not adaptive.
func TestPlainGridIsNotAdaptive(t *testing.T) {
	g, err := grids.Parse("plain.toml", []byte("name = \"p\"\nscenario = \"testbed-s1\"\n[sweep]\nccti_timer = [\"50us\", \"100us\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Adaptive() {
		t.Error("Adaptive() = true for a grid without [refine], [calibrate] or a seed target")
	}
}
