package fabric

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// importedClos is closTopo as a fabric read from ibnetdiscover: no levels,
// with spare ports: spineRoom on every spine, leafRoom on every leaf.
func importedClos(leaves, hostsPerLeaf, spines, leafRoom, spineRoom int) *Topology {
	t := &Topology{Kind: "ibnetdiscover"}
	var leaf, spine []NodeID
	for i := range leaves {
		leaf = append(leaf, t.AddSwitch("L"+string(rune('0'+i)), hostsPerLeaf+spines+leafRoom))
	}
	for j := range spines {
		spine = append(spine, t.AddSwitch("S"+string(rune('0'+j)), leaves+spineRoom))
	}
	for i := range leaves {
		for j := range spines {
			mustLink(t, leaf[i], hostsPerLeaf+j, spine[j], i)
		}
	}
	for i := range leaves {
		for h := range hostsPerLeaf {
			mustLink(t, t.AddHost("H"+string(rune('a'+i))+string(rune('0'+h))), 0, leaf[i], h)
		}
	}
	return t
}

// TestUpdnGivenRoots: on the 648-port Clos as ibnetdiscover prints it, the
// one root spine1, named by its GUID as OpenSM's root GUID file would,
// makes every leaf send all its hosts' routes to the 630 hosts of other
// leaves up its link to spine1: 18 x 630 = 11340 routes on that link, as
// the single central root did before ib-4. A name that is no switch is an
// error naming it, and roots that leave a host switch without a legal
// route are an error naming that switch.
func TestUpdnGivenRoots(t *testing.T) {
	clos := readSample(t, filepath.Join("..", "..", "examples", "fabrics", "clos648.txt"))
	info, err := InspectFabricWith(clos, "updn", 0, 1, RoutingOptions{Roots: []string{"0x0002c90300100065"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(info.Roots, []string{"spine1"}) || info.Balance.SwitchMax != 11340 {
		t.Errorf("roots %v, max routes per switch link %d; want [spine1], 11340", info.Roots, info.Balance.SwitchMax)
	}
	_, err = ComputeRoutesWith(clos, "updn", 0, 1, RoutingOptions{Roots: []string{"node1"}})
	if !errors.Is(err, ErrBadScenario) || !strings.Contains(err.Error(), `root "node1": no switch of the fabric has that name or GUID`) {
		t.Errorf("a host as root: %v", err)
	}
	// A chain L0 - A - L1 - B - L2 with hosts on the Ls: from roots A and B,
	// L2 reaches L0 (the first host's switch, routed first) only up to B,
	// down to L1 and up again.
	top := &Topology{Kind: "ibnetdiscover"}
	var prev NodeID = -1
	for _, name := range []string{"L0", "A", "L1", "B", "L2"} {
		s := top.AddSwitch(name, 3)
		if prev >= 0 {
			mustLink(top, prev, 1, s, 0)
		}
		if name[0] == 'L' {
			mustLink(top, top.AddHost("H"+name), 0, s, 2)
		}
		prev = s
	}
	_, err = ComputeRoutesWith(top, "updn", 0, 1, RoutingOptions{Roots: []string{"A", "B"}})
	if err == nil || !strings.Contains(err.Error(), "the roots given leave switch L2 without a legal up*/down* route") {
		t.Errorf("roots A and B on the chain: %v", err)
	}
}

// TestFtreeOnImports: ftree ranks an imported Clos (4 leaves of 2 hosts, 2
// spines) from its adapters: the spines are the roots, and d-mod-k sends
// the even hosts' LIDs over S0 and the odd ones' over S1, so each directed
// leaf-spine link carries 3 destinations from 2 sources up (6 routes) and
// each spine-leaf link 1 destination from 6 sources down (6): 6 on every
// switch link. Where a storage host hangs off spine S0, ranking from all
// hosts makes S0 a leaf and the link L0-S0 joins two leaves: an error
// naming it. Told the compute nodes (OpenSM's -u) or the roots (-a),
// ftree ranks around the storage host.
func TestFtreeOnImports(t *testing.T) {
	plain := importedClos(4, 2, 2, 0, 1)
	info, err := InspectFabric(plain, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if b := info.Balance; !slices.Equal(info.Roots, []string{"S0", "S1"}) || b.SwitchMax != 6 || b.SwitchMean != 6 || info.Deadlock != "" {
		t.Errorf("roots %v, switch max %d mean %g, deadlock %q; want [S0 S1], 6, 6, none", info.Roots, b.SwitchMax, b.SwitchMean, info.Deadlock)
	}

	// A SHARP aggregation node on spine S0 is outside the tree: not a
	// third level, not a root.
	agg := importedClos(4, 2, 2, 0, 1)
	a := agg.AddSwitch("agg", 1)
	agg.Nodes[a].Adapter = true
	mustLink(agg, a, 0, agg.Lookup("S0"), 4)
	if info, err := InspectFabric(agg, "ftree", 0, 1); err != nil || !slices.Equal(info.Roots, []string{"S0", "S1"}) || info.Balance.SwitchMax != 6 {
		t.Errorf("with an aggregation node on S0: %v, %+v; want roots [S0 S1], 6 routes a switch link", err, info)
	}

	storage := importedClos(4, 2, 2, 0, 1)
	mustLink(storage, storage.AddHost("storage"), 0, storage.Lookup("S0"), 4)
	_, err = ComputeRoutes(storage, "ftree", 0, 1)
	if err == nil || !strings.Contains(err.Error(), "the link from L0 port 3 to S0 joins levels 1 and 1") {
		t.Errorf("a host on a spine: %v, want the link L0-S0 named", err)
	}
	var compute []string
	for _, h := range storage.Hosts() {
		if storage.Nodes[h].Name != "storage" {
			compute = append(compute, storage.Nodes[h].Name)
		}
	}
	for name, opts := range map[string]RoutingOptions{
		"compute nodes": {ComputeNodes: compute},
		"roots":         {Roots: []string{"S0", "S1"}},
	} {
		info, err := InspectFabricWith(storage, "ftree", 0, 1, opts)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !slices.Equal(info.Roots, []string{"S0", "S1"}) || info.Deadlock != "" {
			t.Errorf("%s: roots %v, deadlock %q; want [S0 S1], none", name, info.Roots, info.Deadlock)
		}
	}
	// Roots that make a leaf out of line: S0 alone as root puts L0..L3 at
	// 1 hop and S1 at 2, below the leaves.
	_, err = ComputeRoutesWith(plain, "ftree", 0, 1, RoutingOptions{Roots: []string{"S0"}})
	if err == nil || !strings.Contains(err.Error(), "not a fat tree: switch S1 is 2 hops from the roots, below the leaves (1 hops)") {
		t.Errorf("root S0 alone: %v", err)
	}
}

// TestFtreeSharpAggregationNodes: on sharp.txt's two HDR leaves joined
// directly, aggregation nodes and the router are outside the tree, so the
// leaf-leaf link is what breaks it, named.
func TestFtreeSharpAggregationNodes(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "ibnetdiscover", "sharp.txt"))
	if err != nil {
		t.Fatal(err)
	}
	top, err := ParseIBNetDiscover("sharp.txt", text)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ComputeRoutes(top, "ftree", 0, 1)
	if err == nil || !strings.Contains(err.Error(), "joins levels 1 and 1") || !strings.Contains(err.Error(), "leaf0") {
		t.Errorf("ftree on sharp.txt: %v, want the leaf-leaf link named", err)
	}
}
