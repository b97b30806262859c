package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// simParams runs sim with args (JSON to a file) and returns its params.
func simParams(t *testing.T, args ...string) map[string]string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.json")
	args = append([]string{"sim", "--scenario", "testbed-s1", "--cc", "on", "--phase", "1ms", "--format", "json", "--out", path}, args...)
	if _, stderr, code := ccsweep(t, args...); code != 0 {
		t.Fatalf("%s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Params map[string]string `json:"params"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Params
}

func TestSimPresetAppliesAndSetOverridesIt(t *testing.T) {
	check := func(got map[string]string, want map[string]string) {
		t.Helper()
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s = %q, want %q", k, got[k], v)
			}
		}
	}
	// Omni-Path FM's opafm.xml: Threshold 8, Increase 5, Timer 10 x 1.024us,
	// VictimMarkingEnable 1, linear CCT to DesiredMaxDelay 8300 ns.
	check(simParams(t, "--preset", "opa"), map[string]string{"preset": "opa", "threshold": "8", "ccti_increase": "5",
		"ccti_timer": "10.24us", "victim_mask": "all", "cct": "linear", "cct_max_delay": "8.3us"})
	check(simParams(t, "--preset", "opa", "--set", "ccti_increase=2", "--set", "cct=table:0,1us"), map[string]string{
		"preset": "opa", "threshold": "8", "ccti_increase": "2", "cct": "table:0s,1us"})
	// Without --preset, the testbed's Table I.
	check(simParams(t), map[string]string{"preset": "table1", "threshold": "15", "ccti_increase": "1", "ccti_timer": "150us", "cct": "quadratic"})

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--preset", "mlnx"}, "--preset: preset = mlnx: want one of table1, ccmgr, opa"},
		{[]string{"--set", "cct=table:2us,1us"}, "--set: cct = table:2us,1us: entry 1 \"1us\": below entry 0 (2us)"},
		{[]string{"--set", "cct=exponential"}, "--set: cct = exponential: want quadratic, linear, or table:"},
		{[]string{"--preset", "opa", "--set", "preset=ccmgr"}, "preset is already set by --preset"},
	} {
		args := append([]string{"sim", "--scenario", "testbed-s1", "--phase", "1ms"}, tc.args...)
		out, stderr, code := ccsweep(t, args...)
		if code != 2 || out != "" || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 2 and one line with %q", tc.args, code, len(out), stderr, tc.want)
		}
	}
}

// TestCCTShapeDrivesTheRun: the linear CCT and an explicit table holding
// its entries, cct[i] = 5 µs·i/127 by hand, give the same run, and it
// differs from the testbed's quadratic CCT.
func TestCCTShapeDrivesTheRun(t *testing.T) {
	entries := make([]string, 128)
	for i := range entries {
		entries[i] = fmt.Sprintf("%dps", 5000000*i/127)
	}
	sim := func(sets ...string) string {
		t.Helper()
		args := []string{"sim", "--scenario", "testbed-s1", "--cc", "on", "--phase", "4ms", "--quiet"}
		for _, s := range sets {
			args = append(args, "--set", s)
		}
		out, stderr, code := ccsweep(t, args...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		return out
	}
	linear := sim("cct=linear", "cct_max_delay=5us")
	table := sim("cct=table:" + strings.Join(entries, ","))
	quadratic := sim()
	if linear != table {
		t.Error("cct=linear to 5us and the table of its entries give different runs")
	}
	if linear == quadratic {
		t.Error("the linear CCT gives the quadratic CCT's run: the shape is not used")
	}
}

// TestGridSweepsPresetsAndBestNamesTheWinner runs a grid with a preset
// axis and checks that best recommends the preset with the highest victim
// throughput, read from the database. At 10 ms phases the three differ
// clearly (victim about 5.9, 2.8 and 2.2 Gbit/s).
func TestGridSweepsPresetsAndBestNamesTheWinner(t *testing.T) {
	grid := writeGrid(t, `
name     = "presets"
scenario = "testbed-s1"
cc       = "on"
phase    = "10ms"
[sweep]
preset = ["table1", "ccmgr", "opa"]
`)
	db := filepath.Join(t.TempDir(), "presets.db")
	if _, stderr, code := ccsweep(t, "run", grid, "--db", db, "--no-report", "--quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	d, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := d.Results(context.Background(), store.Filter{})
	d.Close()
	if err != nil {
		t.Fatal(err)
	}
	victim := map[string]float64{}
	winner := ""
	for _, r := range rs {
		preset := ""
		for _, p := range r.Point.Params {
			if p.Name == "preset" {
				preset = p.Value
			}
		}
		if r.Status != store.StatusDone {
			t.Fatalf("%s: %s %s", preset, r.Status, r.Err)
		}
		victim[preset] = r.Metrics["victim_gbps"]
		if winner == "" || victim[preset] > victim[winner] {
			winner = preset
		}
	}
	if len(victim) != 3 {
		t.Fatalf("results %v, want one per preset", victim)
	}
	out, stderr, code := ccsweep(t, "best", db, "--maximize", "victim_gbps")
	if code != 0 {
		t.Fatalf("best: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "recommended: preset="+winner+"\n") {
		t.Errorf("best does not recommend %s (victim throughput %v):\n%s", winner, victim, out)
	}
}
