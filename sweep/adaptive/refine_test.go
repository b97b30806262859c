package adaptive_test

import (
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model/params"
)

// A metric equal at every point gives every pair a score of 0 (its change
// is 0 of a range of 0), and pairs that score 0 are not split: the round
// proposes nothing, where no where constraint changes.
func TestRefineFlatMetricProposesNothing(t *testing.T) {
	g := refineGrid(t, 1)
	ax := grids.RefineAxis{Name: "marking_rate", Kind: params.KindInt}
	pts := []refinePoint{
		{params: []string{"marking_rate", "0"}, victim: 5},
		{params: []string{"marking_rate", "8"}, victim: 5},
		{params: []string{"marking_rate", "16"}, victim: 5},
	}
	if got := propose(t, g, refineOf(10, 4, "", ax), pts, "marking_rate"); len(got) != 0 {
		t.Errorf("a flat metric: proposed %v, want nothing", got)
	}
	// The same points across a where boundary are split there.
	if got := propose(t, g, refineOf(10, 4, "marking_rate < 8", ax), pts, "marking_rate"); len(got) != 1 || got[0] != "4" {
		t.Errorf("a flat metric across marking_rate < 8: proposed %v, want [4]", got)
	}
}

// A midpoint within a thousandth of its pair's length of a value the axis
// already has takes that value, so that the rows of a refined grid line up
// (docs/sweeps.md, "Adaptive refinement"). Row marking_rate 1 has
// ccti_timer 100 and 300 µs, row 2 has 100, 200.1 and 300 µs at one metric:
// row 1's pair splits at 200.1 µs (0.1 µs from its midpoint, under 0.2), not
// at 200 µs; with row 2 at 200.3 µs instead (0.3 µs away) it splits at its
// own midpoint.
func TestRefineMidpointTakesANearbyValueOfTheAxis(t *testing.T) {
	g := refineGrid(t, 1)
	ax := grids.RefineAxis{Name: "ccti_timer", Kind: params.KindDuration}
	for _, tc := range []struct{ other, want string }{
		{"200.1us", "200.1us"},
		{"199.9us", "199.9us"},
		{"200.3us", "200us"},
		{"199.7us", "200us"},
	} {
		pts := []refinePoint{
			{params: []string{"ccti_timer", "100us", "marking_rate", "1"}, victim: 2},
			{params: []string{"ccti_timer", "300us", "marking_rate", "1"}, victim: 12},
			{params: []string{"ccti_timer", "100us", "marking_rate", "2"}, victim: 7},
			{params: []string{"ccti_timer", tc.other, "marking_rate", "2"}, victim: 7},
			{params: []string{"ccti_timer", "300us", "marking_rate", "2"}, victim: 7},
		}
		if got := propose(t, g, refineOf(10, 4, "", ax), pts, "ccti_timer"); len(got) != 1 || got[0] != tc.want {
			t.Errorf("row 2 at %s: proposed %v, want [%s]", tc.other, got, tc.want)
		}
	}
}
