package main

import (
	"regexp"
	"strconv"
	"testing"
)

// calibTable matches a row of calibrate's table: phase, flow, measured,
// model, difference.
var calibTable = regexp.MustCompile(`(?m)^(\d+)\s+(\S+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+([+-][\d.]+)\s`)

// checkCalibrateTable checks that every row's difference is the model's
// throughput less the measured one.
func checkCalibrateTable(t *testing.T, out string) {
	t.Helper()
	rows := calibTable.FindAllStringSubmatch(out, -1)
	if len(rows) == 0 {
		t.Fatalf("no table rows:\n%s", out)
	}
	for _, r := range rows {
		measured, _ := strconv.ParseFloat(r[3], 64)
		model, _ := strconv.ParseFloat(r[4], 64)
		diff, _ := strconv.ParseFloat(r[5], 64)
		if d := model - measured - diff; d > 0.0015 || d < -0.0015 {
			t.Errorf("row %q: difference %g, want %g", r[0], diff, model-measured)
		}
	}
}
