package grids_test

import (
	"fmt"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

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
