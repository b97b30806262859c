package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// Two values within a sliver of their mean make a sliver too.
func TestSliverNoteOfTwoValues(t *testing.T) {
	g, s := sliverGrid(100, 100.1, 0, 0)
	s.Slices[0].Cells = [][]int{{0, 1}, {-1, -1}}
	if note := sliverNote(g, s, "victim_gbps"); !strings.Contains(note, "within 100–100.1 Gbit/s") {
		t.Fatalf("note %q", note)
	}
}

// The fairness bars show every contributor of a pick, the first too.
func TestFairnessBarsOfTheFirstFlow(t *testing.T) {
	g := &Grid{Picks: []*Pick{{Label: "best", Flows: []Flow{
		{Name: "F1", Role: "contributor", MeanGbps: 6, Share: 0.6},
		{Name: "F2", Role: "contributor", MeanGbps: 4, Share: 0.4},
	}}}}
	c := fairnessChart(g, 0)
	if c == nil || len(c.Meta.Gbps) != 1 || !slices.Equal(c.Meta.Gbps[0], []float64{6, 4}) {
		t.Fatalf("fairness chart %+v", c)
	}
	if o := string(c.Options[0]); !strings.Contains(o, `"value":60`) {
		t.Fatalf("no bar of F1's 60 %%: %s", o)
	}
}

// With no point done outside CC off there is no best or worst to pick,
// and loading the grid does not fail.
func TestPicksWithOnlyCCOffDone(t *testing.T) {
	g := gridOf(t, `
name = "off-only"
scenario = "testbed-s1"
[sweep]
cc         = ["off", "on"]
ccti_timer = ["50us", "100us"]
`, func(pt grids.Point) bool { v, _ := pt.Value("cc"); return v == "off" },
		func(grids.Point) map[string]float64 { return map[string]float64{"victim_gbps": 2} })
	for _, p := range g.Picks {
		if p.Label == "best" || p.Label == "worst" {
			t.Errorf("picked %q among no point with CC", p.Label)
		}
	}
}

// The testbed's defaults are picked for their time series, also when they
// are the grid's first cell.
func TestDefaultsPickedAtTheFirstCell(t *testing.T) {
	g := gridOf(t, `
name = "defaults-first"
scenario = "testbed-s1"
[sweep]
ccti_timer   = ["150us", "300us"]
marking_rate = [1, 4]
`, nil, func(pt grids.Point) map[string]float64 {
		return map[string]float64{"victim_gbps": num(t, pt, "ccti_timer")/150e6 + num(t, pt, "marking_rate")}
	})
	if ci := g.defaultCell(); ci != 0 {
		t.Fatalf("the defaults are cell %d: the test needs them first", ci)
	}
	picked := false
	for _, p := range g.Picks {
		picked = picked || (p.Cell == 0 && strings.Contains(p.Label, "testbed defaults"))
	}
	if !picked {
		t.Fatalf("picks %v: no testbed defaults", g.Picks)
	}
}

// A surface none of whose points has both its axes (two sub-grids, each
// sweeping one) has no slices; the server's summary of the grid then fixes
// no other axis.
func TestSummaryOfASurfaceWithoutSlices(t *testing.T) {
	g := gridOf(t, `
name = "crossed"
scenario = "testbed-s1"
[[grid]]
[grid.sweep]
marking_rate = [1, 4]
[[grid]]
[grid.sweep]
ccti_timer = ["50us", "100us"]
threshold  = [7, 15]
`, func(grids.Point) bool { return false }, nil)
	if len(g.Surfaces) == 0 || len(g.Surfaces[0].Slices) != 0 || len(g.Surfaces[0].Others) == 0 {
		for _, sf := range g.Surfaces {
			t.Logf("%s x %s: %d slices, others %v", sf.XName, sf.YName, len(sf.Slices), sf.Others)
		}
		t.Fatalf("dims %v: the test needs a first surface without slices and with another axis", g.Dims)
	}
	if sum := summarizeGrid(g); sum.View.X == "" || len(sum.View.At) != 0 {
		t.Fatalf("view %+v", sum.View)
	}
}
