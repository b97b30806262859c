package store_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// TestAppMetrics: the metrics of closed-loop apps, named by the scenario,
// are stored per point, read back, exported as columns after the fixed
// metrics (empty where a point has none) and carried by a merge; a
// malformed name is refused.
func TestAppMetrics(t *testing.T) {
	ctx := t.Context()
	d, path := newDB(t)
	a := doneResult("p1", testGrid.ID)
	a.Metrics["pingpong_latency_mean_us"] = 0.875
	a.Metrics["ar_iteration_p99_us"] = 1250.5
	b := doneResult("p2", testGrid.ID)
	if err := d.SaveResults(ctx, []store.Result{a, b}); err != nil {
		t.Fatal(err)
	}
	check := func(d *store.DB, where string) {
		rs, err := d.Results(ctx, store.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]map[string]float64{}
		for _, r := range rs {
			got[r.ID] = r.Metrics
		}
		if got["p1"]["pingpong_latency_mean_us"] != 0.875 || got["p1"]["ar_iteration_p99_us"] != 1250.5 || got["p1"]["victim_gbps"] != 13 {
			t.Errorf("%s: p1's metrics read back as %v", where, got["p1"])
		}
		if len(got["p2"]) != 1 {
			t.Errorf("%s: p2's metrics read back as %v, want victim_gbps only", where, got["p2"])
		}
	}
	check(d, "saved")
	var buf bytes.Buffer
	if err := d.ExportCSV(ctx, &buf, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if !strings.HasSuffix(lines[0], ",paths_open_mean,ar_iteration_p99_us,pingpong_latency_mean_us") ||
		!strings.HasSuffix(lines[1], ",1250.5,0.875") || !strings.HasSuffix(lines[2], ",,") {
		t.Errorf("export:\n%s\nwant the app metrics as the last two columns, empty for p2", buf.String())
	}
	d.Close()
	dst := filepath.Join(t.TempDir(), "merged.db")
	if err := store.Merge(ctx, dst, []string{path}, false); err != nil {
		t.Fatal(err)
	}
	m, err := store.Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	check(m, "merged")
	bad := doneResult("p3", testGrid.ID)
	bad.Metrics["Bad Name"] = 1
	if err := m.SaveResults(ctx, []store.Result{bad}); err == nil || !strings.Contains(err.Error(), `unknown metric "Bad Name"`) {
		t.Errorf("a metric named \"Bad Name\" saved: %v", err)
	}
}
