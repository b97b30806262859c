package fabric

import (
	"slices"
	"testing"
)

// TestMutUpdnRootsAreTheTopLevelEvenWhenNotFarthest checks updn's roots on a
// levelled fabric: every switch has a Level, so the roots are the switches
// of the highest Level, even where that level is not the farthest from the
// hosts. Leaves A and B (Level 1, a host each) are linked to C (Level 2) and
// to D (Level 3): C and D are both one hop from the hosts, so the farthest
// switches would be C and D, but D alone is the top. D as the one root is
// legal (A up to D, down to B), so it stays. The roots of every other level
// (A, B and C) leave A without a legal route to B (each path goes down to C
// or D, then up), which would also end in C and D.
func TestMutUpdnRootsAreTheTopLevelEvenWhenNotFarthest(t *testing.T) {
	top := &Topology{Kind: "clos"}
	sw := addLeveled(top, 4, leveled{"A", 1}, leveled{"B", 1}, leveled{"C", 2}, leveled{"D", 3})
	for _, l := range [][2]NodeID{
		{top.AddHost("HA"), sw["A"]}, {top.AddHost("HB"), sw["B"]},
		{sw["A"], sw["C"]}, {sw["B"], sw["C"]}, {sw["A"], sw["D"]}, {sw["B"], sw["D"]},
	} {
		if err := top.Connect(l[0], l[1], 10); err != nil {
			t.Fatal(err)
		}
	}
	if got := NewFabric(top).farthestSwitches(); len(got) != 2 {
		t.Fatalf("%d switches farthest from the hosts, want C and D", len(got))
	}
	if got := updnRootNames(t, top); !slices.Equal(got, []string{"D"}) {
		t.Errorf("roots %v, want [D], the top Level", got)
	}
}
