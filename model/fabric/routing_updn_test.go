package fabric

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// updnRootNames routes t up*/down* and returns the names of its roots.
func updnRootNames(t *testing.T, top *Topology) []string {
	t.Helper()
	f := NewFabric(top)
	_, _, roots := f.upDownRoutes(0)
	var names []string
	for _, s := range roots {
		names = append(names, top.Nodes[f.sws[s]].Name)
	}
	return names
}

// TestUpdnRootsFromAdapters checks updn's roots on fabrics without Levels:
// the switches farthest from the hosts' switches, the spines of a Clos as
// ibnetdiscover prints it, and, on the 648-port Clos read that way, the
// all-to-all balance of a spine root set: 18 hosts of a leaf send to 630
// others over 18 uplinks, 630 routes on every switch link (one central
// root would put all 11340 of a leaf's on its one link to that spine).
func TestUpdnRootsFromAdapters(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "..", "examples", "fabrics", "clos648.txt"))
	if err != nil {
		t.Fatal(err)
	}
	clos, err := ParseIBNetDiscover("clos648.txt", text)
	if err != nil {
		t.Fatal(err)
	}
	var spines []string
	for i := range 18 {
		spines = append(spines, "spine"+strconv.Itoa(i+1))
	}
	if got := updnRootNames(t, clos); !slices.Equal(got, spines) {
		t.Errorf("clos648 roots %v, want the 18 spines", got)
	}
	info, err := InspectFabric(clos, "updn", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b := info.Balance; b.SwitchMax != 630 || b.SwitchMean != 630 || info.Deadlock != "" {
		t.Errorf("clos648 updn: switch links max %d mean %g, deadlock %q; want 630, 630, none", b.SwitchMax, b.SwitchMean, info.Deadlock)
	}

	cluster, err := os.ReadFile(filepath.Join("testdata", "ibnetdiscover", "fattree.txt"))
	if err != nil {
		t.Fatal(err)
	}
	top, err := ParseIBNetDiscover("fattree.txt", cluster)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFabric(top)
	_, _, roots := f.upDownRoutes(0)
	if len(roots) != 2 {
		t.Fatalf("fattree.txt: roots %v, want its 2 spines", updnRootNames(t, top))
	}
	for _, s := range roots {
		first, end := f.ports(s)
		for gp := first; gp < end; gp++ {
			if f.peer[gp] >= 0 && f.next(gp) < 0 {
				t.Errorf("root %s has a host", top.Nodes[f.sws[s]].Name)
			}
		}
	}
}

// TestUpdnRootFallsBackToCentral: where every switch has a host there is
// no tier above the hosts, and where the farthest switches leave a pair
// without a legal route (L0-A-L1-B-L2 with hosts on the Ls: from A and B
// as roots, L0 to L2 must go down at L1 and up to B), the root is the
// central switch, L1 in both.
func TestUpdnRootFallsBackToCentral(t *testing.T) {
	chain := func(hosted []bool) *Topology {
		top := &Topology{Kind: "ibnetdiscover"}
		names := []string{"L0", "A", "L1", "B", "L2"}
		var prev NodeID = -1
		for i, hasHost := range hosted {
			s := top.AddSwitch(names[i], 3)
			if prev >= 0 {
				if err := top.Connect(prev, s, 10); err != nil {
					t.Fatal(err)
				}
			}
			if hasHost {
				if err := top.Connect(top.AddHost("H"+names[i]), s, 10); err != nil {
					t.Fatal(err)
				}
			}
			prev = s
		}
		return top
	}
	for _, c := range []struct {
		name   string
		hosted []bool
	}{
		{"every switch hosts", []bool{true, true, true, true, true}},
		{"farthest roots leave no route", []bool{true, false, true, false, true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := updnRootNames(t, chain(c.hosted)); !slices.Equal(got, []string{"L1"}) {
				t.Errorf("roots %v, want [L1]", got)
			}
		})
	}
}

// TestUpdnRootsSurviveAFailedCable: a Clos of 8 leaves and 4 spines read
// without levels, with the cable from leaf L1 to spine S1 gone. S1 has no
// up*/down* route to L1 (S1 -> L2 -> S2 -> L1 goes down, then up), but no
// route needs one: every leaf reaches L1 over S2, S3 or S4. The roots stay
// the four spines (not one central switch), and every spine uplink of L1
// carries its share: L1 sends each of the 28 other hosts' LIDs up one of
// its 3 uplinks, the routes of all 4 of its hosts, so at most
// ceil(28/3) * 4 = 40 routes an uplink where spread evenly; one central
// root would put all 112 on one.
func TestUpdnRootsSurviveAFailedCable(t *testing.T) {
	top, err := GenerateTopology("clos", TopoParams{Leaves: 8, Spines: 4, HostsPerLeaf: 4, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	l1, s1 := top.Lookup("L1"), top.Lookup("S1")
	i := slices.IndexFunc(top.Links, func(l Link) bool { return l.A == l1 && l.B == s1 || l.A == s1 && l.B == l1 })
	top.Links = slices.Delete(top.Links, i, i+1)
	for n := range top.Nodes {
		top.Nodes[n].Level = 0
	}
	top.Kind = "ibnetdiscover"
	if got := updnRootNames(t, top); !slices.Equal(got, []string{"S1", "S2", "S3", "S4"}) {
		t.Errorf("roots %v, want the 4 spines", got)
	}
	info, err := InspectFabric(top, "updn", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if info.Deadlock != "" {
		t.Error(info.Deadlock)
	}
	f := info.f
	first, end := f.ports(f.sw[l1])
	for gp := first; gp < end; gp++ {
		if f.next(gp) >= 0 {
			if n := info.Balance.perPort[gp]; n > 40 {
				t.Errorf("L1 port %d: %d routes, want at most 40", gp-first+1, n)
			}
		}
	}
}

// TestUpdnRootsAreNoDeadEnds: sharp.txt has two leaves with hosts, linked
// to each other, a SHARP aggregation node on port 41 of each and a router
// hanging off one. Aggregation nodes and the router are the switch-like
// nodes farthest from the hosts' switches, but dead ends: no root. Without
// a tier above the leaves the root is the central switch, a leaf.
func TestUpdnRootsAreNoDeadEnds(t *testing.T) {
	top := readSample(t, filepath.Join("testdata", "ibnetdiscover", "sharp.txt"))
	roots := updnRootNames(t, top)
	if len(roots) != 1 || !strings.HasPrefix(roots[0], "leaf") {
		t.Errorf("roots %v, want one leaf", roots)
	}
}
