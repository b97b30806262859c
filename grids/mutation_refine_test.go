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
