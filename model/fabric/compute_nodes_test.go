package fabric

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestComputeNodesMarkTheLeaves: ftree ranks the switches as OpenSM's
// ftree does, from every host's switch, so compute nodes only mark the
// leaves: on a k-ary n-tree any set of them routes every host, by the same
// tables as none (OpenSM 3.3.23 programs the same tables with and without
// -u for the first two leaves' hosts; TestOpenSMOracle compares).
func TestComputeNodesMarkTheLeaves(t *testing.T) {
	top, err := GenerateTopology("fattree", TopoParams{K: 4, Levels: 3, HostGbps: 10, SwitchGbps: 10})
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, h := range top.Hosts() {
		all = append(all, top.Nodes[h].Name)
	}
	want, err := ComputeRoutes(top, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, compute := range [][]string{{"H1"}, all[:8], all[20:], all} {
		r, err := ComputeRoutesWith(top, "ftree", 0, 1, RoutingOptions{ComputeNodes: compute})
		if err != nil {
			t.Errorf("%d compute nodes: %v", len(compute), err)
			continue
		}
		for s := range want.LFT {
			if !slices.Equal(r.LFT[s], want.LFT[s]) {
				t.Errorf("%d compute nodes: switch %s's table %v, without compute nodes %v", len(compute), top.Nodes[NewFabric(top).sws[s]].Name, r.LFT[s], want.LFT[s])
				break
			}
		}
	}
}

// TestUnreachableNamesHostsThatAreNotComputeNodes: where OpenSM's ranking
// fails (a storage host on a spine ranks that spine with the leaves, so the
// compute nodes' leaves are not the farthest from the roots), ftree ranks
// from the compute nodes' switches, and compute nodes that leave out hosts
// may leave those hosts without routes (as OpenSM's fat-tree routing, which
// does not guarantee routes between non-compute nodes). The refusal then
// says which of the two hosts are not compute nodes and what to do; with
// every host but the storage host a compute node the same fabric routes.
func TestUnreachableNamesHostsThatAreNotComputeNodes(t *testing.T) {
	top := importedClos(4, 2, 2, 0, 1)
	mustLink(top, top.AddHost("storage"), 0, top.Lookup("S0"), 4)
	var all []string
	for _, h := range top.Hosts() {
		if n := top.Nodes[h].Name; n != "storage" {
			all = append(all, n)
		}
	}
	if _, err := ComputeRoutesWith(top, "ftree", 0, 1, RoutingOptions{ComputeNodes: all}); err != nil {
		t.Fatalf("every host but storage a compute node: %v", err)
	}
	hint := regexp.MustCompile(`host (\S+) does not reach host (\S+) at LID \d+: .* \((?:(\S+) is not a compute node|(\S+) and (\S+) are not compute nodes): ftree places the leaves by the compute nodes' switches.*name every host that sends or receives in compute_nodes\)$`)
	for _, compute := range [][]string{{"Ha0"}, all[:2], all[4:]} {
		_, err := ComputeRoutesWith(top, "ftree", 0, 1, RoutingOptions{ComputeNodes: compute})
		if err == nil {
			t.Fatalf("compute nodes %v: routed; want a host without a route", compute)
		}
		m := hint.FindStringSubmatch(err.Error())
		if m == nil {
			t.Fatalf("compute nodes %v: %v; want the hosts that are not compute nodes named", compute, err)
		}
		var named []string
		for _, s := range m[3:] {
			if s != "" {
				named = append(named, s)
			}
		}
		for _, h := range named {
			if slices.Contains(compute, h) {
				t.Errorf("compute nodes %v: %v names %s, a compute node, as not one", compute, err, h)
			}
		}
		for _, h := range m[1:3] {
			if !slices.Contains(compute, h) && !slices.Contains(named, h) {
				t.Errorf("compute nodes %v: %v leaves %s, not a compute node, unnamed", compute, err, h)
			}
		}
	}
}

// The hint names the hosts of the pair that are not compute nodes, one or
// two, and is absent where both are or where no compute nodes were given.
func TestUnreachableHintNamesOnlyNonComputeHosts(t *testing.T) {
	top, err := GenerateTopology("fattree", TopoParams{K: 2, Levels: 2, HostGbps: 10, SwitchGbps: 10})
	if err != nil {
		t.Fatal(err)
	}
	f := NewFabric(top)
	name := func(h int) string { return top.Nodes[f.hosts[h]].Name }
	const tail = ": ftree places the leaves by the compute nodes' switches, and routes to or from other hosts are not guaranteed; name every host that sends or receives in compute_nodes)"
	base := func(h, g int) string {
		return "host " + name(h) + " does not reach host " + name(g) + " at LID 7: switch X has no route"
	}
	f.compute = []bool{true, false, false, true}
	for _, c := range []struct {
		h, g int
		want string
	}{
		{0, 3, base(0, 3)},
		{0, 1, base(0, 1) + " (" + name(1) + " is not a compute node" + tail},
		{2, 3, base(2, 3) + " (" + name(2) + " is not a compute node" + tail},
		{1, 2, base(1, 2) + " (" + name(1) + " and " + name(2) + " are not compute nodes" + tail},
	} {
		if got := f.unreachable(c.h, c.g, 7, "switch X has no route").Error(); got != c.want {
			t.Errorf("hosts %d, %d with compute %v:\n got %s\nwant %s", c.h, c.g, f.compute, got, c.want)
		}
	}
	f.compute = nil
	if got, want := f.unreachable(1, 2, 7, "switch X has no route").Error(), base(1, 2); got != want {
		t.Errorf("no compute nodes: %s, want %s", got, want)
	}
}

// TestComputeNodesFallBackWhereOpenSMsRankingIsNoTree: two switches linked,
// a host on each. Ranked from every host's switch, as OpenSM ranks, both
// are leaves joined by a link, no fat tree; so with Ha alone a compute
// node, ftree ranks from Ha's switch (B above A) and routes, where without
// compute nodes it refuses, naming the link.
func TestComputeNodesFallBackWhereOpenSMsRankingIsNoTree(t *testing.T) {
	top := &Topology{Kind: "ibnetdiscover"}
	a, b := top.AddSwitch("A", 4), top.AddSwitch("B", 4)
	mustLink(top, a, 2, b, 2)
	mustLink(top, top.AddHost("Ha"), 0, a, 0)
	mustLink(top, top.AddHost("Hb"), 0, b, 0)
	info, err := InspectFabricWith(top, "ftree", 0, 1, RoutingOptions{ComputeNodes: []string{"Ha"}})
	if err != nil {
		t.Fatalf("compute node Ha: %v", err)
	}
	if !slices.Equal(info.Roots, []string{"B"}) {
		t.Errorf("compute node Ha: roots %v, want [B]", info.Roots)
	}
	_, err = ComputeRoutes(top, "ftree", 0, 1)
	if err == nil || !strings.Contains(err.Error(), "the link from A port 3 to B joins levels 1 and 1") {
		t.Errorf("no compute nodes: %v, want the link A-B named", err)
	}
}

// TestComputeNodesWithAnAggregationNodeOnASpine: an aggregation node is a
// dead end outside the tree (level 0), so its link to a spine does not
// make the levels non-adjacent: with the first leaf's hosts as compute
// nodes, ftree still ranks the Clos as OpenSM does (spines over every
// leaf) and routes it as without compute nodes, rather than falling back
// to ranking from the compute nodes' leaf (which puts the other leaves
// above the spines). Kills routing_ftree.go's adjacentLevels taking
// `level[s] >= 0` for `level[s] > 0`, which judged the aggregation node's
// link.
func TestComputeNodesWithAnAggregationNodeOnASpine(t *testing.T) {
	top := importedClos(4, 2, 2, 0, 1)
	an := top.AddSwitch("AN", 1)
	top.Nodes[an].Adapter = true
	mustLink(top, an, 0, top.Lookup("S0"), 4)
	want, err := ComputeRoutes(top, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ComputeRoutesWith(top, "ftree", 0, 1, RoutingOptions{ComputeNodes: []string{"Ha0", "Ha1"}})
	if err != nil {
		t.Fatalf("compute nodes Ha0, Ha1: %v", err)
	}
	for s := range want.LFT {
		if !slices.Equal(got.LFT[s], want.LFT[s]) {
			t.Errorf("switch %d: %v with compute nodes, %v without", s, got.LFT[s], want.LFT[s])
		}
	}
}
