package grids_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A grid expands to at most MaxPoints points, counting seeds and before
// constraints: exactly MaxPoints is a grid, in one sub-grid or over two, and
// one seed more is refused.
func TestPointsLimitIsInclusive(t *testing.T) {
	const axes = "marking_rate = { from = 0, to = 99, step = 1 }\nmessage_size = { from = 1, to = 100, step = 1 }\n" // 10,000 combinations
	top := func(seeds int) string {
		return fmt.Sprintf("name = \"g\"\nscenario = \"testbed-s1\"\nseeds = %d\n[sweep]\n%s", seeds, axes)
	}
	sub := func(seeds int) string {
		return fmt.Sprintf("[[grid]]\nseeds = %d\n[grid.sweep]\n%s", seeds, axes)
	}
	for _, c := range []struct{ src, err string }{
		{top(1000), ""},
		{top(1001), "g.toml:4: sweep: 10010000 points (10000 combinations × 1001 seeds), more than the limit of 10000000"},
		{top(500) + sub(500), ""},
		{top(500) + sub(501), "the grid reaches 10010000 points here, more than the limit of 10000000"},
	} {
		g, err := grids.Parse("g.toml", []byte(c.src))
		if c.err == "" {
			if err != nil || g.Count() != grids.MaxPoints {
				t.Errorf("%q: %v, want a grid of MaxPoints points", c.src, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want an error saying %s", c.src, err, c.err)
		}
	}
}

// Refinement adds a quarter of its budget per round by default, at least 1.
func TestDefaultPerRound(t *testing.T) {
	for points, want := range map[int]int{1: 1, 2: 1, 40: 10, 100: 25} {
		if got := grids.DefaultPerRound(points); got != want {
			t.Errorf("DefaultPerRound(%d) = %d, want %d", points, got, want)
		}
	}
}
