package report

// Tests written for the survivors of session 15's mutation sample of
// report (60 mutants, seed 151; docs/testing.md).

import (
	"context"
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// gridOf stores a grid as storeGrid does and loads it as the report sees it.
func gridOf(t *testing.T, src string, keep func(grids.Point) bool, metrics func(grids.Point) map[string]float64, added ...grids.Point) (*Grid, *store.DB) {
	t.Helper()
	db, rec := storeGrid(t, src, keep, metrics, added...)
	g, err := LoadGrid(context.Background(), db, rec)
	if err != nil {
		t.Fatal(err)
	}
	return g, db
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
	g, _ := gridOf(t, `
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
	g, _ := gridOf(t, `
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
	g, _ := gridOf(t, `
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
