package grids_test

import (
	"reflect"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// TestIndexMatchesPoints checks that Index.Point(i) is Points()[i] for every
// point of every good fixture (where constraints, zips, seeds, several
// sub-grids), and that a grid rebuilt from its canonical form indexes the
// same points.
func TestIndexMatchesPoints(t *testing.T) {
	eachGoodGrid(t, func(t *testing.T, file string, g *grids.Grid) {
		back, err := grids.ParseCanonical([]byte(g.Canonical()))
		if err != nil {
			t.Fatalf("ParseCanonical: %v", err)
		}
		pts := g.Points()
		for _, gg := range []*grids.Grid{g, back} {
			x := gg.Index()
			if x.Len() != len(pts) || x.Len() != gg.Count() {
				t.Fatalf("Len() = %d, Count() = %d, want %d", x.Len(), gg.Count(), len(pts))
			}
			for i, want := range pts {
				if got := x.Point(i); !reflect.DeepEqual(got, want) {
					t.Fatalf("Point(%d) = %v, want %v", i, got, want)
				}
				if sub := gg.Subs[x.Sub(i)]; sub.Scenario != want.Scenario {
					t.Fatalf("Sub(%d) is a sub-grid of scenario %s, want %s", i, sub.Scenario, want.Scenario)
				}
			}
		}
	})
}
