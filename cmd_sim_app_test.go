package main

import (
	"encoding/json"
	"testing"
)

// TestSimJSONApps: sim --format json gives testbed-hpcc's metrics under the
// names issue 25 asks for, and lists its six apps.
func TestSimJSONApps(t *testing.T) {
	out, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-hpcc", "--set", "contributors=0", "--format", "json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc struct {
		Metrics map[string]*float64 `json:"metrics"`
		Apps    []struct {
			Name        string    `json:"name"`
			IterationUs []float64 `json:"iteration_us"`
		} `json:"apps"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"pingpong_latency_min_us", "pingpong_latency_mean_us", "pingpong_latency_max_us",
		"pingpong_bandwidth_min_mbps", "pingpong_bandwidth_mean_mbps", "pingpong_bandwidth_max_mbps",
		"ring_natural_latency_us", "ring_random_latency_us", "ring_natural_bandwidth_mbps", "ring_random_bandwidth_mbps"} {
		if v := doc.Metrics[name]; v == nil || !(*v > 0) {
			t.Errorf("metrics[%s] = %v, want a positive number", name, v)
		}
	}
	if len(doc.Apps) != 6 {
		t.Errorf("%d apps listed, want testbed-hpcc's 6", len(doc.Apps))
	}
}
