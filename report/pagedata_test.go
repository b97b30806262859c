package report_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// TestPageDataIsCompact checks the shape that keeps a large grid's report
// small (docs/reports.md, "Large grids"): the surfaces' and heat maps'
// points are bare arrays, not {"value": [...]} objects; the cells carry no
// keys (the page finds them by index); and each cell's means are the
// values its heat map plots, so that the details and the chart agree.
// The results are irrational numbers, so that a mean kept at full
// precision differs from the plotted one.
func TestPageDataIsCompact(t *testing.T) {
	grid := filepath.Join(t.TempDir(), "compact.toml")
	if err := os.WriteFile(grid, []byte(`name = "compact"
scenario = "testbed-s1"
cc = "on"
[sweep]
ccti_timer   = ["100us", "200us", "300us"]
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
	for i, pt := range plan.All() {
		timer, rate := param(pt, "ccti_timer", 0), param(pt, "marking_rate", 0)
		r := store.Result{ID: plan.ID(i), GridID: plan.GridID, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
			Status: store.StatusDone, ModelVersion: "test", Metrics: map[string]float64{
				"victim_gbps": 10 + math.Sqrt(timer/7+rate), "contributors_gbps": 3 + math.Pi/(timer+rate),
				"var": math.Sqrt2 / (1 + rate)}}
		r.Point.Params = append(r.Point.Params, pt.Params...)
		rs = append(rs, r)
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
					Data []json.RawMessage `json:"data"`
				} `json:"series"`
			} `json:"options"`
			Meta struct {
				Metric struct{ Name string } `json:"metric"`
			} `json:"meta"`
		} `json:"charts"`
		Grids []struct {
			Cells []map[string]json.RawMessage `json:"cells"`
		} `json:"grids"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	if len(data.Grids) != 1 || len(data.Grids[0].Cells) != 12 {
		t.Fatalf("want one grid of 12 cells, got %+v", data.Grids)
	}
	cells := data.Grids[0].Cells
	for ci, c := range cells {
		if _, ok := c["key"]; ok {
			t.Errorf("cell %d has a key: %s", ci, c["key"])
		}
	}
	plotted := 0
	for id, ch := range data.Charts {
		if ch.Kind != "surface" && ch.Kind != "heatmap" {
			continue
		}
		for _, o := range ch.Options {
			for k, item := range o.Series[0].Data {
				var v []any
				if err := json.Unmarshal(item, &v); err != nil {
					t.Fatalf("%s: point %d is not a bare array: %s", id, k, item)
				}
				if ch.Kind != "heatmap" {
					continue
				}
				// [x, y, mean, sd, done, seeds, failed, cell]
				ci := int(v[7].(float64))
				var means map[string]float64
				if err := json.Unmarshal(cells[ci]["mean"], &means); err != nil {
					t.Fatal(err)
				}
				if got, want := means[ch.Meta.Metric.Name], v[2].(float64); got != want {
					t.Errorf("%s: cell %d's %s is %v in its details, %v on the chart", id, ci, ch.Meta.Metric.Name, got, want)
				}
				plotted++
			}
		}
	}
	if want := 3 * 12; plotted != want {
		t.Errorf("heat maps plot %d cells; want %d (3 metrics of 12 cells)", plotted, want)
	}
}
