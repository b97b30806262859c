package report

// Tests written for the survivors of session 15's mutation sample of
// report (60 mutants, seed 151; docs/testing.md).

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-echarts/go-echarts/v2/opts"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// gridOf stores a grid as storeGrid does and loads it as the report sees it.
func gridOf(t *testing.T, src string, keep func(grids.Point) bool, metrics func(grids.Point) map[string]float64, added ...grids.Point) *Grid {
	t.Helper()
	db, rec := storeGrid(t, src, keep, metrics, added...)
	g, err := LoadGrid(context.Background(), db, rec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A refinement that adds a value below an axis's first leaves holes with
// nothing known before them on that axis: they are filled from what is
// known (the other axis, or the nearest points), never extrapolated from
// nothing.
func TestFillWithNothingBefore(t *testing.T) {
	victim := func(pt grids.Point) map[string]float64 {
		return map[string]float64{"victim_gbps": 10 + num(t, pt, "ccti_timer")/50e6 + num(t, pt, "marking_rate")}
	}
	below := grids.Point{Scenario: "testbed-s1", Seed: 1, Params: []grids.Param{{Name: "ccti_timer", Value: "25us"}, {Name: "marking_rate", Value: "2"}}}
	g := gridOf(t, `
name = "refined-below"
scenario = "testbed-s1"
[sweep]
ccti_timer   = ["50us", "100us", "200us"]
marking_rate = [1, 2, 4]
`, nil, victim, below)
	if len(g.Surfaces) != 1 {
		t.Fatalf("%d surfaces", len(g.Surfaces))
	}
	s := g.Surfaces[0]
	sl := s.Slices[0]
	fill := g.fill(s, sl, "victim_gbps")
	if fill == nil {
		t.Fatal("no interpolation")
	}
	holes := 0
	for yi, row := range fill {
		for xi, v := range row {
			if sl.Cells[yi][xi] >= 0 {
				continue
			}
			holes++
			// Every value of the grid lies in 11..14.5.
			if math.IsNaN(v) || v < 11 || v > 14.5 {
				t.Errorf("hole (%d, %d) filled with %g", xi, yi, v)
			}
		}
	}
	if holes != 2 {
		t.Fatalf("%d holes, want (25us, 1) and (25us, 4)", holes)
	}
}

// An axis of one value is not a dimension of the surfaces: two numeric
// axes beside it make one surface, not three.
func TestOneValuedAxisMakesNoSurface(t *testing.T) {
	g := gridOf(t, `
name = "one-valued"
scenario = "testbed-s1"
[sweep]
threshold    = [15]
ccti_timer   = ["50us", "100us", "200us"]
marking_rate = [1, 2, 4]
`, nil, func(grids.Point) map[string]float64 { return map[string]float64{"victim_gbps": 1} })
	th := -1
	for i, d := range g.Dims {
		if d.Name == "threshold" {
			th = i
		}
	}
	if th < 0 {
		t.Fatal("no dimension threshold")
	}
	if len(g.Surfaces) != 1 || g.Surfaces[0].X == th || g.Surfaces[0].Y == th {
		t.Fatalf("%d surfaces (dimension %d is the one-valued threshold): %+v", len(g.Surfaces), th, g.Surfaces)
	}
}

// With a constraint no point meets there is no recommendation: Best is -1,
// not a cell.
func TestNoRecommendationWhenNothingIsFeasible(t *testing.T) {
	victim, _ := rank.ParseObjective("victim_gbps", true)
	where, err := grids.CompileMetricExpr("victim_gbps >= 100")
	if err != nil {
		t.Fatal(err)
	}
	g := refinedAnswer(t, rank.Query{Objectives: []rank.Objective{victim}, Where: []*grids.MetricExpr{where}})
	if r := g.Answer; r.Best != -1 || r.Feasible != 0 || len(r.Region) != 0 {
		t.Fatalf("nothing meets victim_gbps >= 100, yet best %d, %d feasible, region %v", r.Best, r.Feasible, r.Region)
	}
}

// The best-point table of a comparison names each scheme's best cell, also
// when that is the grid's first cell.
func TestSchemeBestAtTheFirstCell(t *testing.T) {
	g := gridOf(t, `
name = "schemes-first"
scenario = "testbed-s1"
[sweep]
cc           = ["off", "ib"]
ccti_timer   = ["50us", "100us"]
marking_rate = [1, 2]
`, nil, func(pt grids.Point) map[string]float64 {
		// Best at the shortest timer and the lowest rate, for each scheme.
		return map[string]float64{"victim_gbps": 20 - num(t, pt, "ccti_timer")/50e6 - num(t, pt, "marking_rate")}
	})
	if g.Compare == nil {
		t.Fatal("no comparison")
	}
	v := compareViewOf(g, 0, func(c *Chart) *Chart { return c })
	if len(v.Best) != 2 {
		t.Fatalf("%d rows of best points", len(v.Best))
	}
	for _, b := range v.Best {
		if b.Where == "no point done" || len(b.Values) == 0 {
			t.Errorf("scheme %v: best %q %v", b.Scheme, b.Where, b.Values)
		}
	}
}

// The survivors of a second, fresh sample (seed 155).

// Two values within a sliver of their mean make a sliver too.
func TestSliverNoteOfTwoValues(t *testing.T) {
	g, s := sliverGrid(100, 100.1, 0, 0)
	s.Slices[0].Cells = [][]int{{0, 1}, {-1, -1}}
	if note := sliverNote(g, s, "victim_gbps"); !strings.Contains(note, "within 100–100.1 Gbit/s") {
		t.Fatalf("note %q", note)
	}
}

// A refined surface's 3D chart shows the interpolated values at its holes.
func TestSurfaceShowsInterpolatedValues(t *testing.T) {
	db, rec := refinedDB(t)
	g, err := LoadGrid(context.Background(), db, rec)
	if err != nil {
		t.Fatal(err)
	}
	s := g.Surfaces[0]
	x := &g.Dims[s.X]
	// The hole (75us, 2), as TestRefinedGridIsInterpolatedAndMarked
	// computes it; no point run has this value.
	want := 10 + 1.5 + 2.0
	if x.Scale == ScaleLog {
		want = 10 + 1 + (math.Log(75)-math.Log(50))/(math.Log(100)-math.Log(50)) + 2
	}
	text := strconv.FormatFloat(roundSig(want, 5), 'f', -1, 64)
	if surf := string(surfaceOption(g, s, s.Slices[0], "victim_gbps")); !strings.Contains(surf, ","+text+"]") {
		t.Fatalf("surface has no interpolated %s: %s", text, surf)
	}
}

// The fairness bars show every contributor of a pick, the first too.
func TestFairnessBarsOfTheFirstFlow(t *testing.T) {
	g := &Grid{Picks: []*Pick{{Label: "best", Flows: []Flow{
		{Name: "F1", Role: "contributor", MeanGbps: 6, Share: 0.6},
		{Name: "F2", Role: "contributor", MeanGbps: 4, Share: 0.4},
	}}}}
	c := fairnessChart(g, 0)
	if c == nil || len(c.Meta.Gbps) != 1 || !slices.Equal(c.Meta.Gbps[0], []float64{6, 4}) {
		t.Fatalf("fairness chart %+v", c)
	}
	if o := string(c.Options[0]); !strings.Contains(o, `"value":60`) {
		t.Fatalf("no bar of F1's 60 %%: %s", o)
	}
}

// A point two sub-grids list is planned once.
func TestPlannedCountsASharedPointOnce(t *testing.T) {
	g := gridOf(t, `
name = "overlap"
scenario = "testbed-s1"
[[grid]]
marking_rate = 1
[grid.sweep]
ccti_timer = ["50us", "100us"]
[[grid]]
ccti_timer = "100us"
[grid.sweep]
marking_rate = [1, 2]
`, func(grids.Point) bool { return false }, nil)
	if g.Planned != 3 || !g.PlannedExact {
		t.Fatalf("planned %d (exact %v), want 3: (100us, 1) is in both sub-grids", g.Planned, g.PlannedExact)
	}
}

// With no point done outside CC off there is no best or worst to pick,
// and loading the grid does not fail.
func TestPicksWithOnlyCCOffDone(t *testing.T) {
	g := gridOf(t, `
name = "off-only"
scenario = "testbed-s1"
[sweep]
cc         = ["off", "on"]
ccti_timer = ["50us", "100us"]
`, func(pt grids.Point) bool { v, _ := pt.Value("cc"); return v == "off" },
		func(grids.Point) map[string]float64 { return map[string]float64{"victim_gbps": 2} })
	for _, p := range g.Picks {
		if p.Label == "best" || p.Label == "worst" {
			t.Errorf("picked %q among no point with CC", p.Label)
		}
	}
}

// unit maps a dimension's positions onto [0, 1].
func TestUnit(t *testing.T) {
	d := &Dim{Nums: []float64{10, 15, 20, 30}}
	pos := func(d *Dim, i int) float64 { return d.Nums[i] }
	for i, want := range []float64{0, 0.25, 0.5, 1} {
		if got := unit(d, i, pos); got != want {
			t.Errorf("unit at %d: %g, want %g", i, got, want)
		}
	}
}

// A series whose point's rest is a list cannot be packed (the page could
// not tell it from several values): it is left as it is.
func TestGridSeriesLeavesAListRest(t *testing.T) {
	option := json.RawMessage(`{"series":[{"data":[[0,0,[1]],[1,0,[2]]]}]}`)
	if got := gridSeries(option); string(got) != string(option) {
		t.Fatalf("packed %s", got)
	}
	packed := json.RawMessage(`{"series":[{"data":[[0,0,1],[1,0,2]]}]}`)
	if got := gridSeries(packed); string(got) == string(packed) {
		t.Fatal("a plain series was not packed: the test's premise")
	}
}

func TestRoundDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1234567890 * time.Nanosecond: "1.23s",
		61400 * time.Millisecond:     "1m1s",
		12345678 * time.Nanosecond:   "12ms",
	} {
		if got := roundDuration(d); got != want {
			t.Errorf("roundDuration(%v) = %s, want %s", d, got, want)
		}
	}
}

func TestSummarizeElidesFromNine(t *testing.T) {
	vals := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	if got := summarize(vals[:8]); got != "1, 2, 3, 4, 5, 6, 7, 8" {
		t.Errorf("eight values: %s", got)
	}
	if got := summarize(vals); got != "1, 2, 3, … 9 (9 values)" {
		t.Errorf("nine values: %s", got)
	}
}

// The recommendation's sentence names the best cell, also the first, and
// the region holds exactly the cells the answer put there.
func TestRecommendationSummaryAndRegion(t *testing.T) {
	victim, _ := rank.ParseObjective("victim_gbps", true)
	contrib, _ := rank.ParseObjective("contributors_gbps", true)
	g := refinedAnswer(t, rank.Query{Objectives: []rank.Objective{victim, contrib}})
	r := *g.Answer
	r.Best = 0
	if s := r.Summary(g); !strings.HasPrefix(s, "Recommended: "+g.describe(g.Cells[0])+";") {
		t.Errorf("summary with the first cell best: %s", s)
	}
	if len(r.Region) == 0 || len(r.Region) == len(g.Cells) {
		t.Fatalf("region %v of %d cells: the test needs cells in and out", r.Region, len(g.Cells))
	}
	for ci := range g.Cells {
		if got := g.Answer.inRegion(ci); got != slices.Contains(r.Region, ci) {
			t.Errorf("cell %d: inRegion %v", ci, got)
		}
	}
	var none *Recommendation
	if none.inRegion(0) {
		t.Error("no recommendation has a region")
	}
}

// The survivors of a third, fresh sample (seed 157).

// A surface of one value everywhere gets a range of one around it.
func TestMetricRangeOfOneValue(t *testing.T) {
	g, s := sliverGrid(3, 3, 3, 3)
	if lo, hi := metricRange(g, s, "victim_gbps"); lo != 2.5 || hi != 3.5 {
		t.Fatalf("range %g..%g, want 2.5..3.5", lo, hi)
	}
	if lo, hi := metricRange(g, s, "var"); lo != 0 || hi != 1 {
		t.Fatalf("range of a metric no cell has: %g..%g, want 0..1", lo, hi)
	}
}

// Points a refinement added count as planned, failed ones too.
func TestPlannedCountsAddedFailedPoints(t *testing.T) {
	at := func(timer, rate string) grids.Point {
		return grids.Point{Scenario: "testbed-s1", Seed: 1, Params: []grids.Param{{Name: "ccti_timer", Value: timer}, {Name: "marking_rate", Value: rate}}}
	}
	g := gridOf(t, `
name = "refined-failed"
scenario = "testbed-s1"
[sweep]
ccti_timer   = ["50us", "100us"]
marking_rate = [1, 2]
`, nil, func(pt grids.Point) map[string]float64 {
		if v, _ := pt.Value("marking_rate"); v == "2" && num(t, pt, "ccti_timer") == 75e6 {
			return nil // fails
		}
		return map[string]float64{"victim_gbps": 1}
	}, at("75us", "1"), at("75us", "2"))
	if g.Planned != 6 || g.Done != 5 || g.Failed != 1 || g.Missing != 0 {
		t.Fatalf("planned %d, done %d, failed %d, missing %d; want 6, 5, 1, 0", g.Planned, g.Done, g.Failed, g.Missing)
	}
}

// Beside a load axis, an axis of one value makes no surface, and a load
// curve with a point missing has a gap there.
func TestLoadCurvesOneValuedAxisAndGap(t *testing.T) {
	g := &Grid{Metrics: []string{"accepted_load"}, Dims: []Dim{
		{Name: "cc", Values: []string{"off", "on"}},
		{Name: "load", Values: []string{"0.1", "0.5"}, Nums: []float64{0.1, 0.5}},
		{Name: "threshold", Values: []string{"15"}, Nums: []float64{15}},
		{Name: "marking_rate", Values: []string{"0", "4"}, Nums: []float64{0, 4}},
		{Name: "ccti_timer", Values: []string{"20us", "150us"}, Nums: []float64{20, 150}},
	}}
	surfaces, _ := layout(g)
	if len(surfaces) != 1 {
		t.Errorf("%d surfaces, want marking_rate x ccti_timer alone", len(surfaces))
	}
	g.Dims = g.Dims[:2]
	for _, key := range [][]string{{"off", "0.1"}, {"off", "0.5"}, {"on", "0.1"}} { // (on, 0.5) missing
		g.Cells = append(g.Cells, &Cell{Key: key, Status: CellDone, Done: 1, Mean: map[string]float64{"accepted_load": 0.1}})
	}
	l := g.lines(1, g.others(1))
	if len(l.Series) != 2 || !slices.Equal(l.Series[0].Cells, []int{0, 1}) || !slices.Equal(l.Series[1].Cells, []int{2, -1}) {
		t.Fatalf("series %+v %+v, want cells [0 1] and [2 -1]", l.Series[0], l.Series[len(l.Series)-1])
	}
}

// idw weighs the nearest samples by their inverse squared distance.
func TestIDW(t *testing.T) {
	known := []sample{{0, 0, 0}, {1, 0, 10}}
	// Distances 0.25 and 0.75: weights 16 and 16/9, so 10·(16/9)/(16+16/9) = 1.
	if got := idw(known, 0.25, 0); math.Abs(got-1) > 1e-12 {
		t.Fatalf("idw = %g, want 1", got)
	}
	if got := idw(known, 1, 0); got != 10 {
		t.Fatalf("idw at a sample = %g, want its value", got)
	}
}

// hoistCommon moves what every option shares into Common, once.
func TestHoistCommon(t *testing.T) {
	c := &Chart{Options: []json.RawMessage{json.RawMessage(`{"axis":1,"data":[1]}`), json.RawMessage(`{"axis":1,"data":[2]}`)}}
	hoistCommon(c)
	if string(c.Common) != `{"axis":1}` || string(c.Options[0]) != `{"data":[1]}` || string(c.Options[1]) != `{"data":[2]}` {
		t.Fatalf("common %s, options %s", c.Common, c.Options)
	}
}

// The recommendation's region and best point are drawn on the 3D surface,
// the grid's first cell too.
func TestRegionOfTheFirstCell(t *testing.T) {
	if !(&Recommendation{Best: -1, Region: []int{0, 2}}).inRegion(0) {
		t.Error("cell 0 of the region is not in it")
	}
	g, s := sliverGrid(1, 2, 3, 4)
	g.Answer = &Recommendation{Best: 0, Region: []int{0, 1}}
	series := regionSeries3D(g, s, s.Slices[0], "victim_gbps", false, false)
	if len(series) != 2 || len(series[0].Data.([]opts.Chart3DData)) != 1 || len(series[1].Data.([]opts.Chart3DData)) != 1 {
		t.Fatalf("series %+v, want the region's other cell and the best", series)
	}
}

// The survivors of a fourth, fresh sample (seed 159).

// Without constraints the recommendation's sentence counts no feasible
// points.
func TestSummaryWithoutConstraints(t *testing.T) {
	victim, _ := rank.ParseObjective("victim_gbps", true)
	g := refinedAnswer(t, rank.Query{Objectives: []rank.Objective{victim}})
	if s := g.Answer.Summary(g); !strings.HasPrefix(s, "Recommended: ") || strings.Contains(s, "meet") {
		t.Fatalf("summary %q", s)
	}
}

// The testbed's defaults are picked for their time series, also when they
// are the grid's first cell.
func TestDefaultsPickedAtTheFirstCell(t *testing.T) {
	g := gridOf(t, `
name = "defaults-first"
scenario = "testbed-s1"
[sweep]
ccti_timer   = ["150us", "300us"]
marking_rate = [1, 4]
`, nil, func(pt grids.Point) map[string]float64 {
		return map[string]float64{"victim_gbps": num(t, pt, "ccti_timer")/150e6 + num(t, pt, "marking_rate")}
	})
	if ci := g.defaultCell(); ci != 0 {
		t.Fatalf("the defaults are cell %d: the test needs them first", ci)
	}
	picked := false
	for _, p := range g.Picks {
		picked = picked || (p.Cell == 0 && strings.Contains(p.Label, "testbed defaults"))
	}
	if !picked {
		t.Fatalf("picks %v: no testbed defaults", g.Picks)
	}
}

// idw's distance counts both coordinates.
func TestIDWAcrossBothAxes(t *testing.T) {
	known := []sample{{0, 0, 0}, {0, 1, 10}}
	if got := idw(known, 0, 0.25); math.Abs(got-1) > 1e-12 {
		t.Fatalf("idw = %g, want 1", got)
	}
}

// The 3D surface plots every cell's value, the grid's first too.
func TestSurfacePlotsTheFirstCell(t *testing.T) {
	g, s := sliverGrid(1.5, 2, 3, 4)
	if surf := string(surfaceOption(g, s, s.Slices[0], "victim_gbps")); !strings.Contains(surf, ",1.5]") {
		t.Fatalf("no value 1.5 of cell 0: %s", surf)
	}
}

// A flat colour scale keeps two decimals.
func TestPrecisionOfAFlatScale(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		want   int
	}{{3, 3, 2}, {0, 0.05, 4}, {0, 500, 0}} {
		if got := precision(tt.lo, tt.hi); got != tt.want {
			t.Errorf("precision(%g, %g) = %d, want %d", tt.lo, tt.hi, got, tt.want)
		}
	}
}

// The page's cell table marks a parameter a cell does not have as -1.
func TestPageCellsMarkAbsentParameters(t *testing.T) {
	tab := pageCells([]*Cell{
		{Params: []store.Param{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}},
		{Params: []store.Param{{Name: "a", Value: "3"}}},
	})
	if !slices.Equal(tab.Params, []string{"a", "b"}) || !slices.Equal(tab.Rows[0].Params, []int{0, 0}) || !slices.Equal(tab.Rows[1].Params, []int{1, -1}) {
		t.Fatalf("params %v, rows %v %v", tab.Params, tab.Rows[0].Params, tab.Rows[1].Params)
	}
}

// A region without a best point is outlined on the heat map too.
func TestOutlineRegionWithoutBest(t *testing.T) {
	g, s := sliverGrid(1, 2, 3, 4)
	g.Answer = &Recommendation{Best: -1, Region: []int{1}}
	if h := string(heatmapOption(g, s, s.Slices[0], "victim_gbps")); !strings.Contains(h, regionColor) {
		t.Fatalf("no outline: %s", h)
	}
}

// The survivors of a fifth, fresh sample (seed 161; the page goldens of
// TestGoldenPages kill two more).

// A surface none of whose points has both its axes (two sub-grids, each
// sweeping one) has no slices; the server's summary of the grid then fixes
// no other axis.
func TestSummaryOfASurfaceWithoutSlices(t *testing.T) {
	g := gridOf(t, `
name = "crossed"
scenario = "testbed-s1"
[[grid]]
[grid.sweep]
marking_rate = [1, 4]
[[grid]]
[grid.sweep]
ccti_timer = ["50us", "100us"]
threshold  = [7, 15]
`, func(grids.Point) bool { return false }, nil)
	if len(g.Surfaces) == 0 || len(g.Surfaces[0].Slices) != 0 || len(g.Surfaces[0].Others) == 0 {
		for _, sf := range g.Surfaces {
			t.Logf("%s x %s: %d slices, others %v", sf.XName, sf.YName, len(sf.Slices), sf.Others)
		}
		t.Fatalf("dims %v: the test needs a first surface without slices and with another axis", g.Dims)
	}
	if sum := summarizeGrid(g); sum.View.X == "" || len(sum.View.At) != 0 {
		t.Fatalf("view %+v", sum.View)
	}
}

// The server's summary marks the dimensions some points leave unset.
func TestSummaryMarksUnsetDimensions(t *testing.T) {
	g := gridOf(t, `
name = "unset"
scenario = "testbed-s1"
[[grid]]
cc = "off"
[[grid]]
cc = "on"
[grid.sweep]
ccti_timer = ["50us", "100us"]
`, func(grids.Point) bool { return false }, nil)
	unset := map[string]bool{}
	for _, d := range summarizeGrid(g).Dims {
		unset[d.Name] = d.Unset
	}
	if len(unset) != 2 || unset["cc"] || !unset["ccti_timer"] {
		t.Fatalf("unset %v, want ccti_timer alone (the CC-off sub-grid leaves it)", unset)
	}
}

// A built-in scenario's own parameter (clos648-hotspot's bg.load) is a
// number: a sweep of it draws load curves over a numeric axis. It was a
// category, with the testbed's metrics drawn over evenly spaced labels,
// until session 15 (found while killing data.go:368:53).
func TestBuiltinScenarioLoadIsNumeric(t *testing.T) {
	g := gridOf(t, `
name = "builtin-load"
scenario = "clos648-hotspot"
[sweep]
"bg.load" = [0.05, 0.1, 0.4]
`, nil, func(pt grids.Point) map[string]float64 {
		load := num(t, pt, "bg.load")
		return map[string]float64{"accepted_load": load, "latency_mean_us": 2 + load, "victim_gbps": 3}
	})
	if len(g.Dims) != 1 || !g.Dims[0].Numeric() || !slices.Equal(g.Dims[0].Nums, []float64{0.05, 0.1, 0.4}) {
		t.Fatalf("dims %+v", g.Dims)
	}
	if g.Lines == nil || g.Lines.XName != "bg.load" {
		t.Fatalf("lines %+v", g.Lines)
	}
	if m := lineMetrics(g, g.Lines); len(m) == 0 || m[0] != "accepted_load" {
		t.Fatalf("line metrics %v, want the load curves first", m)
	}
}

// The survivors of a sixth, fresh sample (seed 163).

// A series geometric only within rounding is laid out on a log scale; one
// that strays further gets a slot per value.
func TestScaleOfNearlyGeometric(t *testing.T) {
	for _, tt := range []struct {
		nums []float64
		want Scale
	}{
		{[]float64{1, 2, 4, 8}, ScaleLog},
		{[]float64{50, 101, 200, 400}, ScaleLog}, // rounded
		{[]float64{10, 20, 40, 100}, ScaleCategory},
		{[]float64{1000, 2000, 4000, 8400}, ScaleCategory}, // 7 % off, beyond 5 % of the ratio
		{[]float64{1, 2, 3}, ScaleLinear},
	} {
		if got := scaleOf(tt.nums); got != tt.want {
			t.Errorf("scaleOf(%v) = %v, want %v", tt.nums, got, tt.want)
		}
	}
}

// A load axis draws load curves wherever it stands among the dimensions,
// first too.
func TestLoadCurvesOverTheFirstDimension(t *testing.T) {
	g := &Grid{Metrics: []string{"accepted_load"}, Dims: []Dim{
		{Name: "load", Values: []string{"0.1", "0.5"}, Nums: []float64{0.1, 0.5}},
		{Name: "marking_rate", Values: []string{"0", "4"}, Nums: []float64{0, 4}},
		{Name: "ccti_timer", Values: []string{"20us", "150us"}, Nums: []float64{20, 150}},
	}}
	surfaces, lines := layout(g)
	if lines == nil || lines.X != 0 || len(surfaces) != 1 {
		t.Fatalf("lines %+v, %d surfaces; want lines over load and marking_rate x ccti_timer", lines, len(surfaces))
	}
}

// Without the defaults among its cells, a surface opens at the slice with
// the most points done, even when that is one.
func TestDefaultSliceHasTheMostDone(t *testing.T) {
	g := &Grid{Dims: []Dim{{Name: "marking_rate", Values: []string{"16", "64"}, Nums: []float64{16, 64}}}, Cells: []*Cell{
		{Key: []string{"16"}, Status: CellMissing},
		{Key: []string{"64"}, Status: CellDone},
	}}
	if got := defaultSlice(g, []*Slice{{Cells: [][]int{{0}}}, {Cells: [][]int{{1}}}}); got != 1 {
		t.Fatalf("default slice %d, want 1 (one point done)", got)
	}
}
