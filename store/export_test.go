package store_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// exportDB returns a database holding two grids' worth of results: numeric
// and text parameters, a parameter only one grid has, two seeds, a missing
// metric, and a failed point that exports must leave out.
func exportDB(t *testing.T) *store.DB {
	t.Helper()
	d, _ := newDB(t)
	ctx := t.Context()
	other := store.GridRecord{ID: "grid-2", Name: "thresholds", Scenario: "testbed-s2", ModelVersion: "m1", Canonical: "…"}
	if err := d.SaveGrid(ctx, other); err != nil {
		t.Fatal(err)
	}
	point := func(id, grid string, seed uint64, victim float64, params ...string) store.Result {
		r := store.Result{
			ID: id, GridID: grid, Point: store.Point{Scenario: "testbed-s1", Seed: seed},
			Status:       store.StatusDone,
			ModelVersion: "m1",
			Metrics: map[string]float64{
				"victim_gbps": victim, "contributors_gbps": 3.25, "fairness_jain": 0.9987654321,
				"var": 1.5e-7, "sd_gbps": 0.5, "fecn": 12000, "becn": 11000, "mean_ccti": 17.25,
			},
		}
		for i := 0; i < len(params); i += 2 {
			r.Point.Params = append(r.Point.Params, store.Param{Name: params[i], Value: params[i+1]})
		}
		return r
	}
	noVictim := point("p7", "grid-2", 1, 0, "marking_rate", "1", "threshold", "8", "cc_level", "sl")
	delete(noVictim.Metrics, "victim_gbps")
	failed := point("p8", testGrid.ID, 1, 0, "marking_rate", "3", "ccti_timer", "150us")
	failed.Status, failed.Err = store.StatusFailed, "deadlock"
	rs := []store.Result{
		point("p1", testGrid.ID, 1, 13.1, "marking_rate", "10", "ccti_timer", "150us"),
		point("p2", testGrid.ID, 2, 12.9, "marking_rate", "2", "ccti_timer", "150us"),
		point("p3", testGrid.ID, 1, 13, "marking_rate", "2", "ccti_timer", "150us"),
		point("p4", testGrid.ID, 1, 7.5, "marking_rate", "0", "ccti_timer", "50us"),
		point("p5", testGrid.ID, 1, 6.25, "marking_rate", "0.5", "ccti_timer", "1ms"),
		point("p6", "grid-2", 1, 4, "marking_rate", "1", "threshold", "15", "cc_level", "qp, \"x\""),
		noVictim,
		failed,
	}
	if err := d.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	return d
}

// exportOptions fill in the defaults of a model "m1" and know no other.
var exportOptions = store.ExportOptions{
	Effective: func(scenario, modelVersion string, params []store.Param) map[string]string {
		if modelVersion != "m1" {
			return nil
		}
		return map[string]string{"cc_level": "qp", "ccti_timer": "150us", "marking_rate": "1", "threshold": "15"}
	},
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "export", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test -update to accept):\n%s", name, path, got)
	}
}

func TestExportCSV(t *testing.T) {
	d := exportDB(t)
	var buf bytes.Buffer
	if err := d.ExportCSV(t.Context(), &buf, exportOptions); err != nil {
		t.Fatal(err)
	}
	header, _, _ := bytes.Cut(buf.Bytes(), []byte("\n"))
	want := "grid,grid_id,scenario,cc_level,ccti_timer,marking_rate,threshold,seed," +
		"victim_gbps,contributors_gbps,fairness_jain,var,sd_gbps,fecn,becn,mean_ccti," +
		"background_gbps,victim_jain,background_jain,latency_mean_us,latency_p50_us,latency_p99_us," +
		"victim_latency_mean_us,victim_latency_p50_us,victim_latency_p99_us," +
		"contributors_latency_mean_us,contributors_latency_p50_us,contributors_latency_p99_us," +
		"background_latency_mean_us,background_latency_p50_us,background_latency_p99_us," +
		"offered_load,accepted_load,max_link_util,max_buffer_fill,dropped_messages,share_error,refused_flows,paths_open_mean"
	if string(header) != want {
		t.Errorf("header = %s, want %s", header, want)
	}
	checkGolden(t, "results.csv", buf.Bytes())
}

func TestExportJSON(t *testing.T) {
	d := exportDB(t)
	var buf bytes.Buffer
	if err := d.ExportJSON(t.Context(), &buf, exportOptions); err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &rows); err != nil {
		t.Fatalf("export is not JSON: %v", err)
	}
	if len(rows) != 7 {
		t.Errorf("%d rows, want 7 (done points only)", len(rows))
	}
	checkGolden(t, "results.json", buf.Bytes())
}

func TestExportEmpty(t *testing.T) {
	d, _ := newDB(t)
	var csv, js bytes.Buffer
	if err := d.ExportCSV(t.Context(), &csv, exportOptions); err != nil {
		t.Fatal(err)
	}
	if err := d.ExportJSON(t.Context(), &js, exportOptions); err != nil {
		t.Fatal(err)
	}
	header := "grid,grid_id,scenario,seed," + strings.Join(store.MetricNames(), ",") + "\n"
	if csv.String() != header || js.String() != "[]\n" {
		t.Errorf("empty exports = %q and %q, want %q and %q", csv.String(), js.String(), header, "[]\n")
	}
}
