package report

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

//go:embed static
var static embed.FS

// The page's style and script.
var (
	pageCSS = mustRead("static/report.css")
	pageJS  = mustRead("static/report.js")
)

func mustRead(name string) string {
	b, err := static.ReadFile(name)
	if err != nil {
		panic(err) // embedded above
	}
	return string(b)
}

var pageTemplate = template.Must(template.New("page.html.tmpl").Funcs(template.FuncMap{
	"num":      numberText,
	"seconds":  func(s float64) string { return roundDuration(time.Duration(s * float64(time.Second))) },
	"duration": roundDuration,
	"time": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.Local().Format("2006-01-02 15:04:05 MST")
	},
	"join": strings.Join,
	"plural": func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	},
	"percent": func(n, of int) string { return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(max(of, 1))) },
	"short":   grids.ShortID,
	"values":  summarize,
	"sorted":  sortedParams,
}).ParseFS(static, "static/page.html.tmpl"))

// Options configure a report page.
type Options struct {
	// Assets are the ECharts scripts; nil means EmbeddedAssets.
	Assets *Assets
	// Version is the ccsweep version shown in the footer.
	Version string
	// Now is the time the report says it was made; zero means time.Now.
	Now time.Time
	// Query, if not nil, ranks each grid's points (see rank): the page
	// plots the Pareto front and outlines the recommended region on every
	// surface and heat map.
	Query *rank.Query
}

// Write writes the HTML report of every grid in db to w: an overview with
// provenance, the surfaces or lines of each grid, the time series of
// chosen points and fairness bars. It reads one consistent view of what db
// holds when it is called; a sweep may still be writing to db.
func Write(ctx context.Context, w io.Writer, db *store.DB, opt Options) error {
	ov, err := Load(ctx, db)
	if err != nil {
		return err
	}
	if opt.Query != nil {
		for _, g := range ov.Grids {
			if err := g.recommend(ctx, db, *opt.Query); err != nil {
				return err
			}
			if err := g.compare(ctx, db, opt.Query); err != nil {
				return err
			}
		}
	}
	p := newPage(ov, opt)
	for gi, g := range ov.Grids {
		p.addGrid(gi, g)
	}
	return p.render(w)
}

// page is what the template draws.
type page struct {
	Title     string
	Serve     bool
	Version   string
	Generated time.Time
	Overview  *Overview
	Grids     []*gridView
	Scripts   template.HTML
	Style     template.CSS
	Script    template.JS
	Data      template.JS
	Inline    bool
	ECharts   string

	data pageData
}

// pageData is the JSON the page's script reads.
type pageData struct {
	Mode     string                  `json:"mode"`
	Charts   map[string]*Chart       `json:"charts"`
	Surfaces map[string]*surfaceData `json:"surfaces"`
	Grids    []gridData              `json:"grids"`
}

type surfaceData struct {
	Slices  [][]string `json:"slices"`
	Charts  []string   `json:"charts"`
	Initial int        `json:"initial"`
}

type gridData struct {
	ID    string      `json:"id"`
	Name  string      `json:"name"`
	Dims  []Dim       `json:"dims"`
	Cells *cellsTable `json:"cells"`
}

// cellsTable is a grid's cells as the report page carries them (the serve
// page's /api/view sends Cells as they are): each parameter's name and each
// metric's name once for the grid, each cell's parameters as indices into
// the grid's list of values of each parameter, its means as a list in the
// grid's metric order. The page's script (cellOf) turns a row back into the
// Cell the formatters and the cell details read, when they read it.
type cellsTable struct {
	// Params are the names of the parameters the cells set, sorted.
	Params []string `json:"params"`
	// Values are the values of each parameter, in the order of their
	// first appearance.
	Values [][]string `json:"values"`
	// Metrics are the names of the metrics the cells have a mean of, sorted.
	Metrics []string   `json:"metrics"`
	Rows    []*cellRow `json:"rows"`
}

// cellRow is one Cell of a cellsTable, without its key and Added, which
// the page does not read.
type cellRow struct {
	Status string `json:"s"`
	// Counts are the cell's Seeds, Done and Failed.
	Counts [3]int `json:"c"`
	// Params holds, for each of the table's parameters, the index of the
	// cell's value in the table's Values, or -1 if the cell does not set it.
	Params []int `json:"p"`
	// Mean and SD hold the means and spreads of the table's Metrics (null
	// where the cell has none); SD is left out for a cell of one done
	// seed.
	Mean []*float64 `json:"m,omitempty"`
	SD   []*float64 `json:"sd,omitempty"`
	// Points and Errors are the cell's.
	Points []string `json:"id,omitempty"`
	Errors []string `json:"e,omitempty"`
}

type gridView struct {
	*Grid
	Index       int
	Surfaces    []*surfaceView
	Lines       []*Chart
	LinesX      string
	Picks       []*pickView
	Fairness    *Chart
	Pareto      *Chart
	AnswerText  string
	FailedCells []*Cell
	Primary     *Metric
	Compare     *compareView
}

type surfaceView struct {
	ID        string
	Title     string
	Selectors []*selector
	Rows      []*metricRow
}

type selector struct {
	Dim     string
	Options []selectOption
}

// Fixed reports whether the selector has one value only: the page shows it
// as text.
func (s *selector) Fixed() bool { return len(s.Options) == 1 }

type selectOption struct {
	Value, Label string
	Selected     bool
}

type metricRow struct {
	Metric        *Metric
	Surface, Heat *Chart
}

type pickView struct {
	*Pick
	Where   string
	Chart   *Chart
	Iter    *Chart // the apps' iteration times, or nil
	Metrics []string
}

func newPage(ov *Overview, opt Options) *page {
	assets := opt.Assets
	if assets == nil {
		assets = EmbeddedAssets()
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	var names []string
	for _, g := range ov.Grids {
		names = append(names, g.Name)
	}
	return &page{
		Title: "ccsweep report: " + strings.Join(names, ", "), Version: opt.Version, Generated: now, Overview: ov,
		Scripts: assets.tags(""), Style: template.CSS(pageCSS), Script: template.JS(pageJS), Inline: assets.Inline(),
		ECharts: fmt.Sprintf("echarts %s, echarts-gl %s", EChartsVersion, EChartsGLVersion),
		data:    pageData{Mode: "report", Charts: map[string]*Chart{}, Surfaces: map[string]*surfaceData{}},
	}
}

func (p *page) chart(c *Chart) *Chart {
	if c != nil {
		if c.Kind == "surface" || c.Kind == "heatmap" {
			for i, o := range c.Options {
				c.Options[i] = gridSeries(o)
			}
		}
		hoistCommon(c)
		p.data.Charts[c.ID] = c
	}
	return c
}

// seriesGrid is a series' data, points [x, y, rest...], written as a
// grid: each distinct x and y once, and each point's rest (a lone value
// bare, null where there is no point) in the order the points come:
// row by row (each y, every x) or, with T, column by column. The page's
// script (expandGrid in report.js) writes the points back.
type seriesGrid struct {
	X []json.RawMessage `json:"x"`
	Y []json.RawMessage `json:"y"`
	V []json.RawMessage `json:"v"`
	T bool              `json:"t,omitempty"`
}

// gridSeries writes the data of the first series of option, a surface's or
// a heat map's points, as a seriesGrid when its points are bare arrays at
// distinct places of a grid and the grid gives them back in their order;
// otherwise (a heat map's outlined cells are objects) it returns option as
// it is.
func gridSeries(option json.RawMessage) json.RawMessage {
	var o map[string]json.RawMessage
	var series []map[string]json.RawMessage
	var data []json.RawMessage
	if json.Unmarshal(option, &o) != nil || json.Unmarshal(o["series"], &series) != nil || len(series) == 0 ||
		json.Unmarshal(series[0]["data"], &data) != nil || len(data) < 2 {
		return option
	}
	var g seriesGrid
	xs, ys := map[string]int{}, map[string]int{}
	place := func(seen map[string]int, list *[]json.RawMessage, v json.RawMessage) int {
		i, ok := seen[string(v)]
		if !ok {
			i = len(*list)
			seen[string(v)] = i
			*list = append(*list, v)
		}
		return i
	}
	type point struct {
		x, y int
		rest json.RawMessage
	}
	points := make([]point, len(data))
	for k, d := range data {
		var item []json.RawMessage
		if json.Unmarshal(d, &item) != nil || len(item) < 3 {
			return option
		}
		rest := item[2]
		if len(item) == 3 && (rest[0] == '[' || string(rest) == "null") {
			return option // a lone rest that reads as a list, or as no point
		}
		if len(item) > 3 {
			rest, _ = json.Marshal(item[2:])
		}
		points[k] = point{place(xs, &g.X, item[0]), place(ys, &g.Y, item[1]), rest}
	}
	nx, ny := len(g.X), len(g.Y)
	for _, t := range []bool{false, true} {
		at := func(p point) int { return p.y*nx + p.x }
		if t {
			at = func(p point) int { return p.x*ny + p.y }
		}
		v, inOrder := make([]json.RawMessage, nx*ny), true
		for k, p := range points {
			if v[at(p)] != nil || (k > 0 && at(p) < at(points[k-1])) {
				inOrder = false // a place twice, or out of order
				break
			}
			v[at(p)] = p.rest
		}
		if !inOrder {
			continue
		}
		for i := range v {
			if v[i] == nil {
				v[i] = json.RawMessage("null")
			}
		}
		g.V, g.T = v, t
		b, err := json.Marshal(g)
		if err != nil {
			return option
		}
		series[0]["data"] = b
		if o["series"], err = json.Marshal(series); err != nil {
			return option
		}
		if b, err = json.Marshal(o); err != nil {
			return option
		}
		return b
	}
	return option
}

// hoistCommon moves the top-level keys whose values are the same in every
// option of c (axes, colour scale, tooltip: all but the data, for most
// charts of several slices) into c.Common, once.
func hoistCommon(c *Chart) {
	if len(c.Options) < 2 {
		return
	}
	opts := make([]map[string]json.RawMessage, len(c.Options))
	for i, o := range c.Options {
		if err := json.Unmarshal(o, &opts[i]); err != nil {
			return // written by marshalOption: an object
		}
	}
	common := map[string]json.RawMessage{}
	for k, v := range opts[0] {
		if !slices.ContainsFunc(opts[1:], func(o map[string]json.RawMessage) bool { return !bytes.Equal(o[k], v) }) {
			common[k] = v
		}
	}
	if len(common) == 0 {
		return
	}
	for i, o := range opts {
		for k := range common {
			delete(o, k)
		}
		b, err := json.Marshal(o)
		if err != nil {
			return // c is left as it was
		}
		c.Options[i] = b
	}
	c.Common, _ = json.Marshal(common)
}

// addGrid builds the charts of one grid.
func (p *page) addGrid(gi int, g *Grid) {
	v := &gridView{Grid: g, Index: gi, Primary: metricOf(g.PrimaryMetric())}
	p.data.Grids = append(p.data.Grids, gridData{ID: g.ID, Name: g.Name, Dims: g.Dims, Cells: pageCells(g.Cells)})
	for si, s := range g.Surfaces {
		sv := &surfaceView{ID: fmt.Sprintf("g%d-s%d", gi, si),
			Title: g.Dims[s.X].Label() + " × " + g.Dims[s.Y].Label()}
		sd := &surfaceData{Initial: s.Default}
		for _, sl := range s.Slices {
			sd.Slices = append(sd.Slices, sl.Values)
		}
		for k, o := range s.Others {
			sel := &selector{Dim: g.Dims[o].Name}
			for _, val := range g.Dims[o].Values {
				if slices.ContainsFunc(s.Slices, func(sl *Slice) bool { return sl.Values[k] == val }) {
					sel.Options = append(sel.Options, selectOption{Value: val, Label: val,
						Selected: len(s.Slices) > 0 && s.Slices[s.Default].Values[k] == val})
				}
			}
			if slices.ContainsFunc(s.Slices, func(sl *Slice) bool { return sl.Values[k] == "" }) {
				sel.Options = append(sel.Options, selectOption{Value: "", Label: "(default)",
					Selected: len(s.Slices) > 0 && s.Slices[s.Default].Values[k] == ""})
			}
			sv.Selectors = append(sv.Selectors, sel)
		}
		cs := surfaceCharts(g, gi, si, s)
		for i := 0; i+1 < len(cs); i += 2 {
			sv.Rows = append(sv.Rows, &metricRow{Metric: cs[i].Meta.Metric, Surface: p.chart(cs[i]), Heat: p.chart(cs[i+1])})
			sd.Charts = append(sd.Charts, cs[i].ID, cs[i+1].ID)
		}
		p.data.Surfaces[sv.ID] = sd
		v.Surfaces = append(v.Surfaces, sv)
	}
	if g.Lines != nil {
		v.LinesX = g.Dims[g.Lines.X].Label()
		for _, c := range lineCharts(g, gi, g.Lines) {
			v.Lines = append(v.Lines, p.chart(c))
		}
	}
	for pi, pk := range g.Picks {
		pv := &pickView{Pick: pk, Where: g.describe(g.Cells[pk.Cell]), Chart: p.chart(seriesChart(g, gi, pi, pk))}
		if c := iterationsChart(gi, pi, pk); c != nil {
			pv.Iter = p.chart(c)
		}
		for _, m := range lineMetrics(g, g.Lines) {
			if v, ok := g.Cells[pk.Cell].Mean[m]; ok {
				pv.Metrics = append(pv.Metrics, fmt.Sprintf("%s %s %s", metricOf(m).Title, numberText(v), metricOf(m).Unit))
			}
		}
		v.Picks = append(v.Picks, pv)
	}
	v.Compare = compareViewOf(g, gi, p.chart)
	v.Fairness = p.chart(fairnessChart(g, gi))
	if g.Answer != nil {
		v.Pareto = p.chart(paretoChart(g, gi))
		v.AnswerText = g.Answer.Summary(g)
	}
	for _, c := range g.Cells {
		if c.Failed > 0 {
			v.FailedCells = append(v.FailedCells, c)
		}
	}
	p.Grids = append(p.Grids, v)
}

// pageCells are the cells as the report page's script reads them
// (cellsTable): without the spreads of cells with one done seed, which it
// does not show (all zero; a third of a large grid's data), without their
// keys, which it does not read, and with means to five significant digits,
// which is what the charts plot.
func pageCells(cells []*Cell) *cellsTable {
	t := &cellsTable{Params: []string{}, Values: [][]string{}, Metrics: []string{}, Rows: make([]*cellRow, len(cells))}
	params, metrics := map[string]bool{}, map[string]bool{}
	for _, c := range cells {
		for _, p := range c.Params {
			params[p.Name] = true
		}
		for m := range c.Mean {
			metrics[m] = true
		}
	}
	t.Params, t.Metrics = slices.Sorted(maps.Keys(params)), slices.Sorted(maps.Keys(metrics))
	t.Values = make([][]string, len(t.Params))
	index := make([]map[string]int, len(t.Params))
	for i := range index {
		index[i] = map[string]int{}
	}
	list := func(m map[string]float64, round bool) []*float64 {
		if len(m) == 0 {
			return nil
		}
		out := make([]*float64, len(t.Metrics))
		for i, name := range t.Metrics {
			if v, ok := m[name]; ok {
				if round {
					// Five significant digits, one more than the cell's
					// details show.
					v = roundSig(v, 5)
				}
				out[i] = &v
			}
		}
		return out
	}
	for ci, c := range cells {
		r := &cellRow{Status: c.Status, Counts: [3]int{c.Seeds, c.Done, c.Failed}, Params: make([]int, len(t.Params)),
			Mean: list(c.Mean, true), Points: c.Points, Errors: c.Errors}
		if c.Done > 1 {
			r.SD = list(c.SD, false)
		}
		for i := range r.Params {
			r.Params[i] = -1
		}
		for _, p := range c.Params {
			i, _ := slices.BinarySearch(t.Params, p.Name)
			k, ok := index[i][p.Value]
			if !ok {
				k = len(t.Values[i])
				index[i][p.Value] = k
				t.Values[i] = append(t.Values[i], p.Value)
			}
			r.Params[i] = k
		}
		t.Rows[ci] = r
	}
	return t
}

func (p *page) render(w io.Writer) error {
	data, err := json.Marshal(p.data) // escapes <, > and & for the script element
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	p.Data = template.JS(data)
	if err := pageTemplate.Execute(w, p); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// roundDuration spells d to about three significant digits: 1.25s, 3m20s.
func roundDuration(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(time.Millisecond).String()
}

// summarize lists values, eliding the middle of long lists.
func summarize(vals []string) string {
	if len(vals) <= 8 {
		return strings.Join(vals, ", ")
	}
	return fmt.Sprintf("%s, %s, %s, … %s (%d values)", vals[0], vals[1], vals[2], vals[len(vals)-1], len(vals))
}

// sortedParams returns a map's entries as name=value, sorted by name.
func sortedParams(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}
