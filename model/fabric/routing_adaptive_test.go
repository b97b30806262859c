package fabric

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAdaptiveGroupsOfATree: on a 4-ary 3-tree under ftree, every leaf's
// group towards another leaf is its two up ports (ports 5, 6... of a
// 2k-port switch: k = 4 hosts, then k up), a level-2 switch has a group
// (its up ports 5-8) only towards the leaves outside its own subtree, and
// the top level none (one way down). Counted: 16 leaves × 15 other leaves,
// and 16 level-2 switches × 12 leaves outside their subtree of 4.
func TestAdaptiveGroupsOfATree(t *testing.T) {
	topo, err := GenerateTopology("fattree", TopoParams{K: 4, Levels: 3, HostGbps: 16, SwitchGbps: 16})
	if err != nil {
		t.Fatal(err)
	}
	s, err := ARGroupsString(topo, "ftree", 0, RoutingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	leaf, mid := 0, 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "S1_") && strings.HasSuffix(l, ": 5,6,7,8"):
			leaf++
		case strings.HasPrefix(l, "S2_") && strings.HasSuffix(l, ": 5,6,7,8"):
			mid++
		default:
			t.Errorf("unexpected group %q", l)
		}
	}
	if leaf != 16*15 || mid != 16*12 {
		t.Errorf("%d leaf groups, %d level-2 groups; want 240, 192", leaf, mid)
	}
}

// TestAdaptiveCycleFallsBackToTables: on a ring of 4 routers routed updn,
// the equal-cost ports towards the opposite router go both ways round, so
// giving every packet both (a group of all equal-cost ports) closes the
// ring into a channel cycle, which the check finds; the groups a run uses
// are then only the ports the tables use, a subset, without a cycle, and
// the run is built.
func TestAdaptiveCycleFallsBackToTables(t *testing.T) {
	topo, err := GenerateTopology("torus", TopoParams{Dims: []int{4}, HostsPerRouter: 2, HostGbps: 16, SwitchGbps: 16})
	if err != nil {
		t.Fatal(err)
	}
	r, err := ComputeRoutes(topo, "updn", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFabric(topo)
	full := buildGroups(f, r, false)
	var ce *cycleError
	if err := f.checkAdaptive(r, full); !errors.As(err, &ce) {
		t.Fatalf("every equal-cost port on a ring: %v, want a channel cycle", err)
	}
	ar, err := AdaptiveGroups(f, r, "updn", false)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.checkAdaptive(r, ar); err != nil {
		t.Fatalf("the groups used: %v", err)
	}
	for i, gi := range ar.Group {
		if gi < 0 {
			continue
		}
		if full.Group[i] < 0 {
			t.Fatalf("group %d not among the equal-cost ports", i)
		}
		for _, p := range ar.Ports[gi] {
			if !slices.Contains(full.Ports[full.Group[i]], p) {
				t.Fatalf("group %d: port %d not equal-cost", i, p+1)
			}
		}
	}
}

// TestMutAdaptiveTablesOnlyGroups: where every equal-cost port would be
// too many, a group keeps the equal-cost ports the switch's own table
// sends some LID of the destination switch's hosts to (routing_adaptive.go's
// doc), and a table entry without a route adds none. A 2-leaf, 2-spine Clos
// with lmc 1 and hand-made tables: L0 sends H1's two LIDs up by S0 and S1,
// so L0 -> L1 is the group {2, 3} (ports counting from 1); L1 sends both
// of H0's LIDs by S0 (one port: no group, though both up ports are
// equal-cost), the spines have one port down, so no other group.
func TestMutAdaptiveTablesOnlyGroups(t *testing.T) {
	top := closTopo(2, 1, 2) // L0, L1: port 0 host, 1 to S0, 2 to S1; S0, S1: port 0 L0, 1 L1
	f := NewFabric(top)
	r := f.newRoutes(1)
	const l0, l1, s0, s1 = 0, 1, 2, 3
	// LIDs 0, 1: H0 (on L0); 2, 3: H1 (on L1).
	r.LFT[l0] = []int32{0, 0, 1, 2}
	r.LFT[l1] = []int32{1, 1, 0, NoRoute}
	r.LFT[s0] = []int32{0, 0, 1, 1}
	r.LFT[s1] = []int32{0, 0, 1, 1}
	for _, tablesOnly := range []bool{true, false} {
		ar := buildGroups(f, r, tablesOnly)
		want := map[[2]int][]uint8{{l0, l1}: {1, 2}}
		if !tablesOnly {
			want[[2]int{l1, l0}] = []uint8{1, 2} // every equal-cost port
		}
		for s := range 4 {
			for d := range 4 {
				gi := ar.Group[s*4+d]
				w, ok := want[[2]int{s, d}]
				switch {
				case !ok && gi >= 0:
					t.Errorf("tablesOnly %v: group %d -> %d %v, want none", tablesOnly, s, d, ar.Ports[gi])
				case ok && gi < 0:
					t.Errorf("tablesOnly %v: no group %d -> %d, want %v", tablesOnly, s, d, w)
				case ok && !slices.Equal(ar.Ports[gi], w):
					t.Errorf("tablesOnly %v: group %d -> %d %v, want %v", tablesOnly, s, d, ar.Ports[gi], w)
				}
			}
		}
	}
}

// TestMutAdaptiveCycleNamesItsPorts: a channel cycle the adaptive choices
// close is named as the routing check names one, switch ports counting
// from 1: clockwise tables on a ring of 4 (the groups from the tables are
// none: one port per destination switch).
func TestMutAdaptiveCycleNamesItsPorts(t *testing.T) {
	top := ringTopo(4)
	f := NewFabric(top)
	r := clockwiseRoutes(f)
	const want = "deadlock possible: channel cycle on VL 0: S0 port 2 -> S1 port 2 -> S2 port 2 -> S3 port 2 -> S0 port 2"
	if err := f.checkAdaptive(r, buildGroups(f, r, true)); err == nil || err.Error() != want {
		t.Errorf("err %v, want %s", err, want)
	}
}
