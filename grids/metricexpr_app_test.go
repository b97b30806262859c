package grids_test

import (
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// TestMetricExprAppMetrics: a name shaped like an app's metric (ending in
// _us or _mbps) is read from the point's metrics, NaN (every comparison
// false) where the point has none, and listed by AppMetrics; any other
// unknown name is still an error at compile time.
func TestMetricExprAppMetrics(t *testing.T) {
	e, err := grids.CompileMetricExpr("(train_iteration_mean_us < 500 || train_iteration_mean_us == 1e9) && pp_bandwidth_mean_mbps >= 1000")
	if err != nil {
		t.Fatal(err)
	}
	if got := e.AppMetrics(); !slices.Equal(got, []string{"train_iteration_mean_us", "pp_bandwidth_mean_mbps"}) {
		t.Errorf("AppMetrics() = %v", got)
	}
	for _, tt := range []struct {
		metrics map[string]float64
		want    bool
	}{
		{map[string]float64{"train_iteration_mean_us": 499, "pp_bandwidth_mean_mbps": 1000}, true},
		{map[string]float64{"train_iteration_mean_us": 500, "pp_bandwidth_mean_mbps": 1000}, false},
		{map[string]float64{"train_iteration_mean_us": 499, "pp_bandwidth_mean_mbps": 999}, false},
		{map[string]float64{"pp_bandwidth_mean_mbps": 2000}, false},
	} {
		got, err := e.Eval(nil, tt.metrics)
		if err != nil || got != tt.want {
			t.Errorf("Eval(%v) = %v, %v; want %v", tt.metrics, got, err, tt.want)
		}
	}
	if e, err := grids.CompileMetricExpr("victim_gbps > 1"); err != nil || len(e.AppMetrics()) != 0 {
		t.Errorf("victim_gbps > 1: %v, app metrics %v; want none", err, e.AppMetrics())
	}
	for _, bad := range []string{"train_latency < 9", "Train_latency_us < 9", "victim_gpbs > 1"} {
		if _, err := grids.CompileMetricExpr(bad); err == nil {
			t.Errorf("%q compiled", bad)
		}
	}
}
