package report

import (
	"cmp"
	"math"
	"slices"
)

// irregular reports whether a surface slice holds cells the grid does not
// list (points refinement added): its lattice of every x and y value then
// has holes where no point was run, which fill interpolates.
func (g *Grid) irregular(sl *Slice) bool {
	for _, row := range sl.Cells {
		for _, ci := range row {
			if ci >= 0 && g.Cells[ci].Added {
				return true
			}
		}
	}
	return false
}

// fill returns, for an irregular slice, the metric's interpolated value at
// every hole of its lattice (a position without a cell), NaN elsewhere;
// nil for a regular slice. A hole takes the
// linear interpolation, on each axis's scale (logarithmic for a log axis),
// between the nearest cells with a value on either side of it in its row,
// or in its column, or the mean of the two where both exist; a hole that
// neither brackets takes the inverse-distance weighted mean of the four
// nearest cells with a value.
func (g *Grid) fill(s *Surface, sl *Slice, metric string) [][]float64 {
	if !g.irregular(sl) {
		return nil
	}
	x, y := &g.Dims[s.X], &g.Dims[s.Y]
	ny, nx := len(sl.Cells), len(sl.Cells[0])
	value := func(xi, yi int) (float64, bool) {
		ci := sl.Cells[yi][xi]
		if ci < 0 {
			return 0, false
		}
		v, ok := g.Cells[ci].Mean[metric]
		return v, ok
	}
	pos := func(d *Dim, i int) float64 {
		if d.Scale == ScaleLog && d.Nums[0] > 0 {
			return math.Log(d.Nums[i])
		}
		return d.Nums[i]
	}
	// between interpolates at index i of a line of n positions whose values
	// at(k) gives, from the nearest known values on each side.
	between := func(i, n int, at func(k int) (float64, bool), d *Dim) float64 {
		lo, hi := -1, -1
		var vlo, vhi float64
		for k := i - 1; k >= 0; k-- {
			if v, ok := at(k); ok {
				lo, vlo = k, v
				break
			}
		}
		for k := i + 1; k < n; k++ {
			if v, ok := at(k); ok {
				hi, vhi = k, v
				break
			}
		}
		if lo < 0 || hi < 0 {
			return math.NaN()
		}
		f := (pos(d, i) - pos(d, lo)) / (pos(d, hi) - pos(d, lo))
		return vlo + f*(vhi-vlo)
	}
	var known []sample
	for yi := range ny {
		for xi := range nx {
			if v, ok := value(xi, yi); ok {
				known = append(known, sample{unit(x, xi, pos), unit(y, yi, pos), v})
			}
		}
	}
	out := make([][]float64, ny)
	for yi := range ny {
		out[yi] = make([]float64, nx)
		for xi := range nx {
			out[yi][xi] = math.NaN()
			if sl.Cells[yi][xi] >= 0 {
				continue
			}
			along := between(xi, nx, func(k int) (float64, bool) { return value(k, yi) }, x)
			across := between(yi, ny, func(k int) (float64, bool) { return value(xi, k) }, y)
			switch {
			case !math.IsNaN(along) && !math.IsNaN(across):
				out[yi][xi] = (along + across) / 2
			case !math.IsNaN(along):
				out[yi][xi] = along
			case !math.IsNaN(across):
				out[yi][xi] = across
			default:
				out[yi][xi] = idw(known, unit(x, xi, pos), unit(y, yi, pos))
			}
		}
	}
	return out
}

// sample is a cell with a value at unit coordinates.
type sample struct{ x, y, v float64 }

// unit returns position i of d on its scale, mapped onto [0, 1].
func unit(d *Dim, i int, pos func(*Dim, int) float64) float64 {
	lo, hi := pos(d, 0), pos(d, len(d.Nums)-1)
	if hi == lo {
		return 0
	}
	return (pos(d, i) - lo) / (hi - lo)
}

// idw interpolates at (x, y) by inverse squared distance from the four
// nearest samples.
func idw(known []sample, x, y float64) float64 {
	type near struct{ d2, v float64 }
	var best [4]near
	n := 0
	for _, s := range known {
		d2 := (s.x-x)*(s.x-x) + (s.y-y)*(s.y-y)
		if n < len(best) {
			best[n] = near{d2, s.v}
			n++
		} else if far := slices.MaxFunc(best[:], func(a, b near) int { return cmp.Compare(a.d2, b.d2) }); d2 < far.d2 {
			best[slices.Index(best[:], far)] = near{d2, s.v}
		}
	}
	if n == 0 {
		return math.NaN()
	}
	var wsum, vsum float64
	for _, b := range best[:n] {
		if b.d2 == 0 {
			return b.v
		}
		wsum += 1 / b.d2
		vsum += b.v / b.d2
	}
	return vsum / wsum
}

// sampledColor marks the points run on the surface of an irregular
// (refined) grid, whose other positions are interpolated.
const sampledColor = "#ffffff"
