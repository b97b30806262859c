package grids_test

import (
	"fmt"
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

// Index.Point takes 0 <= i < Len(); any other i is the caller's bug, which
// panics with the index's own message rather than a runtime index error
// from deeper down.
func TestIndexPointOutOfRange(t *testing.T) {
	g, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\nseeds = 2\n[sweep]\nmarking_rate = [1, 2]\n"))
	if err != nil {
		t.Fatal(err)
	}
	x := g.Index()
	if x.Len() != 4 {
		t.Fatalf("Len() = %d, want 4", x.Len())
	}
	for _, i := range []int{-1, 4, 5} {
		func() {
			defer func() {
				if r := recover(); fmt.Sprint(r) != "grids: Index.Point out of range" {
					t.Errorf("Point(%d) panicked with %v, want grids: Index.Point out of range", i, r)
				}
			}()
			x.Point(i)
		}()
	}
}
