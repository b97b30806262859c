package grids_test

import (
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// Refinement adds a quarter of its budget per round by default, at least 1.
func TestDefaultPerRound(t *testing.T) {
	for points, want := range map[int]int{1: 1, 2: 1, 40: 10, 100: 25} {
		if got := grids.DefaultPerRound(points); got != want {
			t.Errorf("DefaultPerRound(%d) = %d, want %d", points, got, want)
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
