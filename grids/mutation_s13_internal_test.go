package grids

import "testing"

// suggest proposes the closest candidate within one edit for every three
// bytes of the name, at most two, and the first of equally close ones.
// Kills grid.go's `len(name)/3` turned into `*3` (a two-byte name would
// take a candidate two edits away) and `d < bestD` into `<=` (the last of
// equally close candidates).
func TestSuggestTakesTheFirstOfTheClosest(t *testing.T) {
	for _, c := range []struct {
		name       string
		candidates []string
		want       string
	}{
		{"xy", []string{"ab"}, ""},                    // two edits: too far for two bytes
		{"xb", []string{"ab"}, " (did you mean ab?)"}, // one edit
		{"abcd", []string{"abce", "abcf"}, " (did you mean abce?)"},
		{"marking_rat", []string{"ccti_timer", "marking_rate"}, " (did you mean marking_rate?)"},
		{"mark_rte", []string{"marking_rate"}, ""},                                // four edits
		{"markingrte", []string{"marking_rate"}, " (did you mean marking_rate?)"}, // two edits, ten bytes
	} {
		if got := suggest(c.name, c.candidates); got != c.want {
			t.Errorf("suggest(%q, %v) = %q, want %q", c.name, c.candidates, got, c.want)
		}
	}
}

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
