package main

import (
	"encoding/csv"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExportSeriesIsWhatSimPrints runs a grid, exports its series and
// checks one point's rows against `ccsweep sim` run alone with the same
// parameters: the same flows, times and throughputs (to float32, as
// stored).
func TestExportSeriesIsWhatSimPrints(t *testing.T) {
	grid := writeGrid(t, reportGrid)
	if out, stderr, code := ccsweep(t, "run", grid, "-j", "2", "--quiet", "--no-report"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
	}
	db := filepath.Join(filepath.Dir(grid), "rep.db")
	out, stderr, code := ccsweep(t, "export", db, "--series")
	if code != 0 {
		t.Fatalf("export --series: exit %d %s", code, stderr)
	}
	records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range records[0] {
		col[h] = i
	}
	// 4 points, 5 flows, 5 phases of 4 ms sampled every 1 ms.
	if len(records)-1 != 4*5*20 {
		t.Fatalf("%d rows, want %d", len(records)-1, 4*5*20)
	}
	got := map[string]float64{} // time_s,flow of ccti_timer=200us, marking_rate=4
	for _, r := range records[1:] {
		if r[col["ccti_timer"]] == "200us" && r[col["marking_rate"]] == "4" {
			v, err := strconv.ParseFloat(r[col["gbps"]], 64)
			if err != nil {
				t.Fatal(err)
			}
			got[r[col["time_s"]]+","+r[col["flow"]]] = v
		}
	}
	sim, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s1", "--cc", "on", "--phase", "4ms", "--sample", "1ms",
		"--set", "ccti_timer=200us", "--set", "marking_rate=4")
	if code != 0 {
		t.Fatalf("sim: exit %d %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(sim), "\n")[1:]
	if len(lines) != len(got) {
		t.Fatalf("sim prints %d rows, the export has %d for the point", len(lines), len(got))
	}
	for _, line := range lines {
		f := strings.Split(line, ",")
		want, _ := strconv.ParseFloat(f[2], 64)
		v, ok := got[f[0]+","+f[1]]
		if !ok || v != float64(float32(want)) && math.Abs(v-want) > 1e-6*math.Abs(want) {
			t.Errorf("t=%s %s: export %v (present %v), sim %v", f[0], f[1], v, ok, want)
		}
	}
	if _, stderr, code := ccsweep(t, "export", db, "--series", "--summary"); code != 2 || strings.Count(stderr, "\n") != 1 {
		t.Errorf("--series --summary: exit %d %q, want 2 and one line", code, stderr)
	}
}
