package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// TestRunStoresAppMetrics: a sweep of testbed-hpcc stores each point's app
// metrics, and export writes them as columns.
func TestRunStoresAppMetrics(t *testing.T) {
	dir := t.TempDir()
	grid := filepath.Join(dir, "g.toml")
	db := filepath.Join(dir, "g.db")
	if err := os.WriteFile(grid, []byte("name = \"g\"\nscenario = \"testbed-hpcc\"\n[sweep]\ncontributors = [0]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := ccsweep(t, "run", grid, "--db", db, "--no-report", "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	out, stderr, code := ccsweep(t, "export", db, "--format", "csv")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 2 {
		t.Fatalf("export: %d rows, %v:\n%s", len(rows), err, out)
	}
	col := slices.Index(rows[0], "pingpong_bandwidth_mean_mbps")
	if col < 0 {
		t.Fatalf("no pingpong_bandwidth_mean_mbps column in %v", rows[0])
	}
	if v, err := strconv.ParseFloat(rows[1][col], 64); err != nil || !(v > 1000) {
		t.Errorf("pingpong_bandwidth_mean_mbps = %q, want the idle testbed's ~1600 MB/s", rows[1][col])
	}
}
