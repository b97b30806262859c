package report

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// Recommendation is the answer of a rank.Query over a grid's points, by
// cell: what `ccsweep best` prints, for the page to draw.
type Recommendation struct {
	// Objectives and Where spell the query.
	Objectives []string `json:"objectives"`
	Where      []string `json:"where,omitempty"`
	Robust     bool     `json:"robust,omitempty"`
	// Best is the cell of the recommended point, -1 if no point is
	// feasible; Region and Front the cells of the recommended region and
	// of the Pareto front, by rank.
	Best   int   `json:"best"`
	Region []int `json:"region"`
	Front  []int `json:"front"`
	// Feasible counts the points that meet every constraint; Points those
	// ranked.
	Feasible, Points int `json:"-"`
	answer           *rank.Answer
	cellOf           map[*rank.Entry]int
}

// recommend ranks the grid's stored points by q and records the answer by
// cell. It must run once the cells are final (after plan).
func (g *Grid) recommend(ctx context.Context, db *store.DB, q rank.Query) error {
	results := g.storedResults()
	for i := range results {
		results[i].GridID = ""
	}
	a, err := rank.Rank(store.Summarize(results), q)
	if err != nil {
		return err
	}
	r := &Recommendation{Robust: q.Robust, Best: -1, Region: []int{}, Front: []int{}, Feasible: a.Feasible,
		Points: len(a.Points), answer: a, cellOf: map[*rank.Entry]int{}}
	for _, o := range q.Objectives {
		r.Objectives = append(r.Objectives, o.String())
	}
	for _, w := range q.Where {
		r.Where = append(r.Where, w.Src)
	}
	byKey := map[string]int{}
	for i, c := range g.Cells {
		byKey[joinKey(c.Key)] = i
	}
	for _, p := range a.Points {
		ci, ok := byKey[joinKey(keyOf(g.Dims, p.Value))]
		if !ok {
			continue
		}
		r.cellOf[p] = ci
		if p == a.Best {
			r.Best = ci
		}
		if p.InRegion {
			r.Region = append(r.Region, ci)
		}
		if p.Pareto {
			r.Front = append(r.Front, ci)
		}
	}
	g.Answer = r
	return nil
}

// Summary spells the recommendation in a sentence for the page.
func (r *Recommendation) Summary(g *Grid) string {
	if r.Best < 0 {
		return fmt.Sprintf("No point of %d meets %s.", r.Points, strings.Join(r.Where, " and "))
	}
	s := fmt.Sprintf("Recommended: %s; %d points in the region about as good (outlined on every surface and heat map), %d on the Pareto front",
		g.describe(g.Cells[r.Best]), len(r.Region), len(r.Front))
	if len(r.Where) > 0 {
		s += fmt.Sprintf("; %d of %d points meet %s", r.Feasible, r.Points, strings.Join(r.Where, " and "))
	}
	return s + "."
}

// Colours of the recommendation's marks.
const (
	regionColor = "#111111"
	bestColor   = "#d62728"
)

// inRegion reports whether cell ci is in the recommended region.
func (r *Recommendation) inRegion(ci int) bool {
	return r != nil && ci >= 0 && slices.Contains(r.Region, ci)
}

// regionSeries3D returns scatter series marking, on a surface slice, the
// cells of the recommended region and the recommended point, at their
// value of metric.
func regionSeries3D(g *Grid, s *Surface, sl *Slice, metric string, xSlots, ySlots bool) []charts.SingleSeries {
	r := g.Answer
	if r == nil {
		return nil
	}
	x, y := &g.Dims[s.X], &g.Dims[s.Y]
	var region, best []opts.Chart3DData
	for yi, row := range sl.Cells {
		for xi, ci := range row {
			if !r.inRegion(ci) && ci != r.Best || ci < 0 {
				continue
			}
			v, ok := g.Cells[ci].Mean[metric]
			if !ok {
				continue
			}
			d := opts.Chart3DData{Value: []any{coord(x, xi, xSlots), coord(y, yi, ySlots), roundSig(v, 5)}}
			if ci == r.Best {
				best = append(best, d)
			} else {
				region = append(region, d)
			}
		}
	}
	var out []charts.SingleSeries
	if len(region) > 0 {
		out = append(out, charts.SingleSeries{Name: "recommended region", Type: types.ChartScatter3D, CoordSystem: types.ChartCartesian3D,
			Data: region, ItemStyle: &opts.ItemStyle{Color: regionColor}, SymbolSize: 7})
	}
	if len(best) > 0 {
		out = append(out, charts.SingleSeries{Name: "recommended", Type: types.ChartScatter3D, CoordSystem: types.ChartCartesian3D,
			Data: best, ItemStyle: &opts.ItemStyle{Color: bestColor}, Symbol: "diamond", SymbolSize: 16})
	}
	return out
}

// outlineRegion draws a border round every heat-map cell of the
// recommended region, and a red one round the recommended point: it turns
// the heat map series' data items into objects with an itemStyle.
func outlineRegion(g *Grid, option json.RawMessage) json.RawMessage {
	r := g.Answer
	if r == nil || (len(r.Region) == 0 && r.Best < 0) {
		return option
	}
	var m map[string]any
	if err := json.Unmarshal(option, &m); err != nil {
		return option
	}
	series, _ := m["series"].([]any)
	if len(series) == 0 {
		return option
	}
	s0, _ := series[0].(map[string]any)
	data, _ := s0["data"].([]any)
	for i, d := range data {
		// An item is a bare [x, y, ...] (bareOptionOf) or {"value": [...]}.
		item, _ := d.(map[string]any)
		val, _ := d.([]any)
		if item != nil {
			val, _ = item["value"].([]any)
		}
		if len(val) < 4 { // [x, y, mean, cell, ...] (heatmapOptionScaled)
			continue
		}
		f, _ := val[3].(float64)
		ci := int(f)
		var style map[string]any
		switch {
		case ci == r.Best && ci >= 0:
			style = map[string]any{"borderColor": bestColor, "borderWidth": 3}
		case r.inRegion(ci):
			style = map[string]any{"borderColor": regionColor, "borderWidth": 2}
		default:
			continue
		}
		if item == nil {
			item = map[string]any{"value": val}
		}
		item["itemStyle"] = style
		data[i] = item
	}
	out, err := json.Marshal(m)
	if err != nil {
		return option
	}
	return out
}

// paretoChart plots the points on the first two objectives of the query:
// every ranked point, the Pareto front joined by a line, the recommended
// point; nil without a recommendation of two objectives or more.
func paretoChart(g *Grid, gi int) *Chart {
	r := g.Answer
	if r == nil || len(r.answer.Query.Objectives) < 2 {
		return nil
	}
	q := r.answer.Query
	ox, oy := q.Objectives[0], q.Objectives[1]
	mx, my := metricOf(ox.Metric), metricOf(oy.Metric)
	if mx == nil || my == nil {
		return nil
	}
	var others, infeasible, front, best []opts.ScatterData
	for _, p := range r.answer.Points {
		ci, ok := r.cellOf[p]
		if !ok {
			continue
		}
		d := opts.ScatterData{Value: []any{roundSig(p.Own[0], 5), roundSig(p.Own[1], 5), ci}}
		switch {
		case !p.Feasible:
			infeasible = append(infeasible, d)
		case p == r.answer.Best:
			best = append(best, d)
			front = append(front, d)
		case p.Pareto:
			front = append(front, d)
		default:
			others = append(others, d)
		}
	}
	slices.SortFunc(front, func(a, b opts.ScatterData) int {
		ax, bx := a.Value.([]any)[0].(float64), b.Value.([]any)[0].(float64)
		switch {
		case ax < bx:
			return -1
		case ax > bx:
			return 1
		}
		return 0
	})
	sc := charts.NewScatter()
	sc.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Formatter: "fn:pareto"}),
		charts.WithXAxisOpts(opts.XAxis{Name: mx.Label(), Type: "value", NameLocation: "middle", NameGap: 30, Scale: opts.Bool(true)}),
		charts.WithYAxisOpts(opts.YAxis{Name: my.Label(), Type: "value", NameLocation: "middle", NameGap: 48, Scale: opts.Bool(true)}),
		charts.WithGridOpts(opts.Grid{Left: "70", Right: "30", Top: "20", Bottom: "80"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Bottom: "0"}),
	)
	if len(infeasible) > 0 {
		sc.AddSeries("fails a constraint", infeasible, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#d9d9d9"}))
	}
	sc.AddSeries("other points", others, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#8c8c8c"}))
	sc.AddSeries("Pareto front", front, charts.WithItemStyleOpts(opts.ItemStyle{Color: "#1f77b4"}))
	sc.AddSeries("recommended", best, charts.WithItemStyleOpts(opts.ItemStyle{Color: bestColor}))
	extra := make([]any, len(sc.MultiSeries))
	for i, s := range sc.MultiSeries {
		switch s.Name {
		case "Pareto front":
			extra[i] = map[string]any{"type": "line", "symbol": "circle", "symbolSize": 8, "lineStyle": map[string]any{"type": "dashed"}}
		case "recommended":
			extra[i] = map[string]any{"symbol": "diamond", "symbolSize": 18, "z": 5}
		default:
			extra[i] = map[string]any{"symbolSize": 6}
		}
	}
	return &Chart{ID: fmt.Sprintf("g%d-pareto", gi), Kind: "pareto", Height: 460,
		Options: []json.RawMessage{optionOf(sc, map[string]any{"series": extra})},
		Meta:    &Meta{Grid: gi, X: &AxisMeta{Name: ox.Metric, Title: mx.Label()}, Y: &AxisMeta{Name: oy.Metric, Title: my.Label()}}}
}
