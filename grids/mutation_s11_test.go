package grids_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of session 11's sample of grids
// (seed 61; docs/testing.md, "Sampled runs"), after that sample's figure
// was recorded.

// loadScenarioText writes text as a scenario file and loads it.
func loadScenarioText(t *testing.T, text string) (*workload.Scenario, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return grids.LoadScenario(path)
}

// TestMutAppMetricNamesInExpressions checks the shape a name needs to be
// read as an app's metric in a where or objective expression (lowercase
// letters, digits and '_', a letter first, ending _us or _mbps, at most
// 128 bytes): digits and a leading z are fine, 129 bytes are not.
// Kills metricexpr.go's `c >= '0'` negated and `name[0] > 'z'` turned
// into `>=`.
func TestMutAppMetricNamesInExpressions(t *testing.T) {
	long := strings.Repeat("a", 125) + "_us" // 128 bytes
	for expr, ok := range map[string]bool{
		"ar2_latency_us < 5":    true,
		"z_us < 1":              true,
		"a9_bandwidth_mbps > 1": true,
		long + " < 1":           true,
		"a" + long + " < 1":     false,
		"ar-2_latency_us < 5":   false,
		"{_latency_us < 5":      false,
		"ar_latency_usx < 5":    false,
	} {
		if _, err := grids.CompileMetricExpr(expr); (err == nil) != ok {
			t.Errorf("CompileMetricExpr(%.30q): %v; want accepted %v", expr, err, ok)
		}
	}
}

// TestMutAppRanksBound: an [[app]]'s ranks reach 2^20−1 and no further;
// the reader refuses 2^20 naming the range.
// Kills scenfile_app.go's bound `1<<20-1` turned into `1<<20+1`.
func TestMutAppRanksBound(t *testing.T) {
	for _, c := range []struct{ ranks, want string }{
		{"1048576", "app[0].ranks: 1048576: want a whole number from 2 to 1048575"},
		{"1048577", "app[0].ranks: 1048577: want a whole number from 2 to 1048575"},
		{"1", "app[0].ranks: 1: want a whole number from 2 to 1048575"},
	} {
		_, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"ring\"\nranks = "+c.ranks+"\n")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ranks = %s: error %v, want %q", c.ranks, err, c.want)
		}
	}
	_, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"ring\"\nranks = 1048575\n")
	if err != nil && strings.Contains(err.Error(), "app[0].ranks: 1048575: want") {
		t.Errorf("ranks = 1048575 refused by the reader's bound: %v", err)
	}
}

// TestMutDurationZeroAsANumber: a duration may be written as the bare
// number 0 (compute = 0), and no other bare number: compute = 5 is an
// error (5 of what?).
// Kills scenfile_app.go's durZero `v == 0` turned into `!=`.
func TestMutDurationZeroAsANumber(t *testing.T) {
	sc, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"allreduce\"\ncompute = 0\n")
	if err != nil || len(sc.Apps) != 1 || sc.Apps[0].Compute != 0 {
		t.Fatalf("compute = 0: %v", err)
	}
	sc, err = loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"allreduce\"\ncompute = \"5us\"\n")
	if err != nil || sc.Apps[0].Compute.Micros() != 5 {
		t.Fatalf("compute = \"5us\": %v", err)
	}
	if _, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"allreduce\"\ncompute = 5\n"); err == nil || !strings.Contains(err.Error(), "app[0].compute") {
		t.Errorf("compute = 5: error %v, want one naming app[0].compute", err)
	}
}

// TestMutDefaultFlowNames: flows without a name are F1, F2, ... in file
// order. Kills scenfile.go's `i+1` turned into `i-1`.
func TestMutDefaultFlowNames(t *testing.T) {
	sc, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 4\n"+
		"[[flow]]\nsrc = \"H1\"\ndst = \"H2\"\n[[flow]]\nsrc = \"H3\"\ndst = \"H2\"\n[[flow]]\nname = \"x\"\nsrc = \"H4\"\ndst = \"H2\"\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range sc.Flows {
		got = append(got, f.Name)
	}
	if fmt.Sprint(got) != "[F1 F2 x]" {
		t.Errorf("flow names %v, want [F1 F2 x]", got)
	}
}

// TestMutHotspotTrafficNeedsALoad: hotspot_mode traffic splits a load, so
// it is refused with a saturating arrival and accepted with poisson.
// Kills scenfile.go's `ts.Arrival == "saturate"` negated in that check.
func TestMutHotspotTrafficNeedsALoad(t *testing.T) {
	text := func(arrival, load string) string {
		return "[topology]\nkind = \"fattree\"\nk = 4\n[[traffic]]\npattern = \"hotspot\"\nhotspot_mode = \"traffic\"\n" +
			"hot_nodes = 1\nhotspot_fraction = 0.5\narrival = \"" + arrival + "\"\n" + load
	}
	if _, err := loadScenarioText(t, text("poisson", "load = 0.3\n")); err != nil {
		t.Errorf("hotspot traffic with poisson arrivals: %v", err)
	}
	if _, err := loadScenarioText(t, text("saturate", "")); err == nil || !strings.Contains(err.Error(), "hotspot_mode traffic splits a load") {
		t.Errorf("hotspot traffic with saturating sources: error %v, want the split-load message", err)
	}
}
