package adaptive

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
)

// RefineStepper is the Stepper of adaptive refinement (grids.Refine). A
// round looks at every pair of neighbours along a refined axis: two points
// with equal values of every other parameter and no point between them on
// that axis. It scores each pair by how much Metric's mean differs between
// the two, as a fraction of the metric's range over all points, plus 1 when
// a Where constraint holds at one and not the other (the boundary of the
// region `ccsweep best` recommends). It splits, by a point midway on the
// axis's scale, PerRound pairs: first those across a boundary, the longest
// first (relative to the axis's span), then the others by score, the
// longest first among equal scores, until Points points have been added. A pair whose midpoint
// rounds onto one of its ends (adjacent integers), or shorter than
// 1/MinSplit of the axis's span, is not split; pairs that score 0 are
// not either.
type RefineStepper struct {
	Refine *grids.Refine
}

// MinSplit bounds how finely refinement splits an axis: no pair shorter
// than 1/MinSplit of the axis's span (on its scale) is split.
const MinSplit = 4096

// refineNode is a point of the refinement: a parameter combination with
// its metric mean and constraint outcomes.
type refineNode struct {
	p      Planned // its first seed
	coords []float64
	value  float64 // the metric's mean, NaN without one
	inside []bool  // the outcome of each Where constraint
}

// refineEdge is a pair of neighbours along axis.
type refineEdge struct {
	a, b     *refineNode
	axis     int
	score    float64
	boundary bool    // the pair straddles a where constraint
	length   float64 // on the axis's scale
	mid      string
}

// Next proposes the midpoints of the best-scoring pairs of neighbours.
func (rs RefineStepper) Next(_ context.Context, in StepInput) ([]Planned, error) {
	g, planned, sums := in.Grid, in.Planned, in.Sums
	r := rs.Refine
	nodes, added, err := rs.nodes(planned, sums)
	if err != nil {
		return nil, err
	}
	budget := min(r.Points-added, r.PerRound)
	if budget <= 0 || len(nodes) < 2 {
		return nil, nil
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, n := range nodes {
		if !math.IsNaN(n.value) {
			lo, hi = min(lo, n.value), max(hi, n.value)
		}
	}
	span := make([]float64, len(r.Axes))
	for k := range r.Axes {
		amin, amax := math.Inf(1), math.Inf(-1)
		for _, n := range nodes {
			if c := n.coords[k]; !math.IsNaN(c) {
				amin, amax = min(amin, c), max(amax, c)
			}
		}
		span[k] = amax - amin
	}
	// Each axis's values so far, so that a midpoint within a thousandth
	// of its pair's length of one of them takes it: rows line up.
	existing := make([][]float64, len(r.Axes))
	for k := range r.Axes {
		for _, n := range nodes {
			if c := n.coords[k]; !math.IsNaN(c) && !slices.Contains(existing[k], c) {
				existing[k] = append(existing[k], c)
			}
		}
	}
	var edges []refineEdge
	for k, ax := range r.Axes {
		for _, line := range lines(nodes, k, ax.Name) {
			for i := 1; i < len(line); i++ {
				e := refineEdge{a: line[i-1], b: line[i], axis: k, length: line[i].coords[k] - line[i-1].coords[k]}
				if !(e.length > 0) || e.length*MinSplit < span[k] {
					continue
				}
				if r.Metric != "" && hi > lo && !math.IsNaN(e.a.value) && !math.IsNaN(e.b.value) {
					e.score = math.Abs(e.a.value-e.b.value) / (hi - lo)
				}
				if !slices.Equal(e.a.inside, e.b.inside) {
					e.score++
					e.boundary = true
				}
				if e.score <= 0 {
					continue
				}
				m := (e.a.coords[k] + e.b.coords[k]) / 2
				for _, c := range existing[k] {
					if math.Abs(c-m) <= 1e-3*e.length && c > e.a.coords[k] && c < e.b.coords[k] {
						m = c
					}
				}
				mid, ok := grids.AxisValue(ax.Name, unscale(ax, m))
				av, _ := e.a.p.Value(ax.Name)
				bv, _ := e.b.p.Value(ax.Name)
				if !ok || mid == av || mid == bv {
					continue // adjacent integers, or values a nanosecond apart
				}
				e.mid = mid
				edges = append(edges, e)
			}
		}
	}
	// Pairs across a boundary first, the longest (the most uncertain part
	// of the boundary) first; then pairs by how much the metric changes.
	slices.SortStableFunc(edges, func(x, y refineEdge) int {
		// Not score >= 1: a pair that spans the metric's whole range
		// scores 1 without straddling a boundary.
		xb, yb := x.boundary, y.boundary
		xl, yl := x.length/span[x.axis], y.length/span[y.axis]
		if xb != yb {
			if xb {
				return -1
			}
			return 1
		}
		if xb {
			return cmp.Or(cmp.Compare(yl, xl), cmp.Compare(y.score, x.score))
		}
		return cmp.Or(cmp.Compare(y.score, x.score), cmp.Compare(yl, xl))
	})
	var next []Planned
	taken := map[string]bool{}
	for _, e := range edges {
		if budget == 0 {
			break
		}
		params := withParam(e.a.p.Params, r.Axes[e.axis].Name, e.mid)
		pt := grids.Point{Scenario: e.a.p.Scenario, Params: params}
		key := keyOf(pt)
		if taken[key] {
			continue
		}
		taken[key] = true
		budget--
		for seed := 1; seed <= g.Subs[e.a.p.Sub].Seeds; seed++ {
			pt.Seed = uint64(seed)
			next = append(next, Planned{Point: pt, Sub: e.a.p.Sub, Added: true})
		}
	}
	return next, nil
}

// nodes returns the parameter combinations of planned with their metric
// means and constraint outcomes, in plan order, and how many of them
// refinement added.
func (rs RefineStepper) nodes(planned []Planned, sums map[string]*store.Summary) ([]*refineNode, int, error) {
	r := rs.Refine
	var nodes []*refineNode
	added := 0
	seen := map[string]bool{}
	for _, p := range planned {
		key := keyOf(p.Point)
		if seen[key] {
			continue
		}
		seen[key] = true
		if p.Added {
			added++
		}
		n := &refineNode{p: p, value: math.NaN(), coords: make([]float64, len(r.Axes))}
		for k, ax := range r.Axes {
			n.coords[k] = math.NaN()
			if v, ok := p.Value(ax.Name); ok {
				if x, ok := grids.AxisNumber(ax.Name, v); ok {
					n.coords[k] = scale(ax, x)
				}
			}
		}
		means := map[string]float64{}
		if s := sums[key]; s != nil {
			for name, st := range s.Metrics {
				means[name] = st.Mean
			}
		}
		if v, ok := means[r.Metric]; ok {
			n.value = v
		}
		for _, w := range r.Where {
			in, err := w.Eval(p.Params, means)
			if err != nil {
				return nil, 0, fmt.Errorf("refine: %w", err)
			}
			n.inside = append(n.inside, in)
		}
		nodes = append(nodes, n)
	}
	return nodes, added, nil
}

// lines groups nodes into lines along axis k, named name: nodes whose
// parameters other than name are all equal, each line sorted by its coordinate on k.
// Nodes without a value on the axis are left out. Lines come in the order
// of their first node.
func lines(nodes []*refineNode, k int, name string) [][]*refineNode {
	var out [][]*refineNode
	at := map[string]int{}
	for _, n := range nodes {
		if math.IsNaN(n.coords[k]) {
			continue
		}
		var b strings.Builder
		b.WriteString(n.p.Scenario)
		for _, q := range n.p.Params {
			if q.Name != name {
				b.WriteString("\x00" + q.Name + "=" + q.Value)
			}
		}
		key := b.String()
		i, ok := at[key]
		if !ok {
			i = len(out)
			at[key] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], n)
	}
	for _, line := range out {
		slices.SortStableFunc(line, func(a, b *refineNode) int { return cmp.Compare(a.coords[k], b.coords[k]) })
	}
	return out
}

// scale maps an axis value to the refinement's scale: itself, or its
// logarithm for a log axis.
func scale(ax grids.RefineAxis, x float64) float64 {
	if ax.Log {
		return math.Log(x)
	}
	return x
}

// unscale is the inverse of scale.
func unscale(ax grids.RefineAxis, x float64) float64 {
	if ax.Log {
		return math.Exp(x)
	}
	return x
}
