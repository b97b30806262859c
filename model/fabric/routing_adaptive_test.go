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
