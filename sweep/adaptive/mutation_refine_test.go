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
