package report

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
)

// Surface is the figure of two numeric dimensions: for each combination of
// the other dimensions' values (a slice) the cell at every (x, y).
type Surface struct {
	X, Y   int      `json:"-"` // indices into Grid.Dims
	XName  string   `json:"x"`
	YName  string   `json:"y"`
	Others []int    `json:"others,omitempty"` // the other dimensions, in Grid.Dims order
	Slices []*Slice `json:"slices"`
	// Default is the slice shown first: the one holding the testbed's
	// defaults if any, else the one with the most done cells.
	Default int `json:"default"`
}

// Slice is one combination of a surface's other dimensions.
type Slice struct {
	// Values holds the value of each of Surface.Others ("" unset).
	Values []string `json:"values,omitempty"`
	// Cells holds, for each y and x value index, the index of the cell in
	// Grid.Cells, or -1 where the grid has none.
	Cells [][]int `json:"cells"`
}

// Lines is the figure of a grid with one numeric dimension (or only
// categorical ones): the metrics against X, a series per combination of the
// other dimensions.
type Lines struct {
	X      int           `json:"-"`
	XName  string        `json:"x"`
	Others []int         `json:"others,omitempty"`
	Series []*LineSeries `json:"series"`
}

// LineSeries is one combination of the other dimensions' values and its
// cell at each X value (-1: none).
type LineSeries struct {
	Values []string `json:"values,omitempty"`
	Cells  []int    `json:"cells"`
}

// Pick is a point whose time series the report shows.
type Pick struct {
	// Label names why it was picked, e.g. "best", "testbed defaults".
	Label string `json:"label"`
	Cell  int    `json:"cell"`
	Point string `json:"point"`
	Seed  uint64 `json:"seed"`
	// WindowFrom and WindowTo bound, in seconds, the samples that lie in
	// the measurement window (model.MeasurementWindow: the last phase).
	WindowFrom float64 `json:"window_from"`
	WindowTo   float64 `json:"window_to"`
	Flows      []Flow  `json:"flows"`
	// Iterations are the per-iteration times of the point's apps, if any.
	Iterations []store.AppIterations `json:"iterations,omitempty"`
}

// Flow is one flow of a picked point.
type Flow struct {
	Name          string    `json:"name"`
	Role          string    `json:"role"`
	SampleSeconds float64   `json:"sample_seconds"`
	Gbps          []float64 `json:"gbps"`
	// MeanGbps is the flow's mean throughput over the measurement window.
	MeanGbps float64 `json:"mean_gbps"`
	// Share is a contributor's fraction of all contributors' throughput
	// over the window; 0 for other roles.
	Share float64 `json:"share,omitempty"`
}

// layout chooses the figures for a grid's dimensions: surfaces for every
// pair of numeric dimensions, or lines over the only numeric dimension (or
// the first categorical one when none is numeric).
//
// A grid that sweeps an offered load (a dimension "load" or "NAME.load")
// also gets load curves: lines over that dimension.
func layout(g *Grid) ([]*Surface, *Lines) {
	if x := loadDim(g); x >= 0 {
		var surfaces []*Surface
		var numeric []int
		for i := range g.Dims {
			if i != x && g.Dims[i].Numeric() && len(g.Dims[i].Values) > 1 {
				numeric = append(numeric, i)
			}
		}
		for a := 0; a < len(numeric); a++ {
			for b := a + 1; b < len(numeric); b++ {
				surfaces = append(surfaces, g.surface(numeric[a], numeric[b]))
			}
		}
		return surfaces, g.lines(x, g.others(x))
	}
	var numeric, other []int
	for i := range g.Dims {
		if g.Dims[i].Numeric() && len(g.Dims[i].Values) > 1 {
			numeric = append(numeric, i)
		} else {
			other = append(other, i)
		}
	}
	if len(numeric) >= 2 {
		var surfaces []*Surface
		for a := 0; a < len(numeric); a++ {
			for b := a + 1; b < len(numeric); b++ {
				surfaces = append(surfaces, g.surface(numeric[a], numeric[b]))
			}
		}
		return surfaces, nil
	}
	x := -1
	switch {
	case len(numeric) == 1:
		x = numeric[0]
	case len(other) > 0:
		x, other = other[0], other[1:]
	}
	if x < 0 {
		return nil, nil
	}
	return nil, g.lines(x, other)
}

// loadDim returns the index of the grid's offered-load dimension, or -1.
func loadDim(g *Grid) int {
	for i := range g.Dims {
		d := &g.Dims[i]
		if (d.Name == "load" || strings.HasSuffix(d.Name, ".load")) && d.Numeric() && len(d.Values) > 1 {
			return i
		}
	}
	return -1
}

// others returns every dimension index but skip.
func (g *Grid) others(skip ...int) []int {
	var out []int
	for i := range g.Dims {
		if !slices.Contains(skip, i) {
			out = append(out, i)
		}
	}
	return out
}

func (g *Grid) surface(x, y int) *Surface {
	s := &Surface{X: x, Y: y, XName: g.Dims[x].Name, YName: g.Dims[y].Name, Others: g.others(x, y)}
	nx, ny := len(g.Dims[x].Values), len(g.Dims[y].Values)
	byValues := map[string]*Slice{}
	for ci, c := range g.Cells {
		xi, yi := g.Dims[x].index(c.Key[x]), g.Dims[y].index(c.Key[y])
		if xi < 0 || yi < 0 {
			continue
		}
		vals := make([]string, len(s.Others))
		for k, o := range s.Others {
			vals[k] = c.Key[o]
		}
		sl := byValues[joinKey(vals)]
		if sl == nil {
			sl = &Slice{Values: vals, Cells: make([][]int, ny)}
			for j := range sl.Cells {
				sl.Cells[j] = slices.Repeat([]int{-1}, nx)
			}
			byValues[joinKey(vals)] = sl
			s.Slices = append(s.Slices, sl)
		}
		sl.Cells[yi][xi] = ci
	}
	// Cells are sorted by dimension values, so slices appear in order of
	// their first cell; sort them by the other dimensions' values.
	slices.SortStableFunc(s.Slices, func(a, b *Slice) int {
		for k, o := range s.Others {
			if c := cmp.Compare(g.Dims[o].index(a.Values[k]), g.Dims[o].index(b.Values[k])); c != 0 {
				return c
			}
		}
		return 0
	})
	s.Default = defaultSlice(g, s.Slices)
	return s
}

// defaultSlice returns the slice holding the testbed's defaults, or else
// the one with the most done cells.
func defaultSlice(g *Grid, candidates []*Slice) int {
	def := g.defaultCell()
	best, most := 0, -1
	for i, sl := range candidates {
		done := 0
		for _, row := range sl.Cells {
			for _, ci := range row {
				if ci >= 0 && ci == def {
					return i
				}
				if ci >= 0 && g.Cells[ci].Status == CellDone {
					done++
				}
			}
		}
		if done > most {
			best, most = i, done
		}
	}
	return best
}

func (g *Grid) lines(x int, others []int) *Lines {
	l := &Lines{X: x, XName: g.Dims[x].Name, Others: others}
	byValues := map[string]*LineSeries{}
	for ci, c := range g.Cells {
		xi := g.Dims[x].index(c.Key[x])
		if xi < 0 {
			continue
		}
		vals := make([]string, len(others))
		for k, o := range others {
			vals[k] = c.Key[o]
		}
		ls := byValues[joinKey(vals)]
		if ls == nil {
			ls = &LineSeries{Values: vals, Cells: slices.Repeat([]int{-1}, len(g.Dims[x].Values))}
			byValues[joinKey(vals)] = ls
			l.Series = append(l.Series, ls)
		}
		ls.Cells[xi] = ci
	}
	return l
}

// defaultCell returns the index of the done cell whose every dimension
// holds the testbed's value (or is unset), or -1.
func (g *Grid) defaultCell() int {
	for ci, c := range g.Cells {
		if c.Status != CellDone {
			continue
		}
		ok := true
		for i, d := range g.Dims {
			if c.Key[i] != "" && c.Key[i] != defaultValue(d.Name) {
				ok = false
				break
			}
		}
		if ok {
			return ci
		}
	}
	return -1
}

// PrimaryMetric returns the metric that ranks points: the victim's
// throughput when the scenario has a victim, else the contributors'.
func (g *Grid) PrimaryMetric() string {
	for _, m := range []string{"victim_gbps", "contributors_gbps"} {
		if slices.Contains(g.Metrics, m) {
			return m
		}
	}
	if len(g.Metrics) > 0 {
		return g.Metrics[0]
	}
	return ""
}

// pick chooses the points whose time series are shown: the best and the
// worst by the primary metric (ties go to the lower Var), the testbed's
// defaults, and CC off when the grid has it, and reads their series.
func (g *Grid) pick(ctx context.Context, db *store.DB) error {
	metric := g.PrimaryMetric()
	type choice struct {
		label string
		cell  int
	}
	var choices []choice
	if metric != "" {
		// Rank the CC settings: CC off is a baseline of its own.
		cc := slices.IndexFunc(g.Dims, func(d Dim) bool { return d.Name == "cc" })
		var done []int
		for ci, c := range g.Cells {
			if _, ok := c.Mean[metric]; ok && (cc < 0 || c.Key[cc] != "off") {
				done = append(done, ci)
			}
		}
		rank := func(a, b int) int {
			ca, cb := g.Cells[a], g.Cells[b]
			if c := cmp.Compare(cb.Mean[metric], ca.Mean[metric]); c != 0 {
				return c
			}
			return cmp.Compare(ca.Mean["var"], cb.Mean["var"])
		}
		if len(done) > 0 {
			choices = append(choices, choice{"best", slices.MinFunc(done, rank)})
		}
		if len(done) > 1 {
			choices = append(choices, choice{"worst", slices.MaxFunc(done, rank)})
		}
	}
	if ci := g.defaultCell(); ci >= 0 {
		choices = append(choices, choice{"testbed defaults", ci})
	}
	if ci := g.ccOffCell(); ci >= 0 {
		choices = append(choices, choice{"CC off", ci})
	}
	for _, ch := range choices {
		if i := slices.IndexFunc(g.Picks, func(p *Pick) bool { return p.Cell == ch.cell }); i >= 0 {
			g.Picks[i].Label += ", " + ch.label
			continue
		}
		p, err := g.readPick(ctx, db, ch.cell, g.Cells[ch.cell].Points[0])
		if err != nil {
			return err
		}
		p.Label = ch.label
		g.Picks = append(g.Picks, p)
	}
	return nil
}

// ccOffCell returns the done cell with CC off that holds the most testbed
// values, or -1 if the grid has no CC off point.
func (g *Grid) ccOffCell() int {
	cc := slices.IndexFunc(g.Dims, func(d Dim) bool { return d.Name == "cc" })
	if cc < 0 {
		return -1
	}
	best, bestScore := -1, -1
	for ci, c := range g.Cells {
		if c.Key[cc] != "off" || c.Status != CellDone {
			continue
		}
		score := 0
		for i, d := range g.Dims {
			if c.Key[i] == "" || c.Key[i] == defaultValue(d.Name) {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = ci, score
		}
	}
	return best
}

// readPick reads the series and the apps' iteration times of point id of cell ci and computes each
// flow's mean and share over the measurement window.
func (g *Grid) readPick(ctx context.Context, db *store.DB, ci int, id string) (*Pick, error) {
	c := g.Cells[ci]
	series, err := db.Series(ctx, id)
	if err != nil {
		return nil, err
	}
	p := &Pick{Cell: ci, Point: id, Seed: c.seedOf[id]}
	p.Flows, p.WindowFrom, p.WindowTo = flowStats(series, window(c))
	if p.Iterations, err = db.Iterations(ctx, id); err != nil {
		return nil, err
	}
	return p, nil
}

// windowFunc gives the measurement window of a point from the length of
// its series, n samples of interval sample.
type windowFunc func(n int, sample engine.Time) (from, to engine.Time)

// window returns the windowFunc of the points of cell c: the window of
// their scenario and configuration (model.Window) or, for a
// scenario this ccsweep does not know, the last phase of the sampled time.
func window(c *Cell) windowFunc {
	cfg := params.DefaultConfig()
	for _, p := range c.Params {
		_ = cfg.Set(p.Name, p.Value) // a parameter of another model version keeps its default
	}
	sc := workload.LookupScenario(c.scenario)
	return func(n int, sample engine.Time) (from, to engine.Time) {
		if sc != nil {
			return model.Window(sc, &cfg)
		}
		return model.MeasurementWindow(engine.Time(n)*sample, cfg.Phase)
	}
}

// flowStats returns the flows of a point with their means and shares over
// the samples in the window that win gives, and the bounds of those
// samples in seconds.
func flowStats(series []store.Series, win windowFunc) (flows []Flow, from, to float64) {
	var total float64
	for _, s := range series {
		f := Flow{Name: s.Flow, Role: s.Role, SampleSeconds: s.SampleSeconds, Gbps: s.Gbps}
		n := len(s.Gbps)
		first, last := 0, n-1
		if sample := engine.Time(math.Round(s.SampleSeconds * float64(engine.Second))); sample > 0 {
			wf, wt := win(n, sample)
			first, last = model.WindowSamples(wf, wt, sample, n)
		}
		from, to = float64(first)*s.SampleSeconds, float64(last+1)*s.SampleSeconds
		if first <= last {
			f.MeanGbps, _ = meanSD(s.Gbps[first : last+1])
		}
		if f.Role == string(workload.Contributor) {
			total += f.MeanGbps
		}
		flows = append(flows, f)
	}
	for i := range flows {
		if flows[i].Role == string(workload.Contributor) && total > 0 {
			flows[i].Share = flows[i].MeanGbps / total
		}
	}
	return flows, from, to
}

// describe spells a cell's dimension values, e.g. "ccti_timer=150us
// marking_rate=1".
func (g *Grid) describe(c *Cell) string {
	s := ""
	for i, d := range g.Dims {
		if c.Key[i] == "" {
			continue
		}
		if s != "" {
			s += " "
		}
		s += fmt.Sprintf("%s=%s", d.Name, c.Key[i])
	}
	if s == "" {
		return "the only point"
	}
	return s
}
