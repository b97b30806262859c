package report

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// schemeDim names the dimension that holds the congestion-control scheme.
const schemeDim = "cc"

// Comparison is the side-by-side view of a grid whose cc dimension takes
// more than one scheme: the same surface per scheme, as heat maps on one
// colour scale per metric (the load curves already draw a line per
// scheme on shared axes), and each scheme's best point.
type Comparison struct {
	// Schemes are the cc values, in the dimension's order ("on" is IB CC).
	Schemes []string `json:"schemes"`
	// Surface indexes Grid.Surfaces, the surface compared; -1 when the
	// grid draws lines. Slices holds, per scheme, the slice of that surface
	// shown for it: the default slice with cc set to the scheme (-1: none).
	Surface int   `json:"surface"`
	Slices  []int `json:"slices,omitempty"`
	// Objectives spell what Best ranks by: the user's query, else the
	// grid's primary metric maximized.
	Objectives []string `json:"objectives"`
	// Best holds each scheme's best cell among its own points (-1: none
	// done or feasible).
	Best []int `json:"best"`
}

// compare builds g.Compare when g's cc dimension has several values,
// ranking each scheme's points by q, or by the primary metric maximized
// when q is nil.
func (g *Grid) compare(ctx context.Context, db *store.DB, q *rank.Query) error {
	d := slices.IndexFunc(g.Dims, func(d Dim) bool { return d.Name == schemeDim })
	if d < 0 || len(g.Dims[d].Values) < 2 {
		return nil
	}
	if q == nil {
		m := g.PrimaryMetric()
		if m == "" {
			return nil
		}
		q = &rank.Query{Objectives: []rank.Objective{{Metric: m, Maximize: true, Weight: 1}}}
	}
	c := &Comparison{Schemes: slices.Clone(g.Dims[d].Values), Surface: -1}
	for _, o := range q.Objectives {
		c.Objectives = append(c.Objectives, o.String())
	}
	if len(g.Surfaces) > 0 {
		c.Surface = slices.IndexFunc(g.Surfaces, func(s *Surface) bool { return slices.Contains(s.Others, d) })
	}
	if c.Surface >= 0 {
		s := g.Surfaces[c.Surface]
		k := slices.Index(s.Others, d)
		for _, scheme := range c.Schemes {
			c.Slices = append(c.Slices, slices.IndexFunc(s.Slices, func(sl *Slice) bool {
				return sl.Values[k] == scheme && sameExcept(sl.Values, s.Slices[s.Default].Values, k)
			}))
		}
	}
	best, err := g.bestPerScheme(ctx, db, *q, c.Schemes)
	if err != nil {
		return err
	}
	c.Best = best
	g.Compare = c
	return nil
}

// sameExcept reports whether a and b agree everywhere but at k.
func sameExcept(a, b []string, k int) bool {
	for i := range a {
		if i != k && a[i] != b[i] {
			return false
		}
	}
	return true
}

// bestPerScheme ranks, for each scheme, the grid's points that select it
// by q and returns the cell of each best point (-1: none).
func (g *Grid) bestPerScheme(ctx context.Context, db *store.DB, q rank.Query, schemes []string) ([]int, error) {
	results := g.storedResults()
	for i := range results {
		results[i].GridID = ""
	}
	sums := store.Summarize(results)
	byKey := map[string]int{}
	for i, c := range g.Cells {
		byKey[joinKey(c.Key)] = i
	}
	best := make([]int, len(schemes))
	for i, scheme := range schemes {
		best[i] = -1
		own := slices.DeleteFunc(slices.Clone(sums), func(s *store.Summary) bool {
			v, _ := s.Value(schemeDim)
			return v != scheme
		})
		if len(own) == 0 {
			continue
		}
		a, err := rank.Rank(own, q)
		if err != nil {
			return nil, fmt.Errorf("rank scheme %s: %w", scheme, err)
		}
		if a.Best == nil {
			continue
		}
		if ci, ok := byKey[joinKey(keyOf(g.Dims, a.Best.Value))]; ok {
			best[i] = ci
		}
	}
	return best, nil
}

// comparisonCharts returns, for each surface metric, one heat map per
// scheme of the compared surface, each drawn with the surface's colour
// scale (metricRange spans every slice), in Comparison.Schemes order; nil
// entries where a scheme has no slice.
func comparisonCharts(g *Grid, gi int) [][]*Chart {
	c := g.Compare
	if c == nil || c.Surface < 0 {
		return nil
	}
	s := g.Surfaces[c.Surface]
	hx, hy := heatAxes(g, s)
	var rows [][]*Chart
	for _, m := range surfaceMetrics(g) {
		row := make([]*Chart, len(c.Schemes))
		for k, sl := range c.Slices {
			if sl < 0 {
				continue
			}
			row[k] = &Chart{ID: fmt.Sprintf("g%d-cmp-%s-%d", gi, m, k), Kind: "heatmap", Height: 360,
				Options: []json.RawMessage{heatmapOption(g, s, s.Slices[sl], m)},
				Meta:    &Meta{Grid: gi, Metric: metricOf(m), X: axisMeta(&g.Dims[hx], true), Y: axisMeta(&g.Dims[hy], true)}}
		}
		rows = append(rows, row)
	}
	return rows
}

// compareView is the page's side-by-side view of the schemes.
type compareView struct {
	Schemes []string
	Rows    []compareRow
	By      string
	Best    []schemeBest
}

type compareRow struct {
	Metric *Metric
	Charts []*Chart
}

// schemeBest is one row of the best-point table.
type schemeBest struct {
	Scheme string
	Where  string
	Values []string
}

// compareViewOf builds the page's view of g.Compare, registering its
// charts with add.
func compareViewOf(g *Grid, gi int, add func(*Chart) *Chart) *compareView {
	c := g.Compare
	if c == nil {
		return nil
	}
	v := &compareView{By: strings.Join(c.Objectives, ", ")}
	for _, s := range c.Schemes {
		v.Schemes = append(v.Schemes, params.SchemeOf(s)) // IB CC's canonical "on" is named ib
	}
	for i, row := range comparisonCharts(g, gi) {
		r := compareRow{Metric: metricOf(surfaceMetrics(g)[i])}
		for _, ch := range row {
			r.Charts = append(r.Charts, add(ch))
		}
		v.Rows = append(v.Rows, r)
	}
	shown := slices.Concat(surfaceMetrics(g), lineMetrics(g, g.Lines))
	slices.Sort(shown)
	shown = slices.Compact(shown)
	for k, ci := range c.Best {
		b := schemeBest{Scheme: v.Schemes[k], Where: "no point done"}
		if ci >= 0 {
			b.Where = g.describe(g.Cells[ci])
			for _, m := range shown {
				if x, ok := g.Cells[ci].Mean[m]; ok {
					b.Values = append(b.Values, fmt.Sprintf("%s %s %s", metricOf(m).Title, numberText(x), metricOf(m).Unit))
				}
			}
		}
		v.Best = append(v.Best, b)
	}
	return v
}
