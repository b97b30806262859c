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
