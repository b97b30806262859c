package grids_test

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A zip group number that skips one is refused with the numbers that would
// do: 0 (no group), the last group's, or the next one.
func TestCanonicalZipSkipSaysWhatWouldDo(t *testing.T) {
	for _, c := range []struct{ axes, want string }{
		{`[{"name": "threshold", "values": ["1"], "zip": 2}]`, "axis threshold: zip 2, want 0, 0 or 1"},
		{`[{"name": "threshold", "values": ["1"], "zip": 1}, {"name": "marking_rate", "values": ["1"], "zip": 3}]`,
			"axis marking_rate: zip 3, want 0, 1 or 2"},
	} {
		text := `{"format": "ccsweep-grid/1", "name": "g", "grids": [{"scenario": "testbed-s1", "seeds": 1, "base": {}, "axes": ` + c.axes + `}]}`
		_, err := grids.ParseCanonical([]byte(text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.axes, err, c.want)
		}
	}
}
