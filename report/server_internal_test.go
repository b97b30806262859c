package report

import (
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// The server's summary marks the dimensions some points leave unset.
func TestSummaryMarksUnsetDimensions(t *testing.T) {
	g := gridOf(t, `
name = "unset"
scenario = "testbed-s1"
[[grid]]
cc = "off"
[[grid]]
cc = "on"
[grid.sweep]
ccti_timer = ["50us", "100us"]
`, func(grids.Point) bool { return false }, nil)
	unset := map[string]bool{}
	for _, d := range summarizeGrid(g).Dims {
		unset[d.Name] = d.Unset
	}
	if len(unset) != 2 || unset["cc"] || !unset["ccti_timer"] {
		t.Fatalf("unset %v, want ccti_timer alone (the CC-off sub-grid leaves it)", unset)
	}
}
