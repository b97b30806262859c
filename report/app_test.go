package report_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

// TestAppMetricsInReport: the metrics of a grid's closed-loop apps are
// among its metrics, after the fixed ones, described with their units, and
// the headline ones (mean latency, bandwidth, iteration time) are drawn.
func TestAppMetricsInReport(t *testing.T) {
	const text = "name = \"apps\"\nscenario = \"testbed-s1\"\nphase = \"4ms\"\n[sweep]\nmarking_rate = [0, 1, 2]\nccti_timer = [\"100us\", \"200us\"]\n"
	g, err := grids.Parse("apps.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	grid, err := loadOne(t, func(db *store.DB) {
		if err := db.SaveGrid(context.Background(), store.GridRecord{ID: "apps", Name: g.Name, Scenario: g.Scenario, ModelVersion: "test", Canonical: g.Canonical()}); err != nil {
			t.Fatal(err)
		}
		var rs []store.Result
		for i, pt := range g.Points() {
			r := fakeResult(pt, fmt.Sprintf("apps-%03d", i), "apps", 0)
			r.Metrics["train_iteration_mean_us"] = 100 + float64(i)
			r.Metrics["train_op_latency_p99_us"] = 90 + float64(i)
			r.Metrics["pp_bandwidth_mean_mbps"] = 1600 - float64(i)
			rs = append(rs, r)
		}
		if err := db.SaveResults(context.Background(), rs); err != nil {
			t.Fatal(err)
		}
		if err := report.Write(context.Background(), &out, db, report.Options{}); err != nil {
			t.Fatal(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	n := len(grid.Metrics)
	if n < 3 || !slices.Equal(grid.Metrics[n-3:], []string{"pp_bandwidth_mean_mbps", "train_iteration_mean_us", "train_op_latency_p99_us"}) {
		t.Errorf("metrics %v, want the three app metrics last, by name", grid.Metrics)
	}
	if m := report.LookupMetric("train_iteration_mean_us"); m == nil || m.Unit != "µs" || m.Title != "train iteration mean" {
		t.Errorf("LookupMetric(train_iteration_mean_us) = %+v, want title \"train iteration mean\", unit µs", m)
	}
	html := out.String()
	for _, want := range []string{"train iteration mean (µs)", "pp bandwidth mean (MB/s)"} {
		if !strings.Contains(html, want) {
			t.Errorf("the report draws no %q", want)
		}
	}
	if strings.Contains(html, "train op latency p99 (µs)") {
		t.Error("the report draws train_op_latency_p99_us, which is not a headline metric")
	}
}
