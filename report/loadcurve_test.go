package report

import (
	"slices"
	"testing"
)

// TestLoadCurves: a grid sweeping an offered load draws load curves over
// it (accepted load and latency), whatever else it sweeps; without one,
// lines keep the testbed's metrics.
func TestLoadCurves(t *testing.T) {
	all := []string{"victim_gbps", "contributors_gbps", "var", "fairness_jain", "accepted_load", "latency_mean_us", "latency_p99_us"}
	g := &Grid{Metrics: all, Dims: []Dim{
		{Name: "cc", Values: []string{"off", "on"}},
		{Name: "bg.load", Values: []string{"0.1", "0.5", "0.9"}, Nums: []float64{0.1, 0.5, 0.9}},
		{Name: "marking_rate", Values: []string{"0", "4"}, Nums: []float64{0, 4}},
		{Name: "ccti_timer", Values: []string{"20us", "150us"}, Nums: []float64{20, 150}},
	}}
	surfaces, lines := layout(g)
	if lines == nil || lines.X != 1 || !slices.Equal(lines.Others, []int{0, 2, 3}) {
		t.Fatalf("lines %+v, want over bg.load", lines)
	}
	if len(surfaces) != 1 {
		t.Errorf("%d surfaces, want marking_rate x ccti_timer", len(surfaces))
	}
	if m := lineMetrics(g, lines); len(m) < 3 || m[0] != "accepted_load" || !slices.Contains(m, "latency_p99_us") {
		t.Errorf("load curve metrics %v", m)
	}
	g.Dims = g.Dims[:2] // cc and one numeric axis, not a load: lines over it
	g.Dims[1].Name = "hotspot_fraction"
	_, lines = layout(g)
	if lines == nil || lines.X != 1 {
		t.Fatalf("lines %+v, want over hotspot_fraction", lines)
	}
	if m := lineMetrics(g, lines); m[0] != "victim_gbps" {
		t.Errorf("without a load axis: metrics %v", m)
	}
}
