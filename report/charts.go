package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"slices"
	"strings"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
	"github.com/go-echarts/go-echarts/v2/types"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
)

// Chart is one chart of a page: a div the page's script draws Options[Initial]
// into with ECharts.
type Chart struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // surface, heatmap, line, series, iterations or fairness
	// GL is set for charts drawn with echarts-gl (WebGL).
	GL     bool `json:"gl,omitempty"`
	Height int  `json:"height"` // in CSS pixels
	// Options are the ECharts options, one per slice of a surface's other
	// dimensions (a page's selectors switch between them) or just one.
	Options []json.RawMessage `json:"options"`
	// Common, when set, holds the top-level keys of the options that are
	// the same in every one of them, left out of each (a report page's
	// surfaces and heat maps: hoistCommon); the page draws Common with
	// Options[i]'s keys over it.
	Common  json.RawMessage `json:"common,omitempty"`
	Initial int             `json:"initial"`
	// Meta carries what the page's formatters need: axis labels, units,
	// digits.
	Meta *Meta `json:"meta"`
}

// Meta describes a chart's axes and values to the page's script.
type Meta struct {
	X      *AxisMeta `json:"x,omitempty"`
	Y      *AxisMeta `json:"y,omitempty"`
	Metric *Metric   `json:"metric,omitempty"`
	// Grid is the index of the chart's grid on the page.
	Grid int `json:"grid"`
	// Gbps holds, for fairness bars, each series' flow throughputs.
	Gbps [][]float64 `json:"gbps,omitempty"`
}

// AxisMeta is a chart axis: its title and, for slot axes, the label of each
// slot.
type AxisMeta struct {
	Name   string   `json:"name"`
	Title  string   `json:"title"`
	Labels []string `json:"labels,omitempty"`
}

// Metric describes a stored metric for display: model.Metric's name,
// label (as Title) and unit, with the digits the report shows.
type Metric struct {
	Name   string `json:"name"`
	Title  string `json:"title"`
	Unit   string `json:"unit,omitempty"`
	Digits int    `json:"digits"` // significant digits in labels
}

// Label returns the metric's title with its unit.
func (m *Metric) Label() string {
	if m.Unit == "" {
		return m.Title
	}
	return m.Title + " (" + m.Unit + ")"
}

// fewerDigits are the significant digits of metrics whose labels show
// fewer than three: spreads, which are noisier than means.
var fewerDigits = map[string]int{"var": 2, "sd_gbps": 2}

// metrics describes every metric of model.MetricList by name.
var metrics = func() map[string]*Metric {
	out := map[string]*Metric{}
	for _, m := range model.MetricList() {
		digits, ok := fewerDigits[m.Name]
		if !ok {
			digits = 3
		}
		out[m.Name] = &Metric{Name: m.Name, Title: m.Label, Unit: m.Unit, Digits: digits}
	}
	return out
}()

// LookupMetric returns the display description of a stored metric, or nil.
func LookupMetric(name string) *Metric { return metricOf(name) }

// metricOf describes a stored metric: one of model.MetricList, or a
// closed-loop app's (store.IsAppMetricName), titled by its name with its
// unit from its suffix; nil for any other name.
func metricOf(name string) *Metric {
	if m := metrics[name]; m != nil {
		return m
	}
	if !store.IsAppMetricName(name) {
		return nil
	}
	m := &Metric{Name: name, Title: strings.ReplaceAll(name, "_", " "), Digits: 3}
	switch {
	case strings.HasSuffix(name, "_us"):
		m.Title, m.Unit = strings.TrimSuffix(m.Title, " us"), "µs"
	case strings.HasSuffix(name, "_mbps"):
		m.Title, m.Unit = strings.TrimSuffix(m.Title, " mbps"), "MB/s"
	}
	return m
}

// appHeadline reports whether an app's metric is drawn like the
// throughput metrics: a ping-pong's mean latency and bandwidth, a ring's
// latency and bandwidth, a collective's mean iteration time.
func appHeadline(name string) bool {
	if metrics[name] != nil {
		return false
	}
	for _, suffix := range []string{"_latency_mean_us", "_bandwidth_mean_mbps", "_latency_us", "_bandwidth_mbps", "_iteration_mean_us"} {
		if strings.HasSuffix(name, suffix) && !strings.HasSuffix(name, "_op_latency_mean_us") {
			return true
		}
	}
	return false
}

// surfaceMetrics returns the metrics drawn as surfaces: the paper's
// figures 11, 12 and 14 (victim, contributors, Var), with Jain's index in
// place of the victim when the scenario has none.
func surfaceMetrics(g *Grid) []string {
	want := []string{"victim_gbps", "contributors_gbps", "var"}
	if !slices.Contains(g.Metrics, "victim_gbps") {
		want = []string{"contributors_gbps", "fairness_jain", "var"}
	}
	want = slices.DeleteFunc(want, func(m string) bool { return !slices.Contains(g.Metrics, m) })
	return append(want, slices.DeleteFunc(slices.Clone(g.Metrics), func(m string) bool { return !appHeadline(m) })...)
}

// palette is the colour scale of surfaces and heat maps, low to high
// (viridis).
var palette = []string{"#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"}

// Colours of markers for points that failed or are not stored.
const (
	failedColor  = "#d62728"
	missingColor = "#9e9e9e"
)

// surfaceMeans yields the means of a metric over the cells of every slice
// of a surface that have it.
func surfaceMeans(g *Grid, s *Surface, metric string) iter.Seq[float64] {
	return func(yield func(float64) bool) {
		for _, sl := range s.Slices {
			for _, row := range sl.Cells {
				for _, ci := range row {
					if ci < 0 {
						continue
					}
					if v, ok := g.Cells[ci].Mean[metric]; ok && !yield(v) {
						return
					}
				}
			}
		}
	}
}

// metricRange returns the smallest and largest mean of a metric over the
// cells of every slice of a surface, widened when they are equal: the
// colour scale and the height stay put when the page switches slices.
func metricRange(g *Grid, s *Surface, metric string) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for v := range surfaceMeans(g, s, metric) {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo > hi {
		return 0, 1
	}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	return roundSig(lo, 4), roundSig(hi, 4)
}

// sliverShare is the widest span of a surface's values, as a share of
// their mean, that its charts call a sliver: the z axis and the colour
// scale stretch any span to the chart's full height and palette, so that
// differences of a few per cent (often noise between seeds) look like a
// landscape.
const sliverShare = 0.05

// sliverNote returns a note saying so when the means of a metric over
// every slice of a surface span at most sliverShare of their mean's
// magnitude, or "".
func sliverNote(g *Grid, s *Surface, metric string) string {
	lo, hi, sum, n := math.Inf(1), math.Inf(-1), 0.0, 0
	for v := range surfaceMeans(g, s, metric) {
		lo, hi, sum, n = math.Min(lo, v), math.Max(hi, v), sum+v, n+1
	}
	mean := sum / float64(n)
	if n < 2 || mean == 0 || math.IsInf(mean, 0) || math.IsNaN(mean) || hi-lo > sliverShare*math.Abs(mean) {
		return ""
	}
	unit := ""
	if m := metricOf(metric); m != nil && m.Unit != "" {
		unit = " " + m.Unit
	}
	if hi == lo {
		return fmt.Sprintf("Every point has %s%s: the surface is flat.", numberText(lo), unit)
	}
	return fmt.Sprintf("All values lie within %s–%s%s, %.2g%% of their mean %s: the relief is magnified, and differences this small may be noise.",
		numberText(lo), numberText(hi), unit, 100*(hi-lo)/math.Abs(mean), numberText(mean))
}

// noteTitle is the chart title that shows a sliver note above the chart.
func noteTitle(note string) map[string]any {
	return map[string]any{"subtext": note, "left": 0, "top": 0, "padding": 0,
		"subtextStyle": map[string]any{"color": "#b03a2e", "fontSize": 12, "lineHeight": 16, "width": 560, "overflow": "break"}}
}

// niceRange widens [lo, hi] to round numbers for an axis; an empty range
// (a surface whose values all round to one number) is widened by 0.5 each
// way first.
func niceRange(lo, hi float64) (float64, float64) {
	if math.IsInf(hi-lo, 0) || math.IsNaN(hi-lo) { // values near ±MaxFloat64: as they are
		if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(hi-lo) {
			return 0, 1
		}
		return lo, hi
	}
	if !(hi > lo) { // one value everywhere: a range around it
		d := math.Abs(lo) * 0.1
		if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
			return 0, 1
		}
		if math.IsInf(lo-d, 0) || math.IsInf(hi+d, 0) {
			return lo, hi
		}
		return niceRange(lo-d, hi+d)
	}
	step := math.Pow(10, math.Floor(math.Log10(hi-lo)))
	if (hi-lo)/step < 3 {
		step /= 5
	}
	nlo, nhi := math.Floor(lo/step)*step, math.Ceil(hi/step)*step
	if lo >= 0 && nlo < 0 {
		nlo = 0
	}
	return roundSig(nlo, 6), roundSig(nhi, 6)
}

// axisMeta describes a dimension as a chart axis; slot axes get labels.
func axisMeta(d *Dim, slots bool) *AxisMeta {
	a := &AxisMeta{Name: d.Name, Title: d.Label()}
	if slots || !d.Numeric() {
		a.Labels = make([]string, len(d.Values))
		for i, v := range d.Values {
			if d.Numeric() {
				a.Labels[i] = numberText(d.Nums[i])
			} else {
				a.Labels[i] = v
			}
		}
	}
	return a
}

// coord returns where value index i of d sits on a chart axis: its number
// on a value axis, its index on a slot axis.
func coord(d *Dim, i int, slots bool) any {
	if slots || !d.Numeric() {
		return i
	}
	return d.Nums[i]
}

// surfaceCharts returns, for each of the grid's surface metrics, the 3D
// surface and its heat-map twin.
func surfaceCharts(g *Grid, gi, si int, s *Surface) []*Chart {
	var out []*Chart
	for _, m := range surfaceMetrics(g) {
		surf, heat := surfacePair(g, gi, si, s, m)
		out = append(out, surf, heat)
	}
	return out
}

// surfacePair returns the 3D surface of a metric and its heat-map twin, each
// with an option per slice.
func surfacePair(g *Grid, gi, si int, s *Surface, m string) (surf, heat *Chart) {
	surf = &Chart{ID: fmt.Sprintf("g%d-s%d-%s-3d", gi, si, m), Kind: "surface", GL: true, Initial: s.Default}
	heat = &Chart{ID: fmt.Sprintf("g%d-s%d-%s-heat", gi, si, m), Kind: "heatmap", Initial: s.Default}
	sc := surfaceScaleOf(g, s, m) // once: it reads every slice
	for _, sl := range s.Slices {
		surf.Options = append(surf.Options, surfaceOptionScaled(g, s, sl, m, sc))
		heat.Options = append(heat.Options, heatmapOptionScaled(g, s, sl, m, sc))
	}
	x, y := &g.Dims[s.X], &g.Dims[s.Y]
	surf.Meta = &Meta{Grid: gi, Metric: metricOf(m), X: axisMeta(x, x.Scale != ScaleLinear), Y: axisMeta(y, y.Scale != ScaleLinear)}
	hx, hy := heatAxes(g, s)
	heat.Meta = &Meta{Grid: gi, Metric: metricOf(m), X: axisMeta(&g.Dims[hx], true), Y: axisMeta(&g.Dims[hy], true)}
	heat.Height = max(420, 18*len(g.Dims[hy].Values)+130)
	surf.Height = 520 // a 3D view clips in a tall narrow box
	if heat.Height < surf.Height {
		heat.Height = surf.Height
	}
	return surf, heat
}

// heatAxes puts the dimension with more values on the heat map's vertical
// axis, so that every cell is wide enough for its label.
func heatAxes(g *Grid, s *Surface) (x, y int) {
	if len(g.Dims[s.X].Values) > len(g.Dims[s.Y].Values) {
		return s.Y, s.X
	}
	return s.X, s.Y
}

// surfaceScale is what the charts of a metric share over every slice of a
// surface: the range of the colour scale and the sliver note.
type surfaceScale struct {
	lo, hi float64
	note   string
}

func surfaceScaleOf(g *Grid, s *Surface, metric string) surfaceScale {
	lo, hi := metricRange(g, s, metric)
	return surfaceScale{lo, hi, sliverNote(g, s, metric)}
}

func surfaceOption(g *Grid, s *Surface, sl *Slice, metric string) json.RawMessage {
	return surfaceOptionScaled(g, s, sl, metric, surfaceScaleOf(g, s, metric))
}

func surfaceOptionScaled(g *Grid, s *Surface, sl *Slice, metric string, sc surfaceScale) json.RawMessage {
	x, y := &g.Dims[s.X], &g.Dims[s.Y]
	xSlots, ySlots := x.Scale != ScaleLinear, y.Scale != ScaleLinear
	m := metricOf(metric)
	lo, hi := sc.lo, sc.hi
	zlo, zhi := niceRange(lo, hi)

	fill := g.fill(s, sl, metric) // nil unless refinement made the grid irregular
	var data, failed, missing, sampled []opts.Chart3DData
	for yi, row := range sl.Cells {
		for xi, ci := range row {
			xy := []any{coord(x, xi, xSlots), coord(y, yi, ySlots)}
			var c *Cell
			if ci >= 0 {
				c = g.Cells[ci]
			}
			v, ok := any("-"), false
			if c != nil {
				var mean float64
				if mean, ok = c.Mean[metric]; ok {
					v = roundSig(mean, 5)
					if fill != nil {
						sampled = append(sampled, opts.Chart3DData{Value: append(slices.Clone(xy), v)})
					}
				}
			} else if fill != nil && !math.IsNaN(fill[yi][xi]) {
				v, ok = roundSig(fill[yi][xi], 5), true
			}
			data = append(data, opts.Chart3DData{Value: append(slices.Clone(xy), v)})
			switch {
			case ok, c == nil && fill != nil: // interpolated, or no point of the grid
			case c != nil && c.Status == CellFailed:
				failed = append(failed, opts.Chart3DData{Value: append(xy, zlo)})
			case c == nil || c.Status == CellMissing:
				missing = append(missing, opts.Chart3DData{Value: append(xy, zlo)})
			}
		}
	}
	c := charts.NewSurface3D()
	c.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Formatter: "fn:surface"}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Dimension: "2", Right: "0", Top: "middle",
			InRange: &opts.VisualMapInRange{Color: palette}, Text: []string{unitText(m, true), unitText(m, false)}}),
		charts.WithXAxis3DOpts(opts.XAxis3D{Name: x.Label(), Type: axisType(xSlots)}),
		charts.WithYAxis3DOpts(opts.YAxis3D{Name: y.Label(), Type: axisType(ySlots)}),
		charts.WithZAxis3DOpts(opts.ZAxis3D{Name: m.Unit, Type: "value"}),
	)
	c.AddSeries(m.Title, data)
	c.MultiSeries[0].Type = types.ChartSurface3D // AddSeries makes scatter3D
	for _, mk := range []struct {
		name, color string
		data        []opts.Chart3DData
	}{{"failed", failedColor, failed}, {"not stored", missingColor, missing}, {"points run", sampledColor, sampled}} {
		if len(mk.data) > 0 {
			c.MultiSeries = append(c.MultiSeries, charts.SingleSeries{Name: mk.name, Type: types.ChartScatter3D,
				CoordSystem: types.ChartCartesian3D, Data: mk.data, ItemStyle: &opts.ItemStyle{Color: mk.color}})
		}
	}
	c.MultiSeries = append(c.MultiSeries, regionSeries3D(g, s, sl, metric, xSlots, ySlots)...)
	axis := func(slots bool, a *AxisMeta) map[string]any {
		// A line height above the font size keeps echarts-gl from clipping
		// underscores and descenders.
		o := map[string]any{"nameGap": 26, "nameTextStyle": map[string]any{"fontSize": 13, "lineHeight": 22},
			"axisLabel": map[string]any{"fontSize": 11, "lineHeight": 18}}
		if slots {
			o["data"] = a.Labels
		} else {
			o["min"], o["max"] = "dataMin", "dataMax"
		}
		return o
	}
	extra := map[string]any{
		"legend":  map[string]any{"show": len(c.MultiSeries) > 1, "bottom": 0, "data": seriesNames(c.MultiSeries[1:])},
		"xAxis3D": axis(xSlots, axisMeta(x, true)),
		"yAxis3D": axis(ySlots, axisMeta(y, true)),
		"zAxis3D": map[string]any{"nameGap": 20, "min": zlo, "max": zhi, "nameTextStyle": map[string]any{"fontSize": 13, "lineHeight": 22},
			"axisLabel": map[string]any{"fontSize": 11, "lineHeight": 18}},
		"grid3D": map[string]any{"left": 0, "right": 110, "top": 0, "bottom": 10, "boxWidth": 100, "boxDepth": 100, "boxHeight": 65,
			"viewControl": map[string]any{"alpha": 20, "beta": 30, "distance": 225},
			"axisPointer": map[string]any{"show": false}},
		"visualMap": []any{map[string]any{"min": lo, "max": hi, "precision": precision(lo, hi), "seriesIndex": 0, "itemHeight": 180}},
		"series": []any{map[string]any{"wireframe": map[string]any{"show": true, "lineStyle": map[string]any{"color": "rgba(0,0,0,0.25)"}},
			"shading": "color"}},
	}
	if note := sc.note; note != "" {
		extra["title"] = noteTitle(note)
		extra["grid3D"].(map[string]any)["top"] = 36
	}
	return bareOptionOf(c, extra)
}

func heatmapOption(g *Grid, s *Surface, sl *Slice, metric string) json.RawMessage {
	return heatmapOptionScaled(g, s, sl, metric, surfaceScaleOf(g, s, metric))
}

func heatmapOptionScaled(g *Grid, s *Surface, sl *Slice, metric string, sc surfaceScale) json.RawMessage {
	hx, hy := heatAxes(g, s)
	x, y := &g.Dims[hx], &g.Dims[hy]
	m := metricOf(metric)
	lo, hi := sc.lo, sc.hi
	fill := g.fill(s, sl, metric) // nil unless refinement made the grid irregular
	var data []opts.HeatMapData
	var failed, missing []opts.ScatterData
	for yi, row := range sl.Cells {
		for xi, ci := range row {
			hxi, hyi := xi, yi
			if hx != s.X { // transposed: the surface's y is the heat map's x
				hxi, hyi = yi, xi
			}
			var c *Cell
			if ci >= 0 {
				c = g.Cells[ci]
			}
			switch {
			case c != nil && c.Status == CellDone:
				mean, ok := c.Mean[metric]
				if !ok {
					continue
				}
				// [x, y, mean, cell], and the spread for a cell of
				// several done seeds: the tooltip reads the seeds from
				// the cell.
				v := []any{hxi, hyi, roundSig(mean, 5), ci}
				if c.Done > 1 {
					v = append(v, roundSig(c.SD[metric], 3))
				}
				data = append(data, opts.HeatMapData{Value: v})
			case c != nil && c.Status == CellFailed:
				failed = append(failed, opts.ScatterData{Value: []any{hxi, hyi, ci}})
			case c == nil && fill != nil:
				// Not a point of the grid: interpolated between points run
				// (cell -1), or left blank.
				if v := fill[yi][xi]; !math.IsNaN(v) {
					data = append(data, opts.HeatMapData{Value: []any{hxi, hyi, roundSig(v, 5), -1}})
				}
			default:
				missing = append(missing, opts.ScatterData{Value: []any{hxi, hyi, ci}})
			}
		}
	}
	h := charts.NewHeatMap()
	h.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Formatter: "fn:cell"}),
		charts.WithVisualMapOpts(opts.VisualMap{Calculable: opts.Bool(true), Dimension: "2", Right: "0", Top: "middle",
			InRange: &opts.VisualMapInRange{Color: palette}, Text: []string{unitText(m, true), unitText(m, false)}}),
		// HeatMap.Validate drops SetXAxis's data: set it here.
		charts.WithXAxisOpts(opts.XAxis{Name: x.Label(), Type: "category", Data: axisMeta(x, true).Labels,
			NameLocation: "middle", NameGap: 30, SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}),
		charts.WithYAxisOpts(opts.YAxis{Name: y.Label(), Type: "category", Data: axisMeta(y, true).Labels,
			NameLocation: "middle", NameGap: 48, SplitArea: &opts.SplitArea{Show: opts.Bool(true)}}),
		charts.WithGridOpts(opts.Grid{Left: "70", Right: "105", Top: "20", Bottom: "70"}),
	)
	h.AddSeries(m.Title, data, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Formatter: "fn:heatLabel", FontSize: 11}),
		charts.WithEmphasisOpts(opts.Emphasis{ItemStyle: &opts.ItemStyle{BorderColor: "#000", BorderWidth: 1}}))
	markers := charts.NewScatter()
	if len(failed) > 0 {
		markers.AddSeries("failed", failed, charts.WithItemStyleOpts(opts.ItemStyle{Color: failedColor}))
	}
	if len(missing) > 0 {
		markers.AddSeries("not stored", missing, charts.WithItemStyleOpts(opts.ItemStyle{Color: missingColor}))
	}
	h.Overlap(markers)
	extraSeries := []any{map[string]any{}}
	for range markers.MultiSeries {
		extraSeries = append(extraSeries, map[string]any{"symbol": "rect", "symbolSize": []int{30, 15},
			"label": map[string]any{"show": true, "formatter": "fn:markerLabel", "color": "#fff", "fontSize": 11}})
	}
	extra := map[string]any{
		"visualMap": []any{map[string]any{"min": lo, "max": hi, "precision": precision(lo, hi), "seriesIndex": 0, "itemHeight": 180}},
		"series":    extraSeries,
		"legend":    map[string]any{"show": len(markers.MultiSeries) > 0, "bottom": 0, "data": seriesNames(markers.MultiSeries)},
	}
	if note := sc.note; note != "" {
		extra["title"] = noteTitle(note)
		extra["grid"] = map[string]any{"top": 52}
	}
	return outlineRegion(g, bareOptionOf(h, extra))
}

func seriesNames(ms charts.MultiSeries) []string {
	names := []string{}
	for _, s := range ms {
		names = append(names, s.Name)
	}
	return names
}

// unitText labels the ends of a colour scale.
func unitText(m *Metric, high bool) string {
	end := "low"
	if high {
		end = "high"
	}
	if m.Unit == "" {
		return end
	}
	return end + ", " + m.Unit
}

// precision returns the decimals a colour scale's labels need.
func precision(lo, hi float64) int {
	span := hi - lo
	if span <= 0 {
		return 2
	}
	return max(0, min(6, 2-int(math.Floor(math.Log10(span)))))
}

func axisType(slots bool) string {
	if slots {
		return "category"
	}
	return "value"
}

// lineMetrics are the metrics drawn against a single dimension.
//
// l may be nil (a grid drawn as surfaces).
func lineMetrics(g *Grid, l *Lines) []string {
	want := []string{"victim_gbps", "contributors_gbps", "var", "fairness_jain"}
	if l != nil && l.X == loadDim(g) { // load curves: what the network accepts and how long messages take
		want = []string{"accepted_load", "latency_mean_us", "latency_p99_us", "victim_gbps", "contributors_gbps", "background_gbps"}
	}
	want = slices.DeleteFunc(want, func(m string) bool { return !slices.Contains(g.Metrics, m) })
	return append(want, slices.DeleteFunc(slices.Clone(g.Metrics), func(m string) bool { return !appHeadline(m) })...)
}

// lineCharts returns a chart per metric of a grid with one numeric
// dimension: the metric against it, a line per combination of the other
// dimensions, bands of ±1 sd over seeds, failed points marked.
func lineCharts(g *Grid, gi int, l *Lines) []*Chart {
	var out []*Chart
	for _, metric := range lineMetrics(g, l) {
		out = append(out, lineChart(g, gi, l, metric))
	}
	return out
}

// lineChart draws a metric against the dimension of l.
func lineChart(g *Grid, gi int, l *Lines, metric string) *Chart {
	x := &g.Dims[l.X]
	xType := "value"
	switch {
	case !x.Numeric() || x.Scale == ScaleCategory:
		xType = "category"
	case x.Scale == ScaleLog:
		xType = "log"
	}
	slots := xType == "category"
	m := metricOf(metric)
	c := charts.NewLine()
	c.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: "fn:linePoint"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"}),
		charts.WithXAxisOpts(opts.XAxis{Name: x.Label(), Type: xType, NameLocation: "middle", NameGap: 30}),
		charts.WithYAxisOpts(opts.YAxis{Name: m.Label(), Type: "value", NameLocation: "middle", NameGap: 50}),
		charts.WithGridOpts(opts.Grid{Left: "70", Right: "30", Top: "50", Bottom: "50"}),
	)
	if slots {
		c.SetXAxis(axisMeta(x, true).Labels)
	}
	var failed []opts.LineData
	var extra []any
	spread := slices.ContainsFunc(g.Cells, func(c *Cell) bool { return c.Done > 1 })
	for si, ls := range l.Series {
		name := seriesLabel(g, l.Others, ls.Values)
		var mean, low, band []opts.LineData
		for xi, ci := range ls.Cells {
			xv := coord(x, xi, slots)
			if ci < 0 {
				continue
			}
			cell := g.Cells[ci]
			v, ok := cell.Mean[metric]
			if !ok {
				if cell.Status == CellFailed {
					failed = append(failed, opts.LineData{Value: []any{xv, 0, ci}})
				}
				continue
			}
			sd := cell.SD[metric]
			mean = append(mean, opts.LineData{Value: []any{xv, roundSig(v, 5), ci, roundSig(sd, 3)}})
			low = append(low, opts.LineData{Value: []any{xv, roundSig(v-sd, 5)}})
			band = append(band, opts.LineData{Value: []any{xv, roundSig(2*sd, 5)}})
		}
		color := seriesColors[si%len(seriesColors)]
		c.AddSeries(name, mean, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true), SymbolSize: 7}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color}))
		extra = append(extra, map[string]any{})
		if spread {
			stack := fmt.Sprintf("band%d", si)
			c.AddSeries(name+" ±sd", low, charts.WithLineChartOpts(opts.LineChart{Stack: stack, ShowSymbol: opts.Bool(false)}))
			c.AddSeries(name+" ±sd", band, charts.WithLineChartOpts(opts.LineChart{Stack: stack, ShowSymbol: opts.Bool(false)}),
				charts.WithAreaStyleOpts(opts.AreaStyle{Color: color, Opacity: opts.Float(0.18)}))
			hidden := map[string]any{"lineStyle": map[string]any{"opacity": 0}, "tooltip": map[string]any{"show": false}, "silent": true}
			extra = append(extra, hidden, hidden)
		}
	}
	if len(failed) > 0 {
		c.AddSeries("failed", failed, charts.WithItemStyleOpts(opts.ItemStyle{Color: failedColor}))
		extra = append(extra, map[string]any{"type": "scatter", "symbol": "pin", "symbolSize": 22})
	}
	legend := []string{}
	for _, s := range c.MultiSeries {
		if !strings.HasSuffix(s.Name, " ±sd") {
			legend = append(legend, s.Name)
		}
	}
	xAxis := map[string]any{}
	if xType == "log" {
		xAxis = map[string]any{"min": x.Nums[0], "max": x.Nums[len(x.Nums)-1], "logBase": logBase(x.Nums)}
	}
	meta := &Meta{Grid: gi, Metric: m, X: axisMeta(x, slots)}
	return &Chart{ID: fmt.Sprintf("g%d-line-%s", gi, metric), Kind: "line", Height: 380, Meta: meta,
		Options: []json.RawMessage{optionOf(c, map[string]any{"series": extra, "legend": map[string]any{"data": legend},
			"xAxis": []any{xAxis}})}}
}

// logBase returns 2 for powers of two (message sizes), else 10.
func logBase(nums []float64) int {
	for _, x := range nums {
		if e := math.Log2(x); e != math.Trunc(e) {
			return 10
		}
	}
	return 2
}

var seriesColors = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"}

// seriesLabel names a combination of dimension values, e.g. "cc=on".
func seriesLabel(g *Grid, dims []int, vals []string) string {
	var parts []string
	for k, d := range dims {
		if vals[k] != "" {
			parts = append(parts, g.Dims[d].Name+"="+vals[k])
		}
	}
	if len(parts) == 0 {
		return "all points"
	}
	return strings.Join(parts, " ")
}

// seriesChart draws a picked point's per-flow throughput over time with
// its measurement window shaded.
func seriesChart(g *Grid, gi, pi int, p *Pick) *Chart {
	c := charts.NewLine()
	c.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"}),
		charts.WithXAxisOpts(opts.XAxis{Name: "time (s)", Type: "value", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: "throughput (Gbit/s)", Type: "value", NameLocation: "middle", NameGap: 36}),
		charts.WithGridOpts(opts.Grid{Left: "72", Right: "30", Top: "40", Bottom: "80"}),
		charts.WithDataZoomOpts(opts.DataZoom{Type: "inside"}, opts.DataZoom{Type: "slider"}),
	)
	// One dataset row per sample: time, then each flow's throughput.
	n := 0
	for _, f := range p.Flows {
		n = max(n, len(f.Gbps))
	}
	rows := make([][]any, n)
	for i := range rows {
		row := make([]any, 1, len(p.Flows)+1)
		if len(p.Flows) > 0 {
			row[0] = roundSig(float64(i+1)*p.Flows[0].SampleSeconds, 9)
		}
		for _, f := range p.Flows {
			if i < len(f.Gbps) {
				row = append(row, math.Round(f.Gbps[i]*1000)/1000)
			} else {
				row = append(row, nil)
			}
		}
		rows[i] = row
	}
	c.AddDataset(opts.Dataset{Source: rows})
	for k, f := range p.Flows {
		c.AddSeries(f.Name+" ("+f.Role+")", nil, charts.WithEncodeOpts(opts.Encode{X: 0, Y: k + 1}),
			charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(false)}),
			charts.WithLineStyleOpts(opts.LineStyle{Width: 1.2}))
		c.MultiSeries[k].Data = nil // drawn from the dataset
	}
	extra := []any{}
	for range p.Flows {
		extra = append(extra, map[string]any{"sampling": "lttb"})
	}
	if len(extra) > 0 {
		extra[0].(map[string]any)["markArea"] = map[string]any{"silent": true,
			"itemStyle": map[string]any{"color": "rgba(0,0,0,0.05)"},
			"label":     map[string]any{"position": "insideTop", "color": "#555"},
			"data":      []any{[]any{map[string]any{"name": "measurement window", "xAxis": p.WindowFrom}, map[string]any{"xAxis": p.WindowTo}}}}
	}
	return &Chart{ID: fmt.Sprintf("g%d-pick%d", gi, pi), Kind: "series", Height: 340, Meta: &Meta{Grid: gi},
		Options: []json.RawMessage{optionOf(c, map[string]any{"series": extra,
			"dataZoom": []any{map[string]any{}, map[string]any{"height": 18, "bottom": 8}},
			"xAxis":    []any{map[string]any{"min": 0, "max": roundSig(p.WindowTo, 9)}}})}}
}

// iterationsChart draws the per-iteration times of a picked point's apps,
// iteration number against time, a line per app, or returns nil if the
// point has none.
func iterationsChart(gi, pi int, p *Pick) *Chart {
	if len(p.Iterations) == 0 {
		return nil
	}
	c := charts.NewLine()
	c.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"}),
		charts.WithXAxisOpts(opts.XAxis{Name: "iteration", Type: "value", MinInterval: 1, NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: "iteration time (µs)", Type: "value", NameLocation: "middle", NameGap: 52}),
		charts.WithGridOpts(opts.Grid{Left: "80", Right: "30", Top: "40", Bottom: "50"}),
	)
	for _, a := range p.Iterations {
		data := make([]opts.LineData, len(a.Us))
		for k, v := range a.Us {
			data[k] = opts.LineData{Value: []any{k + 1, roundSig(v, 7)}}
		}
		c.AddSeries(a.App, data, charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(true)}))
	}
	return &Chart{ID: fmt.Sprintf("g%d-pick%d-iterations", gi, pi), Kind: "iterations", Height: 260, Meta: &Meta{Grid: gi},
		Options: []json.RawMessage{optionOf(c, map[string]any{"yAxis": []any{map[string]any{"min": 0}}})}}
}

// fairnessChart draws each contributor's share of the contributors'
// throughput over the measurement window, a bar group per picked point.
func fairnessChart(g *Grid, gi int) *Chart {
	var names []string
	for _, p := range g.Picks {
		for _, f := range p.Flows {
			if f.Share > 0 && !slices.Contains(names, f.Name) {
				names = append(names, f.Name)
			}
		}
	}
	if len(names) < 2 {
		return nil
	}
	b := charts.NewBar()
	b.SetGlobalOptions(
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "item", Formatter: "fn:share"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Top: "0"}),
		charts.WithXAxisOpts(opts.XAxis{Name: "contributor", Type: "category", NameLocation: "middle", NameGap: 28}),
		charts.WithYAxisOpts(opts.YAxis{Name: "share of contributors' throughput (%)", Type: "value", NameLocation: "middle", NameGap: 36}),
		charts.WithGridOpts(opts.Grid{Left: "72", Right: "30", Top: "50", Bottom: "50"}),
	)
	b.SetXAxis(names)
	meta := &Meta{Grid: gi}
	for _, p := range g.Picks {
		var data []opts.BarData
		var gbps []float64
		for _, name := range names {
			i := slices.IndexFunc(p.Flows, func(f Flow) bool { return f.Name == name })
			if i < 0 {
				data, gbps = append(data, opts.BarData{Value: nil}), append(gbps, 0)
				continue
			}
			data = append(data, opts.BarData{Value: math.Round(p.Flows[i].Share*1000) / 10})
			gbps = append(gbps, roundSig(p.Flows[i].MeanGbps, 4))
		}
		meta.Gbps = append(meta.Gbps, gbps)
		b.AddSeries(p.Label, data, charts.WithLabelOpts(opts.Label{Show: opts.Bool(true), Position: "top", Formatter: "{c} %"}))
	}
	fair := math.Round(1000/float64(len(names))) / 10
	return &Chart{ID: fmt.Sprintf("g%d-fairness", gi), Kind: "fairness", Height: 360, Meta: meta,
		Options: []json.RawMessage{optionOf(b, map[string]any{"series": []any{map[string]any{"markLine": map[string]any{
			"symbol": "none", "silent": true, "lineStyle": map[string]any{"type": "dashed", "color": "#333"},
			"label": map[string]any{"formatter": fmt.Sprintf("equal share %g %%", fair), "position": "insideEndTop"},
			"data":  []any{map[string]any{"yAxis": fair}}}}}})}}
}

// echartsChart is what go-echarts charts provide to build their options.
type echartsChart interface {
	Validate()
	JSON() map[string]any
}

// optionOf returns the ECharts option of c with extra merged in: extra's
// maps merge into c's recursively, its lists element by element, and other
// values replace c's. extra sets what go-echarts has no field for. A NaN
// or infinite number, in c or in extra, is written as null (ECharts draws
// nothing there): it never panics on one.
func optionOf(c echartsChart, extra map[string]any) json.RawMessage {
	return marshalOption(optionMap(c, extra))
}

// bareOptionOf is optionOf with every series' data items {"value": [...]}
// written as the bare arrays, which ECharts reads alike (a formatter's
// p.value is the array either way): ten bytes fewer a point, for the
// surfaces and heat maps that hold a value per point of the grid.
func bareOptionOf(c echartsChart, extra map[string]any) json.RawMessage {
	m := optionMap(c, extra)
	series, _ := m["series"].([]any)
	for _, s := range series {
		s, _ := s.(map[string]any)
		data, _ := s["data"].([]any)
		for i, d := range data {
			if item, ok := d.(map[string]any); ok && len(item) == 1 {
				if v, ok := item["value"].([]any); ok {
					data[i] = v
				}
			}
		}
	}
	return marshalOption(m)
}

// optionMap is c's option as plain values, with extra merged in.
func optionMap(c echartsChart, extra map[string]any) map[string]any {
	c.Validate()
	b, err := marshalFinite(c.JSON())
	if err != nil {
		panic(fmt.Sprintf("report: marshal chart option: %v", err)) // options hold only plain values
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		panic(fmt.Sprintf("report: chart option: %v", err))
	}
	delete(m, "toolbox") // always empty
	delete(m, "title")   // the page titles charts
	m["animation"] = false
	return merge(m, extra).(map[string]any)
}

func marshalOption(m map[string]any) json.RawMessage {
	out, err := marshalFinite(m)
	if err != nil {
		panic(fmt.Sprintf("report: marshal chart option: %v", err))
	}
	return out
}

func merge(dst, src any) any {
	switch s := src.(type) {
	case map[string]any:
		d, ok := dst.(map[string]any)
		if !ok {
			return s
		}
		for k, v := range s {
			d[k] = merge(d[k], v)
		}
		return d
	case []any:
		d, ok := dst.([]any)
		if !ok {
			return s
		}
		for i, v := range s {
			if i < len(d) {
				d[i] = merge(d[i], v)
			} else {
				d = append(d, v)
			}
		}
		return d
	}
	return src
}

// Charts returns every chart the report draws for g, the index-th grid of
// its page, in page order: surfaces and heat maps, lines, time series,
// fairness bars.
func Charts(g *Grid, index int) []*Chart {
	var out []*Chart
	for si, s := range g.Surfaces {
		out = append(out, surfaceCharts(g, index, si, s)...)
	}
	if g.Lines != nil {
		out = append(out, lineCharts(g, index, g.Lines)...)
	}
	for pi, p := range g.Picks {
		out = append(out, seriesChart(g, index, pi, p))
	}
	if c := fairnessChart(g, index); c != nil {
		out = append(out, c)
	}
	return out
}
