package grids_test

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

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
