package params

import (
	"strings"
	"testing"
)

// TestMutCCTTableAtItsBounds checks an explicit CCT at the bounds its
// parameter documents (cct: at most one entry per CCTI up to
// ccti_limit's largest, 16384, each at most 1 s, none below the one
// before): 16384 entries and an entry of exactly 1 s are accepted, and a
// table of equal entries too; one entry more, or 1 s and a picosecond, is
// refused.
func TestMutCCTTableAtItsBounds(t *testing.T) {
	for _, c := range []struct {
		table string
		ok    bool
	}{
		{"table:" + strings.Repeat("1us,", 16383) + "1us", true}, // 16384 entries
		{"table:" + strings.Repeat("1us,", 16384) + "1us", false},
		{"table:0,1s", true},
		{"table:0,1000000000001ps", false},
		{"table:2us,2us,2us", true},
		{"table:2us,1999999ps", false},
	} {
		_, err := cctValue(c.table)
		name := c.table
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		if (err == nil) != c.ok {
			t.Errorf("cct %q (%d entries): error %v, want accepted %v", name, strings.Count(c.table, ",")+1, err, c.ok)
		}
	}
}
