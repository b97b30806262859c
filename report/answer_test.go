package report

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// storeGrid stores, in a new database, grid text src (its record's ID is its
// name and "-grid") and a result for each of its points that keep selects
// (nil: all) and each point of added (a refinement's, outside the grid's
// lattice): done with the metrics metrics gives, failed where it gives nil.
func storeGrid(t *testing.T, src string, keep func(grids.Point) bool, metrics func(grids.Point) map[string]float64, added ...grids.Point) (*store.DB, store.GridRecord) {
	t.Helper()
	g, err := grids.Parse("g.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	rec := store.GridRecord{ID: g.Name + "-grid", Name: g.Name, Scenario: g.Scenario, ModelVersion: "test", Canonical: g.Canonical()}
	if err := db.SaveGrid(ctx, rec); err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	for i, pt := range append(g.Points(), added...) {
		if keep != nil && !keep(pt) {
			continue
		}
		r := store.Result{ID: fmt.Sprintf("p%03d", i), GridID: rec.ID, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
			Status: store.StatusDone, ModelVersion: "test", Metrics: metrics(pt)}
		if r.Metrics == nil {
			r.Status, r.Err = store.StatusFailed, "failed by the test"
		}
		r.Point.Params = append(r.Point.Params, pt.Params...)
		rs = append(rs, r)
	}
	if err := db.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	return db, rec
}

// num is a point's value of a numeric axis: a model parameter's in its
// axis unit (grids.AxisNumber), a scenario's own (bg.load) as written.
func num(t *testing.T, pt grids.Point, name string) float64 {
	t.Helper()
	s, _ := pt.Value(name)
	if v, ok := grids.AxisNumber(name, s); ok {
		return v
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s = %q: not a number", name, s)
	}
	return v
}

// refinedDB holds a 3x3 grid over ccti_timer (50, 100, 200 µs) and
// marking_rate (1, 2, 4) and one point refinement added, (75us, 1). Victim
// throughput is 10 + timer/50 + rate; contributors 3 − rate/10.
func refinedDB(t *testing.T) (*store.DB, store.GridRecord) {
	t.Helper()
	added := grids.Point{Scenario: "testbed-s1", Seed: 1, Params: []grids.Param{{Name: "ccti_timer", Value: "75us"}, {Name: "marking_rate", Value: "1"}}}
	return storeGrid(t, `
name = "refined"
scenario = "testbed-s1"
[sweep]
ccti_timer   = ["50us", "100us", "200us"]
marking_rate = [1, 2, 4]
`, nil, func(pt grids.Point) map[string]float64 {
		rate := num(t, pt, "marking_rate")
		return map[string]float64{"victim_gbps": 10 + num(t, pt, "ccti_timer")/1e6/50 + rate, "contributors_gbps": 3 - rate/10}
	}, added)
}

func TestRefinedGridIsInterpolatedAndMarked(t *testing.T) {
	db, rec := refinedDB(t)
	g, err := LoadGrid(context.Background(), db, rec)
	if err != nil {
		t.Fatal(err)
	}
	if g.Planned != 10 || g.Done != 10 {
		t.Errorf("planned %d, done %d; want the added point counted: 10 and 10", g.Planned, g.Done)
	}
	added := 0
	for _, c := range g.Cells {
		if c.Added {
			added++
			if c.Key[0] != "75us" {
				t.Errorf("cell %v marked as added", c.Key)
			}
		}
	}
	if added != 1 || len(g.Surfaces) != 1 {
		t.Fatalf("%d added cells, %d surfaces", added, len(g.Surfaces))
	}
	s := g.Surfaces[0]
	sl := s.Slices[0]
	fill := g.fill(s, sl, "victim_gbps")
	if fill == nil {
		t.Fatal("no interpolation for a slice with an added point")
	}
	// The holes are (75us, 2) and (75us, 4): between 50us and 100us in
	// their rows, the line x/50 + rate at 75us... on the dimension's scale.
	x := &g.Dims[s.X]
	xi := x.index("75us")
	for yi, rate := range []float64{1, 2, 4} {
		got := fill[yi][xi]
		if rate == 1 {
			if !math.IsNaN(got) {
				t.Errorf("(75us, 1) was run; fill gives %g", got)
			}
			continue
		}
		// Row interpolation between 50us and 100us, and column
		// interpolation between (75us, 1) and nothing: the row's value.
		want := 10 + 1.5 + rate
		if x.Scale == ScaleLog {
			want = 10 + 1 + (math.Log(75)-math.Log(50))/(math.Log(100)-math.Log(50)) + rate
		}
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("victim at (75us, %g) interpolated to %g, want %g", rate, got, want)
		}
	}
	heat := heatmapOption(g, s, sl, "victim_gbps")
	if !strings.Contains(string(heat), `,-1]`) {
		t.Errorf("heat map has no interpolated cell (cell index -1): %s", heat)
	}
	surf := surfaceOption(g, s, sl, "victim_gbps")
	if !strings.Contains(string(surf), `"points run"`) || strings.Contains(string(surf), `"not stored"`) {
		t.Errorf("surface: want the points run marked and no hole taken for a missing point: %s", surf)
	}
}

// refinedAnswer loads refinedDB's grid and ranks it by q.
func refinedAnswer(t *testing.T, q rank.Query) *Grid {
	t.Helper()
	db, rec := refinedDB(t)
	ctx := context.Background()
	g, err := LoadGrid(ctx, db, rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.recommend(ctx, db, q); err != nil {
		t.Fatal(err)
	}
	return g
}

func TestRecommendationOnSurfacesAndPareto(t *testing.T) {
	victim, _ := rank.ParseObjective("victim_gbps", true)
	contrib, _ := rank.ParseObjective("contributors_gbps", true)
	g := refinedAnswer(t, rank.Query{Objectives: []rank.Objective{victim, contrib}})
	r := g.Answer
	if r.Best < 0 || g.describe(g.Cells[r.Best]) == "" {
		t.Fatalf("no recommendation: %+v", r)
	}
	// Victim rises with timer and rate, contributors fall with rate: the
	// weighted best is the longest timer at the lowest rate, and every
	// timer at rate 1 or 4... the front holds the longest timer of each rate.
	if c := g.Cells[r.Best]; c.Key[0] != "200us" {
		t.Errorf("recommended %v, want ccti_timer 200us", c.Key)
	}
	if len(r.Front) != 3 {
		t.Errorf("Pareto front of %d cells, want 3 (200us at each rate)", len(r.Front))
	}
	s := g.Surfaces[0]
	heat := heatmapOption(g, s, s.Slices[0], "victim_gbps")
	if !strings.Contains(string(heat), `"borderColor":"`+bestColor+`"`) {
		t.Errorf("heat map does not outline the recommended cell: %s", heat)
	}
	surf := surfaceOption(g, s, s.Slices[0], "victim_gbps")
	if !strings.Contains(string(surf), `"name":"recommended"`) {
		t.Errorf("surface does not mark the recommended point: %s", surf)
	}
	c := paretoChart(g, 0)
	if c == nil || c.Kind != "pareto" {
		t.Fatal("no Pareto chart for two objectives")
	}
	var opt map[string]any
	if err := json.Unmarshal(c.Options[0], &opt); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range opt["series"].([]any) {
		m := s.(map[string]any)
		if m["name"] == "Pareto front" {
			n = len(m["data"].([]any))
		}
	}
	if n != 3 {
		t.Errorf("Pareto chart's front has %d points, want 3", n)
	}
}
