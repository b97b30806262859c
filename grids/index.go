package grids

import (
	"sort"

	"github.com/ccsweep/ccsweep/model/params"
)

// Index finds a grid's points by position without expanding the grid:
// Point(i) is Points()[i]. It holds, per sub-grid, only its offset and, for
// a sub-grid with where constraints, the kept combinations as 4-byte
// indices; a grid without constraints costs a few words whatever its size.
// It is read-only once made and safe for concurrent use.
type Index struct {
	g    *Grid
	subs []subIndex
}

// subIndex places one sub-grid's points in the grid.
type subIndex struct {
	s     *SubGrid
	start int      // index of the sub-grid's first point in the grid
	n     int      // its points, seeds included
	kept  []uint32 // combinations the where constraints keep, ascending; nil without constraints
	radix []int    // values per dimension, in expansion order
}

// Index returns an index of g's points. Sub-grids with where constraints
// are visited once, to record which combinations they keep.
func (g *Grid) Index() *Index {
	x := &Index{g: g}
	start := 0
	for _, s := range g.Subs {
		si := subIndex{s: s, start: start}
		for _, d := range s.dims {
			si.radix = append(si.radix, len(d[0].vals))
		}
		combos, _ := s.combos()
		if len(s.where) > 0 || s.schemeParams {
			si.kept = []uint32{}
			// Parse or CanonicalGrid.Grid already ran every constraint on
			// every combination, so visit cannot fail here.
			_ = s.visit(func(idx []int, _ *params.Config) bool {
				si.kept = append(si.kept, uint32(si.raw(idx)))
				return true
			})
			combos = len(si.kept)
		}
		si.n = combos * s.Seeds
		start += si.n
		x.subs = append(x.subs, si)
	}
	return x
}

// Len returns the number of points, g.Count().
func (x *Index) Len() int {
	if len(x.subs) == 0 {
		return 0
	}
	last := x.subs[len(x.subs)-1]
	return last.start + last.n
}

// Sub returns the position in Grid.Subs of the sub-grid point i belongs to.
func (x *Index) Sub(i int) int {
	return sort.Search(len(x.subs), func(k int) bool { return x.subs[k].start+x.subs[k].n > i }) // first sub ending after i
}

// Point returns point i (0 <= i < Len()) of the grid, equal to Points()[i];
// its Params is a new slice the caller may keep.
func (x *Index) Point(i int) Point {
	if i < 0 || i >= x.Len() {
		panic("grids: Index.Point out of range")
	}
	si := &x.subs[x.Sub(i)]
	s := si.s
	j := i - si.start
	combo, seed := j/s.Seeds, j%s.Seeds+1
	if si.kept != nil {
		combo = int(si.kept[combo])
	}
	idx := make([]int, len(si.radix))
	for d := len(si.radix) - 1; d >= 0; d-- {
		idx[d] = combo % si.radix[d]
		combo /= si.radix[d]
	}
	return s.point(idx, seed)
}

// raw returns the position of the combination idx in the sub-grid's full
// product, the last dimension varying fastest.
func (si *subIndex) raw(idx []int) int {
	r := 0
	for d, n := range si.radix {
		r = r*n + idx[d]
	}
	return r
}

// Grid returns the grid x indexes.
func (x *Index) Grid() *Grid { return x.g }
