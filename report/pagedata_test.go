package report_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// TestPageDataIsCompact checks the shape that keeps a large grid's report
// small (docs/reports.md, "Large grids"), and that nothing is lost by it:
//   - the surfaces' and heat maps' points are bare arrays, not
//     {"value": [...]} objects; a heat map's point is [x, y, mean, cell],
//     with the spread after it only for a cell of several done seeds;
//   - the cells are a table: every parameter's and metric's name appears
//     once in the grid's cells, not once a cell;
//   - read back as the page's script reads it (cellRow in report.js),
//     every cell has the parameters of the database's points it lists,
//     each metric's mean over their seeds to five significant digits (the
//     value its heat map plots) and, over two seeds, their spread.
//
// The results are irrational numbers, so that a mean kept at full
// precision differs from the plotted one, and differ between seeds.
func TestPageDataIsCompact(t *testing.T) {
	grid := filepath.Join(t.TempDir(), "compact.toml")
	if err := os.WriteFile(grid, []byte(`name = "compact"
scenario = "testbed-s1"
cc = "on"
seeds = 2
[sweep]
ccti_timer   = ["100us", "200us", "300us", "400us", "500us"]
marking_rate = [1, 2, 4, 8]
`), 0o644); err != nil {
		t.Fatal(err)
	}
	g := loadGrid(t, grid)
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "compact.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := db.SaveGrid(ctx, store.GridRecord{ID: plan.GridID, Name: g.Name, Scenario: g.Scenario,
		ModelVersion: "test", Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	byID := map[string]store.Result{}
	for i, pt := range plan.All() {
		timer, rate, seed := param(pt, "ccti_timer", 0), param(pt, "marking_rate", 0), float64(pt.Seed)
		r := store.Result{ID: plan.ID(i), GridID: plan.GridID, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
			Status: store.StatusDone, ModelVersion: "test", Metrics: map[string]float64{
				"victim_gbps": 10 + math.Sqrt(timer/7+rate) + seed/3, "contributors_gbps": 3 + math.Pi/(timer+rate+seed),
				"var": math.Sqrt2 / (seed + rate)}}
		r.Point.Params = append(r.Point.Params, pt.Params...)
		rs = append(rs, r)
		byID[r.ID] = r
	}
	if err := db.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	db.Close()

	m := dataRE.FindStringSubmatch(writeHTML(t, path, report.Options{}))
	if m == nil {
		t.Fatal("no page data")
	}
	var data struct {
		Charts map[string]struct {
			Kind    string `json:"kind"`
			Options []struct {
				Series []struct {
					Data json.RawMessage `json:"data"`
				} `json:"series"`
			} `json:"options"`
			Meta struct {
				Metric struct{ Name string } `json:"metric"`
				X, Y   struct {
					Name   string
					Labels []string
				}
			} `json:"meta"`
		} `json:"charts"`
		Grids []struct {
			Cells json.RawMessage `json:"cells"`
		} `json:"grids"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Grids) != 1 {
		t.Fatalf("want one grid, got %d", len(data.Grids))
	}
	raw := string(data.Grids[0].Cells)
	for _, name := range []string{"cc", "ccti_timer", "marking_rate", "victim_gbps", "contributors_gbps", "var"} {
		if n := strings.Count(raw, `"`+name+`"`); n != 1 {
			t.Errorf("%q appears %d times in the cells; want once, in the table's names", name, n)
		}
	}
	var tab struct {
		Params  []string
		Values  [][]string
		Metrics []string
		Rows    []struct {
			S  string
			C  [3]int
			P  []int
			M  []*float64
			SD []*float64
			ID []string
		}
	}
	if err := json.Unmarshal(data.Grids[0].Cells, &tab); err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 20 {
		t.Fatalf("want 20 cells, got %d", len(tab.Rows))
	}
	// Five significant digits, spelt independently of the report's code.
	sig5 := func(x float64) float64 {
		v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 5, 64), 64)
		return v
	}
	means := make([]map[string]float64, len(tab.Rows)) // each cell's, read back
	for ci, r := range tab.Rows {
		if r.S != "done" || r.C != [3]int{2, 2, 0} || len(r.ID) != 2 {
			t.Fatalf("cell %d: status %q, seeds/done/failed %v, points %v; want done, [2 2 0] and two points", ci, r.S, r.C, r.ID)
		}
		var params []store.Param
		for i, k := range r.P {
			if k >= 0 {
				params = append(params, store.Param{Name: tab.Params[i], Value: tab.Values[i][k]})
			}
		}
		a, b := byID[r.ID[0]], byID[r.ID[1]]
		if !slices.Equal(params, a.Point.Params) || !slices.Equal(params, b.Point.Params) || a.Point.Seed != 1 || b.Point.Seed != 2 {
			t.Errorf("cell %d: params %v; its points (seeds %d, %d) have %v and %v", ci, params, a.Point.Seed, b.Point.Seed, a.Point.Params, b.Point.Params)
		}
		means[ci] = map[string]float64{}
		for i, name := range tab.Metrics {
			x, y := a.Metrics[name], b.Metrics[name]
			if r.M[i] == nil || *r.M[i] != sig5((x+y)/2) {
				t.Errorf("cell %d: %s mean %v; want %v (the seeds' %v and %v)", ci, name, r.M[i], sig5((x+y)/2), x, y)
				continue
			}
			if sd := math.Abs(x-y) / 2; r.SD == nil || r.SD[i] == nil || math.Abs(*r.SD[i]-sd) > 1e-12*sd {
				t.Errorf("cell %d: %s spread %v; want %v", ci, name, r.SD, sd)
			}
			means[ci][name] = *r.M[i]
		}
	}
	plotted, columns := 0, 0
	for id, ch := range data.Charts {
		if ch.Kind != "surface" && ch.Kind != "heatmap" {
			continue
		}
		for _, o := range ch.Options {
			if strings.Contains(string(o.Series[0].Data), `"t":true`) {
				columns++
			}
			for k, v := range expandGrid(t, id, o.Series[0].Data) {
				if ch.Kind != "heatmap" {
					continue
				}
				// [x, y, mean, cell, sd]: two seeds are done
				if len(v) != 5 {
					t.Fatalf("%s: point %d is %v; want [x, y, mean, cell, sd]", id, k, v)
				}
				ci := int(v[3].(float64))
				// The point sits at its cell's values (labels of
				// microseconds and rates).
				for k, a := range []struct {
					Name   string
					Labels []string
				}{ch.Meta.X, ch.Meta.Y} {
					r := tab.Rows[ci]
					val := tab.Values[slices.Index(tab.Params, a.Name)][r.P[slices.Index(tab.Params, a.Name)]]
					if at := int(v[k].(float64)); a.Labels[at] != strings.TrimSuffix(val, "us") {
						t.Errorf("%s: cell %d (%s=%s) drawn at %s %s", id, ci, a.Name, val, a.Name, a.Labels[at])
					}
				}
				if got, want := means[ci][ch.Meta.Metric.Name], v[2].(float64); got != want {
					t.Errorf("%s: cell %d's %s is %v in its details, %v on the chart", id, ci, ch.Meta.Metric.Name, got, want)
				}
				if sd := *tab.Rows[ci].SD[slices.Index(tab.Metrics, ch.Meta.Metric.Name)]; v[4].(float64) != sig3(sd) {
					t.Errorf("%s: cell %d's spread %v on the chart; want %v (%v to three digits)", id, ci, v[4], sig3(sd), sd)
				}
				plotted++
			}
		}
	}
	// The heat maps put ccti_timer (5 values) on their y axis, the
	// surfaces on their x axis: the heat maps' points come column by
	// column.
	if columns != 3 {
		t.Errorf("%d charts' points are written column by column; want the 3 heat maps'", columns)
	}
	if want := 3 * 20; plotted != want {
		t.Errorf("heat maps plot %d cells; want %d (3 metrics of 20 cells)", plotted, want)
	}
}

// expandGrid returns the points of a surface's or heat map's series
// written as a grid ({"x": [...], "y": [...], "v": [...]}, "t" for column
// order), as the page's script reads them: [x, y, v...] for each v not
// null. Points given as a list fail the test: the grid is the compact form.
func expandGrid(t *testing.T, id string, raw json.RawMessage) [][]any {
	t.Helper()
	var g struct {
		X, Y, V []any
		T       bool
	}
	if err := json.Unmarshal(raw, &g); err != nil || len(g.V) != len(g.X)*len(g.Y) {
		t.Fatalf("%s: data %.80s... is not a grid of x × y values (%v)", id, raw, err)
	}
	var out [][]any
	for i, v := range g.V {
		if v == nil {
			continue
		}
		xi, yi := i%len(g.X), i/len(g.X)
		if g.T {
			xi, yi = i/len(g.Y), i%len(g.Y)
		}
		p := []any{g.X[xi], g.Y[yi]}
		if l, ok := v.([]any); ok {
			p = append(p, l...)
		} else {
			p = append(p, v)
		}
		out = append(out, p)
	}
	return out
}

// sig3 rounds x to three significant digits.
func sig3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 3, 64), 64)
	return v
}
