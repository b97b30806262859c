package rank

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ccsweep/ccsweep/grids"
)

// MaxRobustPoints bounds the points robust scoring takes: finding the
// neighbours costs O(n² log n).
const MaxRobustPoints = 20_000

// checkRobust refuses robust scoring of n points if n is past
// MaxRobustPoints.
func checkRobust(n int) error {
	if n > MaxRobustPoints {
		return fmt.Errorf("rank: %d points; robust scoring finds the neighbours of at most %d", n, MaxRobustPoints)
	}
	return nil
}

// Neighbours returns, for each point of coords (one coordinate per axis,
// comparable within an axis), the positions of its neighbours: the points q
// such that no third point lies in the closed box that p and q span. On a
// regular grid these are the points one step away along one axis; on an
// irregular one (a refined grid) a point between two rows also neighbours
// the nearest points of both rows.
func Neighbours(coords [][]int) [][]int {
	n := len(coords)
	out := make([][]int, n)
	order := make([]int, 0, n)
	dist := make([]int, n)
	for p := range n {
		order = order[:0]
		for q := range n {
			if q == p {
				continue
			}
			d := 0
			for k := range coords[p] {
				d += abs(coords[p][k] - coords[q][k])
			}
			dist[q] = d
			order = append(order, q)
		}
		// A point inside the box of p and q is nearer p in every
		// coordinate, so it comes first: checking q against the accepted
		// neighbours suffices, since any point in the box lies in the box
		// of one of them or is one.
		slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(dist[a], dist[b]), cmp.Compare(a, b)) })
		for _, q := range order {
			blocked := false
			for _, r := range out[p] {
				if dist[r] < dist[q] && inBox(coords[r], coords[p], coords[q]) {
					blocked = true
					break
				}
			}
			if !blocked {
				out[p] = append(out[p], q)
			}
		}
		slices.Sort(out[p])
	}
	return out
}

// inBox reports whether r lies in the closed box spanned by p and q.
func inBox(r, p, q []int) bool {
	for k := range r {
		lo, hi := min(p[k], q[k]), max(p[k], q[k])
		if r[k] < lo || r[k] > hi {
			return false
		}
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// coordinates returns the points' coordinates on a.Axes as ranks: numeric
// parameters by value, others by text, unset ("") first.
func (a *Answer) coordinates() [][]int {
	coords := make([][]int, len(a.Points))
	for i := range coords {
		coords[i] = make([]int, len(a.Axes))
	}
	for k, name := range a.Axes {
		var vals []string
		seen := map[string]bool{}
		for _, p := range a.Points {
			if v := p.Coords[k]; !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		SortValues(name, vals)
		rank := map[string]int{}
		for i, v := range vals {
			rank[v] = i
		}
		for i, p := range a.Points {
			coords[i][k] = rank[p.Coords[k]]
		}
	}
	return coords
}

// SortValues sorts the values of parameter name: by number when every
// value is one (grids.AxisNumber), else by text, "" first either way.
func SortValues(name string, vals []string) {
	numeric := true
	nums := map[string]float64{}
	for _, v := range vals {
		if v == "" {
			continue
		}
		x, ok := grids.AxisNumber(name, v)
		if !ok {
			numeric = false
			break
		}
		nums[v] = x
	}
	slices.SortFunc(vals, func(a, b string) int {
		if (a == "") != (b == "") {
			if a == "" {
				return -1
			}
			return 1
		}
		if numeric {
			return cmp.Compare(nums[a], nums[b])
		}
		return strings.Compare(a, b)
	})
}
