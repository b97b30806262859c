package grids

import "testing"

// combos counts a sub-grid's combinations exactly as a float and caps the
// integer count just above MaxPoints, so that a grid one point past the
// limit is refused and one at it is not. Kills point.go's cap
// `MaxPoints+1` turned into `MaxPoints-1` (a grid far past the limit
// counted as MaxPoints-1 and accepted).
func TestCombosCapJustAboveMaxPoints(t *testing.T) {
	sub := func(sizes ...int) *SubGrid {
		s := &SubGrid{}
		for _, n := range sizes {
			s.dims = append(s.dims, []*axis{{vals: make([]any, n)}})
		}
		return s
	}
	for _, c := range []struct {
		sizes []int
		n     int
		exact float64
	}{
		{[]int{10_000, 1000}, MaxPoints, 1e7},
		{[]int{10_001, 1000}, MaxPoints + 1, 10_001_000},
		{[]int{10_000, 10_000, 10_000}, MaxPoints + 1, 1e12},
		{[]int{3, 4}, 12, 12},
	} {
		if n, exact := sub(c.sizes...).combos(); n != c.n || exact != c.exact {
			t.Errorf("combos of %v = %d, %g; want %d, %g", c.sizes, n, exact, c.n, c.exact)
		}
	}
	g := &Grid{Subs: []*SubGrid{sub(10_001, 1000)}}
	g.Subs[0].Seeds = 1
	if s, msg := g.tooBig(); s == nil || msg != "10001000 points (10001000 combinations × 1 seeds), more than the limit of 10000000" {
		t.Errorf("tooBig of 10001 x 1000 combinations: %v, %q", s, msg)
	}
	g.Subs[0] = sub(10_000, 1000)
	g.Subs[0].Seeds = 1
	if s, msg := g.tooBig(); s != nil {
		t.Errorf("tooBig of exactly MaxPoints: %q; want it accepted", msg)
	}
}
