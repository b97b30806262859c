package report

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
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

// Without constraints the recommendation's sentence counts no feasible
// points.
func TestSummaryWithoutConstraints(t *testing.T) {
	victim, _ := rank.ParseObjective("victim_gbps", true)
	g := refinedAnswer(t, rank.Query{Objectives: []rank.Objective{victim}})
	if s := g.Answer.Summary(g); !strings.HasPrefix(s, "Recommended: ") || strings.Contains(s, "meet") {
		t.Fatalf("summary %q", s)
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
