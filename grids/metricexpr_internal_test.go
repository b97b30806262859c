package grids

import "testing"

// An app metric's name is lower-case letters, digits and underscores,
// starting with a letter, ending in _us or _mbps: a 'z' anywhere is a
// letter. Kills metricexpr.go's `c <= 'z'` turned into `<`.
func TestAppMetricShapeTakesEveryLetter(t *testing.T) {
	for name, want := range map[string]bool{
		"fizz_lat_us": true, "z9_mbps": true, "a_z_us": true,
		"fi{z_us": false, "Fizz_us": false, "fizz_ms": false, "9z_us": false,
	} {
		if got := isAppMetricShape(name); got != want {
			t.Errorf("isAppMetricShape(%q) = %v, want %v", name, got, want)
		}
	}
}
