package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRouteRefusesADisconnectedTopology builds two islands, each a switch
// with two hosts, and wants NewNetwork to name a pair that cannot reach each
// other rather than leave a hole in a forwarding table.
func TestRouteRefusesADisconnectedTopology(t *testing.T) {
	sc := &Scenario{Name: "islands", Phases: 1,
		Build: func(c *Config) *Topology {
			t := &Topology{}
			for _, island := range []string{"A", "B"} {
				sw := t.AddSwitch("S"+island, 4)
				for i := 1; i <= 2; i++ {
					if err := t.Connect(t.AddHost(island+string(rune('0'+i))), sw, c.HostLinkGbps); err != nil {
						panic(err)
					}
				}
			}
			return t
		},
		Flows: []FlowSpec{{Name: "F1", Src: "A1", Dst: "A2", Role: Contributor}},
	}
	_, err := NewNetwork(sc, DefaultConfig(), 1)
	if !errors.Is(err, ErrBadScenario) || !strings.Contains(err.Error(), "cannot reach host") {
		t.Fatalf("err %v, want ErrBadScenario naming hosts that cannot reach each other", err)
	}
}

// TestRoutesLeadToTheirHosts: every forwarding-table entry of the testbed is
// a connected port of its switch leading one hop closer to the destination,
// to the host itself where the host hangs off the switch, else to the other
// switch.
func TestRoutesLeadToTheirHosts(t *testing.T) {
	for _, name := range []string{"testbed-s1", "testbed-s2"} {
		t.Run(name, func(t *testing.T) {
			n, err := NewNetwork(LookupScenario(name), DefaultConfig(), 1)
			if err != nil {
				t.Fatal(err)
			}
			for s := range n.sws {
				sw := &n.sws[s]
				node := n.ports[sw.firstPort].node
				for h := range n.hcas {
					out := sw.lft[h]
					if out < sw.firstPort || out >= sw.firstPort+sw.nPorts {
						t.Fatalf("switch %d, HCA %d: output %d is not one of its ports", s, h, out)
					}
					peer := n.ports[out].peer
					if peer < 0 {
						t.Fatalf("switch %d, HCA %d: output %d is unconnected", s, h, out)
					}
					hostHere := n.ports[n.ports[n.hcas[h].port].peer].node == node
					if got := n.ports[peer].node; hostHere && got != n.hcas[h].node || !hostHere && n.ports[peer].host {
						t.Errorf("switch %d, HCA %d: output %d leads to node %d", s, h, out, got)
					}
				}
			}
		})
	}
}

// TestTestbedRoutesAsBefore: the testbed has one path per pair, so minhop
// and updn program exactly the tables the first min-hop routing did, with
// SL 0 everywhere.
func TestTestbedRoutesAsBefore(t *testing.T) {
	want := [][]int32{{0, 1, 2, 3, 3, 3, 3}, {4, 4, 4, 0, 1, 2, 3}}
	for _, alg := range []string{"minhop", "updn"} {
		r, err := ComputeRoutes(testbed(&Config{HostLinkGbps: 16, SwitchLinkGbps: 32}), alg, 0, 1)
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		if !slices.EqualFunc(r.LFT, want, slices.Equal) || r.sl != nil {
			t.Errorf("%s: LFT %v, sl %v; want %v, no SLs", alg, r.LFT, r.sl, want)
		}
	}
}

// routingCase is a topology and the routings it supports.
type routingCase struct {
	name  string
	build func() *Topology
	algs  []string
	lmcs  []int
	vls   int // enough for every LMC of the case
}

func routingCases() []routingCase {
	trees := []string{"minhop", "updn", "ftree"}
	grids := []string{"updn", "dor"}
	cases := []routingCase{
		{"2-ary 2-tree", func() *Topology { return kAryNTree(2, 2) }, trees, []int{0, 1, 2}, 1},
		{"2-ary 3-tree", func() *Topology { return kAryNTree(2, 3) }, trees, []int{0, 1, 2}, 1},
		{"3-ary 3-tree", func() *Topology { return kAryNTree(3, 3) }, trees, []int{0, 1}, 1},
		{"4-ary 2-tree", func() *Topology { return kAryNTree(4, 2) }, trees, []int{0, 2}, 1},
		{"4-ary 3-tree", func() *Topology { return kAryNTree(4, 3) }, trees, []int{0, 1}, 1},
		{"clos 6x3+3", func() *Topology { return closTopo(6, 3, 3) }, trees, []int{0, 1}, 1},
		{"clos 8x4+4", func() *Topology { return closTopo(8, 4, 4) }, trees, []int{0, 2}, 1},
		{"mesh 6", func() *Topology { return gridTopo([]int{6}, false, 1) }, grids, []int{0, 1}, 1},
		{"mesh 4x4", func() *Topology { return gridTopo([]int{4, 4}, false, 1) }, grids, []int{0, 1}, 2},
		{"mesh 3x5 2 hosts", func() *Topology { return gridTopo([]int{3, 5}, false, 2) }, grids, []int{0, 1}, 2},
		{"mesh 3x3x3", func() *Topology { return gridTopo([]int{3, 3, 3}, false, 1) }, grids, []int{0, 2}, 3},
		{"torus 8", func() *Topology { return gridTopo([]int{8}, true, 1) }, grids, []int{0, 1}, 2},
		{"torus 3x3", func() *Topology { return gridTopo([]int{3, 3}, true, 1) }, grids, []int{0, 1}, 2},
		{"torus 4x4", func() *Topology { return gridTopo([]int{4, 4}, true, 1) }, grids, []int{0, 1}, 8},
		{"torus 5x6 2 hosts", func() *Topology { return gridTopo([]int{5, 6}, true, 2) }, grids, []int{0, 1}, 8},
		{"torus 2x4", func() *Topology { return gridTopo([]int{2, 4}, true, 1) }, grids, []int{0, 1}, 4},
		{"torus 4x4x4", func() *Topology { return gridTopo([]int{4, 4, 4}, true, 1) }, grids, []int{0}, 8},
		{"torus 4x3x5", func() *Topology { return gridTopo([]int{4, 3, 5}, true, 1) }, grids, []int{0}, 4},
	}
	for _, size := range []struct{ sw, deg, extra, hosts, room int }{
		{5, 3, 2, 8, 3}, {12, 4, 8, 20, 3}, {30, 6, 40, 40, 2},
	} {
		for seed := uint64(1); seed <= 4; seed++ {
			cases = append(cases, routingCase{
				fmt.Sprintf("random %d switches seed %d", size.sw, seed),
				func() *Topology { return randomTopo(seed, size.sw, size.deg, size.extra, size.hosts, size.room) },
				[]string{"updn"}, []int{0, 1}, 1,
			})
		}
	}
	return cases
}

// TestRoutingProperties routes every case with every algorithm it supports
// and checks, by tracing every path rather than trusting check: every host
// reaches every LID of every other host; no VL's channel dependencies form
// a cycle; minhop, ftree and dor take shortest paths; updn paths are legal
// up*/down* paths (never down then up) in the order it routed by, shortest
// on trees and on other topologies no longer than up to its root and down;
// dor corrects dimensions in the order of the path's rotation; a host's
// LIDs take distinct paths when its leaf has at least 2^LMC equal uplinks.
func TestRoutingProperties(t *testing.T) {
	for _, c := range routingCases() {
		for _, alg := range c.algs {
			for _, lmc := range c.lmcs {
				t.Run(fmt.Sprintf("%s/%s/lmc=%d", c.name, alg, lmc), func(t *testing.T) {
					top := c.build()
					r, err := ComputeRoutes(top, alg, lmc, c.vls)
					if err != nil {
						t.Fatal(err)
					}
					f := newFabric(top)
					checkPaths(t, f, r, alg, c.vls)
					for v, deps := range dependencies(t, f, r, c.vls) {
						if !acyclic(deps) {
							t.Fatalf("VL %d: channel dependencies have a cycle", v)
						}
					}
				})
			}
		}
	}
}

// checkPaths checks the path rules of alg for every source and LID of r.
func checkPaths(t *testing.T, f *fabric, r *Routes, alg string, vls int) {
	top := f.t
	if want := len(f.hosts) << r.LMC; len(r.LFT) != len(f.sws) || len(r.LFT[0]) != want {
		t.Fatalf("LFT is %d x %d, want %d x %d", len(r.LFT), len(r.LFT[0]), len(f.sws), want)
	}
	var pos []int32
	var rootHops []int
	if alg == "updn" {
		again, p := f.upDownRoutes(r.LMC)
		if !slices.EqualFunc(again.LFT, r.LFT, slices.Equal) {
			t.Fatal("upDownRoutes does not give ComputeRoutes' tables")
		}
		pos = p
		if f.topSwitches() == nil {
			root := slices.Index(pos, 0)
			rootHops = linkHops(top, f.sws[root])
		}
	}
	tree := top.Kind == "fattree" || top.Kind == "clos"
	for g, dst := range f.hosts {
		hops := linkHops(top, dst)
		for p := range 1 << r.LMC {
			lid := r.LID(g, p)
			for src := range f.hosts {
				if src == g {
					continue
				}
				path := trace(t, f, r, src, lid)
				shortest := hops[f.hosts[src]]
				switch {
				case alg != "updn" || tree:
					if len(path) != shortest {
						t.Fatalf("%s to LID %d: %d links, shortest %d", top.Nodes[f.hosts[src]].Name, lid, len(path), shortest)
					}
				default:
					// Up to the root and down: the two host links
					// and the switches' distances to the root.
					bound := 2 + rootHops[f.owner[f.peer[path[0]]]] + rootHops[f.owner[path[len(path)-1]]]
					if len(path) < shortest || len(path) > bound {
						t.Fatalf("%s to LID %d: %d links, shortest %d, up to the root and down %d",
							top.Nodes[f.hosts[src]].Name, lid, len(path), shortest, bound)
					}
				}
				if alg == "updn" {
					wentDown := false
					for _, gp := range path[1 : len(path)-1] {
						a, b := f.sw[f.owner[gp]], f.next(gp)
						if pos[b] < pos[a] && wentDown {
							t.Fatalf("%s to LID %d goes down and then up at %s", top.Nodes[f.hosts[src]].Name, lid, top.Nodes[f.owner[gp]].Name)
						}
						wentDown = wentDown || pos[b] > pos[a]
					}
				}
				if alg == "dor" {
					checkDimensionOrder(t, f, r, path, src, lid, vls)
				}
			}
		}
	}
}

// checkDimensionOrder checks that path corrects dimensions in the order of
// its LID's rotation and travels on an SL below vls.
func checkDimensionOrder(t *testing.T, f *fabric, r *Routes, path []int32, src, lid, vls int) {
	top := f.t
	var active []int
	for i, n := range top.Dims {
		if n > 1 {
			active = append(active, i)
		}
	}
	q := lid & (1<<r.LMC - 1) % max(min(1<<r.LMC, len(active)), 1)
	rank := make([]int, len(top.Dims)) // place of each dimension in the rotated order
	for k := range active {
		rank[active[(k+q)%len(active)]] = k
	}
	last := -1
	for _, gp := range path[1 : len(path)-1] {
		a, b := top.Nodes[f.owner[gp]].Coord, top.Nodes[f.owner[f.peer[gp]]].Coord
		for i := range a {
			if a[i] != b[i] {
				if rank[i] < last {
					t.Fatalf("host %d to LID %d moves along dimension %d after a later one", src, lid, i)
				}
				last = rank[i]
			}
		}
	}
	if sl := r.SL(src, lid); sl >= vls {
		t.Fatalf("host %d to LID %d: SL %d for %d VLs", src, lid, sl, vls)
	}
}
