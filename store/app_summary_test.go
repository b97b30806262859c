package store_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// TestAppMetricsInSummaryAndResultsOf: export --summary aggregates the
// apps' metrics over seeds like the fixed ones (columns after them: mean,
// sample sd, ...; empty where a point has none), and ResultsOf (which
// refinement rounds read) returns them.
func TestAppMetricsInSummaryAndResultsOf(t *testing.T) {
	ctx := t.Context()
	d, _ := newDB(t)
	a, b := doneResult("p1", testGrid.ID), doneResult("p2", testGrid.ID)
	b.Point.Seed = 2
	a.Metrics["ar_iteration_mean_us"], b.Metrics["ar_iteration_mean_us"] = 10, 14
	c := doneResult("p3", testGrid.ID)
	c.Point.Params = []store.Param{{Name: "marking_rate", Value: "2"}}
	if err := d.SaveResults(ctx, []store.Result{a, b, c}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := d.ExportSummaryCSV(ctx, &buf, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// Two seeds 10 and 14: mean 12, sample sd sqrt(8); the t quantile of
	// one degree of freedom is 12.706, half-width 12.706 sqrt(8)/sqrt(2).
	sd := math.Sqrt(8)
	if len(lines) != 3 || !strings.HasSuffix(lines[0], ",paths_open_mean_ci95,ar_iteration_mean_us_mean,ar_iteration_mean_us_sd,ar_iteration_mean_us_ci95") ||
		!strings.HasSuffix(lines[2], ",,,") {
		t.Fatalf("summary:\n%s\nwant ar_iteration_mean_us's mean, sd and ci95 last, empty for marking_rate 2", buf.String())
	}
	cells := strings.Split(lines[1], ",")
	var got [3]float64
	for k := range got {
		json.Unmarshal([]byte(cells[len(cells)-3+k]), &got[k])
	}
	if got[0] != 12 || math.Abs(got[1]-sd) > 1e-12 || math.Abs(got[2]-12.706*sd/math.Sqrt2) > 1e-3 {
		t.Errorf("summary of ar_iteration_mean_us: %v, want 12, %g, %g", got, sd, 12.706*sd/math.Sqrt2)
	}
	buf.Reset()
	if err := d.ExportSummaryJSON(ctx, &buf, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"ar_iteration_mean_us_mean": 12, "ar_iteration_mean_us_sd": `) {
		t.Errorf("summary json has no ar_iteration_mean_us_mean 12:\n%s", buf.String())
	}
	rs, err := d.ResultsOf(ctx, []string{"p1", "p2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if want := map[string]float64{"p1": 10, "p2": 14}[r.ID]; r.Metrics["ar_iteration_mean_us"] != want {
			t.Errorf("ResultsOf: %s's metrics %v, want ar_iteration_mean_us %g", r.ID, r.Metrics, want)
		}
	}
}
