package fabric

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTestbedRoutesAsBefore: the testbed has one path per pair, so minhop
// and updn program exactly the tables the first min-hop routing did, with
// SL 0 everywhere.
func TestTestbedRoutesAsBefore(t *testing.T) {
	want := [][]int32{{0, 1, 2, 3, 3, 3, 3}, {4, 4, 4, 0, 1, 2, 3}}
	for _, alg := range []string{"minhop", "updn"} {
		r, err := ComputeRoutes(testbedTopo(), alg, 0, 1)
		if err != nil {
			t.Fatalf("%s: %v", alg, err)
		}
		if !slices.EqualFunc(r.LFT, want, slices.Equal) || r.SLs != nil {
			t.Errorf("%s: LFT %v, sl %v; want %v, no SLs", alg, r.LFT, r.SLs, want)
		}
	}
}

// TestRoutesBackToBackHosts: two hosts linked to each other need no
// switch and no table.
func TestRoutesBackToBackHosts(t *testing.T) {
	top := &Topology{}
	mustLink(top, top.AddHost("A"), 0, top.AddHost("B"), 0)
	for _, alg := range []string{"minhop", "updn"} {
		r, err := ComputeRoutes(top, alg, 1, 1)
		if err != nil || len(r.LFT) != 0 {
			t.Errorf("%s: routes %v, err %v; want no tables", alg, r, err)
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
		{"torus 4x4x4", func() *Topology { return gridTopo([]int{4, 4, 4}, true, 1) }, grids, []int{0, 1}, 2},
		{"torus 5x5x5", func() *Topology { return gridTopo([]int{5, 5, 5}, true, 1) }, grids, []int{0}, 8},
		{"torus 6x6", func() *Topology { return gridTopo([]int{6, 6}, true, 1) }, grids, []int{0, 1}, 8},
		{"torus 4x3x5", func() *Topology { return gridTopo([]int{4, 3, 5}, true, 1) }, grids, []int{0}, 4},
	}
	for _, size := range []struct{ sw, deg, extra, hosts, room int }{
		{5, 3, 2, 8, 3}, {12, 4, 8, 20, 3}, {30, 6, 40, 40, 2}, {60, 8, 120, 70, 2},
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
// dor corrects dimensions in the order of the path's rotation, and with
// LMC 0 the way back travels on the SL of the way there.
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
					f := NewFabric(top)
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
func checkPaths(t *testing.T, f *Fabric, r *Routes, alg string, vls int) {
	top := f.t
	if want := len(f.hosts) << r.LMC; len(r.LFT) != len(f.sws) || len(r.LFT[0]) != want {
		t.Fatalf("LFT is %d x %d, want %d x %d", len(r.LFT), len(r.LFT[0]), len(f.sws), want)
	}
	var pos []int32
	var rootHops []int
	if alg == "updn" {
		again, p, roots := f.upDownRoutes(r.LMC)
		if !slices.EqualFunc(again.LFT, r.LFT, slices.Equal) {
			t.Fatal("upDownRoutes does not give ComputeRoutes' tables")
		}
		pos = p
		if len(roots) == 1 {
			rootHops = linkHops(top, f.sws[roots[0]])
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
				case rootHops != nil:
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
					// A CNP goes back on its data packet's VL.
					if back := r.SL(g, r.LID(src, 0)); r.LMC == 0 && back != r.SL(src, lid) {
						t.Fatalf("host %d to %d on SL %d, back on SL %d", src, g, r.SL(src, lid), back)
					}
				}
			}
		}
	}
}

// checkDimensionOrder checks that path corrects dimensions in the order of
// its LID's rotation and travels on an SL below vls.
func checkDimensionOrder(t *testing.T, f *Fabric, r *Routes, path []int32, src, lid, vls int) {
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

// TestMinhopSpreadsOverUplinks: on 2-level fat trees every leaf's up
// ports carry numbers of LIDs within 1 of each other (ties to the lowest
// port would put every remote destination on the first).
func TestMinhopSpreadsOverUplinks(t *testing.T) {
	for _, c := range []struct {
		name string
		top  *Topology
		lmc  int
	}{
		{"4-ary 2-tree", kAryNTree(4, 2), 0},
		{"4-ary 2-tree lmc 1", kAryNTree(4, 2), 1},
		{"clos 6x3+3", closTopo(6, 3, 3), 0},
		{"clos 12x6+6 lmc 2", closTopo(12, 6, 6), 2},
		{"clos 5x4+3", closTopo(5, 4, 3), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := ComputeRoutes(c.top, "minhop", c.lmc, 1)
			if err != nil {
				t.Fatal(err)
			}
			f := NewFabric(c.top)
			for s, n := range f.sws {
				if c.top.Nodes[n].Level != 1 {
					continue
				}
				count := map[int32]int{}
				first, end := f.ports(int32(s))
				for gp := first; gp < end; gp++ {
					if x := f.next(gp); x >= 0 {
						count[gp-first] = 0
					}
				}
				for _, p := range r.LFT[s] {
					if _, up := count[p]; up {
						count[p]++
					}
				}
				lo, hi := -1, 0
				for _, k := range count {
					if lo < 0 || k < lo {
						lo = k
					}
					hi = max(hi, k)
				}
				if hi-lo > 1 || hi == 0 {
					t.Errorf("leaf %s: LIDs per up port %v", c.top.Nodes[n].Name, count)
				}
			}
		})
	}
}

// flowLinks routes one flow from each host i to host perm[i] (path 0) and
// returns how many flows use each channel.
func flowLinks(t *testing.T, f *Fabric, r *Routes, perm []int) map[int32]int {
	use := map[int32]int{}
	for src, dst := range perm {
		for _, gp := range trace(t, f, r, src, r.LID(dst, 0)) {
			use[gp]++
		}
	}
	return use
}

// TestFtreeDModK: on the 648-port Clos (36 leaves of 18 hosts, 18 spines)
// a leaf sends destination d up its uplink d mod 18, so a permutation
// whose every destination is on another leaf loads all spines evenly (36
// flows each), and the shift by one leaf puts no two flows on a link; on a
// 4-ary 3-tree every shift permutation puts no two flows on a link.
func TestFtreeDModK(t *testing.T) {
	const leaves, per, spines = 36, 18, 18
	clos := closTopo(leaves, per, spines)
	r, err := ComputeRoutes(clos, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFabric(clos)
	n := leaves * per
	shift := make([]int, n)
	for i := range shift {
		shift[i] = (i + per) % n
	}
	const seed = 11
	rng := rand.New(rand.NewPCG(seed, 0))
	random := rng.Perm(n)
	for i := range random { // move destinations off the source's leaf
		for random[i]/per == i/per {
			j := rng.IntN(n)
			if random[j]/per != i/per && random[i]/per != j/per {
				random[i], random[j] = random[j], random[i]
			}
		}
	}
	for _, c := range []struct {
		name string
		perm []int
	}{{"shift by a leaf", shift}, {fmt.Sprintf("random seed %d", seed), random}} {
		t.Run(c.name, func(t *testing.T) {
			use := flowLinks(t, f, r, c.perm)
			perSpine := map[string]int{}
			for gp, k := range use {
				if node := clos.Nodes[f.owner[gp]]; node.Level == 1 && f.next(gp) >= 0 {
					perSpine[clos.Nodes[f.owner[f.peer[gp]]].Name] += k
				}
			}
			for j := range spines {
				if k := perSpine[fmt.Sprintf("S%d", j)]; k != n/spines {
					t.Errorf("spine S%d carries %d flows, want %d", j, k, n/spines)
				}
			}
			if c.name == "shift by a leaf" {
				for gp, k := range use {
					if k > 1 {
						t.Errorf("%s port %d carries %d flows", clos.Nodes[f.owner[gp]].Name, gp-f.base[f.owner[gp]]+1, k)
					}
				}
			}
		})
	}
	tree := kAryNTree(4, 3)
	rt, err := ComputeRoutes(tree, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	ft := NewFabric(tree)
	for c := 1; c < 64; c++ {
		perm := make([]int, 64)
		for i := range perm {
			perm[i] = (i + c) % 64
		}
		for gp, k := range flowLinks(t, ft, rt, perm) {
			if k > 1 {
				t.Errorf("4-ary 3-tree, shift by %d: %s port %d carries %d flows", c, tree.Nodes[ft.owner[gp]].Name, gp-ft.base[ft.owner[gp]]+1, k)
			}
		}
	}
}

// ringTopo builds n switches in a ring, each with one host on port 0,
// port 1 to the next switch and port 2 from the one before.
func ringTopo(n int) *Topology {
	t := &Topology{}
	var sw []NodeID
	for i := range n {
		sw = append(sw, t.AddSwitch(fmt.Sprintf("S%d", i), 3))
	}
	for i := range n {
		mustLink(t, sw[i], 1, sw[(i+1)%n], 2)
		mustLink(t, t.AddHost(fmt.Sprintf("H%d", i)), 0, sw[i], 0)
	}
	return t
}

// TestCheckRefusesDeadlock: routes whose channel dependencies close a
// cycle on a VL are refused with the cycle named, switch ports counting
// from 1.
func TestCheckRefusesDeadlock(t *testing.T) {
	t.Run("clockwise ring", func(t *testing.T) {
		top := ringTopo(4)
		f := NewFabric(top)
		r := clockwiseRoutes(f)
		const want = "deadlock possible: channel cycle on VL 0: S0 port 2 -> S1 port 2 -> S2 port 2 -> S3 port 2 -> S0 port 2"
		if err := f.check(r, 1); err == nil || err.Error() != want {
			t.Fatalf("err %v, want %s", err, want)
		}
		// A dateline does not save paths longer than half the ring:
		// those crossing S3-S0 still close the cycle on their VL.
		r.SLs = make([][]uint8, 4)
		for h := range 4 {
			r.SLs[h] = make([]uint8, 4)
			for g := range 4 {
				if g < h {
					r.SLs[h][g] = 1
				}
			}
		}
		const want1 = "deadlock possible: channel cycle on VL 1: S0 port 2 -> S1 port 2 -> S2 port 2 -> S3 port 2 -> S0 port 2"
		if err := f.check(r, 2); err == nil || err.Error() != want1 {
			t.Fatalf("err %v, want %s", err, want1)
		}
	})
	t.Run("minhop on a 4x4 torus", func(t *testing.T) {
		top := gridTopo([]int{4, 4}, true, 1)
		_, err := ComputeRoutes(top, "minhop", 0, 1)
		var ce *cycleError
		if !errors.Is(err, ErrBadScenario) || !errors.As(err, &ce) {
			t.Fatalf("err %v, want ErrBadScenario with a channel cycle", err)
		}
		if !regexp.MustCompile(`^bad scenario: routing minhop: deadlock possible: channel cycle on VL 0: R\d\.\d port \d( -> R\d\.\d port \d)+$`).MatchString(err.Error()) {
			t.Errorf("message %q", err)
		}
		f := NewFabric(top)
		deps := dependencies(t, f, f.minHop(0), 1)[0]
		for i, c := range ce.ports {
			if next := ce.ports[(i+1)%len(ce.ports)]; !deps[[2]int32{c, next}] {
				t.Errorf("%s: no route uses %s right after %s", err, ce.names[(i+1)%len(ce.names)], ce.names[i])
			}
		}
	})
	t.Run("dor on a torus without its SLs", func(t *testing.T) {
		top := gridTopo([]int{5, 6}, true, 1)
		f := NewFabric(top)
		r, err := f.dimensionOrder(0, 4)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.check(r, 4); err != nil {
			t.Fatal(err)
		}
		r.SLs = nil
		var ce *cycleError
		if err := f.check(r, 4); !errors.As(err, &ce) {
			t.Fatalf("err %v, want a channel cycle", err)
		}
	})
}

// TestCheckNamesBrokenRoutes: a hole, a loop or a wrong end on some
// host's path to some LID, path 1 of an LMC included, is named.
func TestCheckNamesBrokenRoutes(t *testing.T) {
	top := closTopo(2, 1, 1) // H0 on L0, H1 on L1, spine S0: ports L*: 1 host, 2 up; S0: 1 L0, 2 L1
	for _, c := range []struct {
		name   string
		lmc    int
		break_ func(r *Routes)
		want   string
	}{
		{"hole", 0, func(r *Routes) { r.LFT[2][1] = NoRoute }, "host H0 does not reach host H1 at LID 1: switch S0 has no route"},
		{"loop", 0, func(r *Routes) { r.LFT[1][1] = 1 }, "host H0 does not reach host H1 at LID 1: it loops through switch S0"},
		{"wrong end", 0, func(r *Routes) { r.LFT[0][1] = 0 }, "host H0 does not reach host H1 at LID 1: it arrives at host H0"},
		{"no such port", 0, func(r *Routes) { r.LFT[0][1] = 7 }, "host H0 does not reach host H1 at LID 1: switch L0 sends it to port 8, which it does not have"},
		{"second LID", 1, func(r *Routes) { r.LFT[2][3] = NoRoute }, "host H0 does not reach host H1 at LID 3: switch S0 has no route"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFabric(top)
			r := f.minHop(c.lmc)
			if err := f.check(r, 1); err != nil {
				t.Fatal(err)
			}
			c.break_(r)
			if err := f.check(r, 1); err == nil || err.Error() != c.want {
				t.Fatalf("err %v, want %s", err, c.want)
			}
		})
	}
}

// TestCheckWalksFromTheDestinationsSwitch breaks the entry for H0 at its
// own leaf. The check visits only two hosts of each switch (see check), so
// it must still walk from the destination's neighbours on that switch, the
// only sources where no other switch has hosts, and in host order: the
// first failure it names is H1's, the lowest other host.
func TestCheckWalksFromTheDestinationsSwitch(t *testing.T) {
	one := &Topology{}
	sw := one.AddSwitch("S", 3)
	for i := range 3 {
		if err := one.Connect(one.AddHost(fmt.Sprintf("H%d", i)), sw, 8); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		top    *Topology
		break_ func(r *Routes)
		want   string
	}{
		{"one switch", one, func(r *Routes) { r.LFT[0][0] = NoRoute }, "host H1 does not reach host H0 at LID 0: switch S has no route"},
		// L0 holds H0-H2, L1 H3-H5: H3's walk would end at H1 too, but H1's comes first.
		{"two leaves", closTopo(2, 3, 1), func(r *Routes) { r.LFT[0][0] = 1 }, "host H1 does not reach host H0 at LID 0: it arrives at host H1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFabric(c.top)
			r := f.minHop(0)
			if err := f.check(r, 1); err != nil {
				t.Fatal(err)
			}
			c.break_(r)
			if err := f.check(r, 1); err == nil || err.Error() != c.want {
				t.Fatalf("err %v, want %s", err, c.want)
			}
		})
	}
}

// TestDorNeedsVLs: dor refuses too few VLs, saying how many it needs.
func TestDorNeedsVLs(t *testing.T) {
	for _, c := range []struct {
		dims     []int
		wrap     bool
		lmc, vls int
		want     string // "" routes
	}{
		{[]int{5, 5}, true, 0, 1, "a 5x5 torus needs 4 VLs (one per set of dimensions whose dateline a path crosses); set vls = 4"},
		{[]int{6, 5, 8}, true, 0, 4, "a 6x5x8 torus needs 8 VLs (one per set of dimensions whose dateline a path crosses); set vls = 8"},
		{[]int{6, 5, 8}, true, 0, 8, ""},
		{[]int{8, 3}, true, 0, 1, "a 8x3 torus needs 2 VLs (one per set of dimensions whose dateline a path crosses); set vls = 2"},
		{[]int{3, 3}, true, 0, 1, ""},
		{[]int{4, 4, 4}, true, 0, 1, ""},
		{[]int{4, 4}, false, 0, 1, ""},
		{[]int{4, 4}, false, 1, 1, "a 4x4 mesh needs 2 VLs (one per dimension order, 2 for lmc 1); set vls = 2"},
		{[]int{4, 4, 4}, false, 3, 2, "a 4x4x4 mesh needs 3 VLs (one per dimension order, 3 for lmc 3); set vls = 3"},
		{[]int{5, 6}, true, 1, 4, "a 5x6 torus needs 8 VLs (2 dimension orders for lmc 1 × 4 sets of datelines a path crosses); set vls = 8"},
		{[]int{5, 5, 5}, true, 1, 15, "a 5x5x5 torus needs 16 VLs (2 dimension orders for lmc 1 × 8 sets of datelines a path crosses); more than the 15 data VLs there are: lower lmc"},
	} {
		name := fmt.Sprintf("%v wrap=%v lmc=%d vls=%d", c.dims, c.wrap, c.lmc, c.vls)
		t.Run(name, func(t *testing.T) {
			_, err := ComputeRoutes(gridTopo(c.dims, c.wrap, 1), "dor", c.lmc, c.vls)
			switch {
			case c.want == "" && err != nil:
				t.Fatal(err)
			case c.want != "" && (err == nil || err.Error() != "bad scenario: routing dor: "+c.want):
				t.Fatalf("err %v, want %s", err, c.want)
			}
		})
	}
}

// TestRoutingRefusesWrongShapes: ftree needs a leveled tree, dor a mesh or
// torus with coordinates.
func TestRoutingRefusesWrongShapes(t *testing.T) {
	sideways := closTopo(2, 1, 1)
	sideways.Nodes[0].Ports++ // room for a link between the leaves
	sideways.Nodes[0].linked = append(sideways.Nodes[0].linked, false)
	sideways.Nodes[1].Ports++
	sideways.Nodes[1].linked = append(sideways.Nodes[1].linked, false)
	mustLink(sideways, 0, 2, 1, 2)
	noCoord := gridTopo([]int{3, 3}, false, 1)
	noCoord.Nodes[4].Coord = nil
	atTheEdge := gridTopo([]int{3, 3}, false, 1) // R1.1 moved to x = 3, one past the last router
	atTheEdge.Nodes[4].Coord = []int{3, 1}
	below := gridTopo([]int{3, 3}, false, 1)
	below.Nodes[4].Coord = []int{-1, 1}
	for _, c := range []struct {
		name, alg string
		top       *Topology
		want      string
	}{
		{"ftree on a torus", "ftree", gridTopo([]int{4, 4}, true, 1), `routing ftree: the topology (kind "torus") is not a fat tree`},
		{"ftree on the testbed", "ftree", testbedTopo(), `routing ftree: the topology (kind "testbed") is not a fat tree`},
		{"ftree across a level", "ftree", sideways, "routing ftree: the link from L0 port 3 to L1 joins levels 1 and 1; a fat tree links adjacent levels only"},
		{"dor on a fat tree", "dor", kAryNTree(2, 2), `routing dor: the topology (kind "fattree") is not a mesh or torus`},
		{"dor without a coordinate", "dor", noCoord, "routing dor: switch R1.1 has 0 coordinates; the mesh has 2 dimensions"},
		{"dor past the last router", "dor", atTheEdge, "routing dor: switch R1.1 at [3 1] is outside the 3x3 mesh"},
		{"dor before the first router", "dor", below, "routing dor: switch R1.1 at [-1 1] is outside the 3x3 mesh"},
		{"unknown", "lash", kAryNTree(2, 2), `unknown routing "lash"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ComputeRoutes(c.top, c.alg, 0, 8)
			if !errors.Is(err, ErrBadScenario) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want ErrBadScenario saying %s", err, c.want)
			}
		})
	}
}

// TestLMCPathsDiffer: where a fat tree offers 2^LMC equal paths between
// hosts on different leaves, each LID of the destination takes its own;
// dor's second LID takes the other dimension order where the hosts differ
// in both dimensions and the one path where they differ in one.
func TestLMCPathsDiffer(t *testing.T) {
	type c struct {
		name     string
		top      *Topology
		alg      string
		lmc, vls int
	}
	var cases []c
	for _, alg := range []string{"minhop", "updn", "ftree"} {
		cases = append(cases, c{"4-ary 3-tree", kAryNTree(4, 3), alg, 2, 1}, c{"clos 6x3+3", closTopo(6, 3, 3), alg, 1, 1})
	}
	cases = append(cases, c{"mesh 4x4", gridTopo([]int{4, 4}, false, 1), "dor", 1, 2}, c{"torus 5x4", gridTopo([]int{5, 4}, true, 1), "dor", 1, 8})
	for _, c := range cases {
		t.Run(c.name+"/"+c.alg, func(t *testing.T) {
			r, err := ComputeRoutes(c.top, c.alg, c.lmc, c.vls)
			if err != nil {
				t.Fatal(err)
			}
			f := NewFabric(c.top)
			for src := range f.hosts {
				for dst := range f.hosts {
					a, b := f.attach[src], f.attach[dst]
					if a == b {
						continue
					}
					var paths [][]int32
					for p := range 1 << c.lmc {
						paths = append(paths, trace(t, f, r, src, r.LID(dst, p)))
					}
					distinct := 1 << c.lmc
					if c.alg == "dor" {
						ca, cb := c.top.Nodes[f.sws[a]].Coord, c.top.Nodes[f.sws[b]].Coord
						if ca[0] == cb[0] || ca[1] == cb[1] {
							distinct = 1
						}
					}
					seen := map[string]bool{}
					for _, p := range paths {
						seen[fmt.Sprint(p)] = true
					}
					if len(seen) != distinct {
						t.Fatalf("host %d to host %d: %d distinct paths of %d LIDs, want %d", src, dst, len(seen), len(paths), distinct)
					}
				}
			}
		})
	}
}

// TestMinhopSpreadsEachHostsLIDs: on irregular fabrics (parallel links
// among them), at every switch the 2^LMC LIDs of a host leave to as many
// different neighbours on shortest paths as there are, up to 2^LMC, as
// OpenSM's LMC-aware routing spreads them (least-loaded alone can pick one
// neighbour twice), and by as many different ports as there are neighbours
// used, or more.
func TestMinhopSpreadsEachHostsLIDs(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprintf("seed %d", seed), func(t *testing.T) {
			const lmc = 2
			top := randomTopo(seed, 16, 5, 20, 24, 2)
			f := NewFabric(top)
			r := f.minHop(lmc) // on a random fabric likely cyclic: no check
			parallel := false
			for g, dst := range f.hosts {
				hops := linkHops(top, dst)
				for s, n := range f.sws {
					if int32(s) == f.attach[g] {
						continue
					}
					shortest := map[NodeID]bool{}
					first, end := f.ports(int32(s))
					for gp := first; gp < end; gp++ {
						if p := f.peer[gp]; p >= 0 && f.host[f.owner[p]] < 0 && hops[f.owner[p]] == hops[n]-1 {
							parallel = parallel || shortest[f.owner[p]]
							shortest[f.owner[p]] = true
						}
					}
					ports, neighbours := map[int32]bool{}, map[int32]bool{}
					for p := range 1 << lmc {
						port := r.LFT[s][r.LID(g, p)]
						ports[port] = true
						neighbours[f.next(first+port)] = true
					}
					if want := min(len(shortest), 1<<lmc); len(neighbours) != want || len(ports) < want {
						t.Fatalf("switch %s, host %d: LIDs leave to %d neighbours by %d ports, of %d neighbours on shortest paths; want %d neighbours",
							top.Nodes[n].Name, g, len(neighbours), len(ports), len(shortest), want)
					}
				}
			}
			if !parallel {
				t.Errorf("no parallel links on shortest paths: the fabric does not test neighbours against ports")
			}
		})
	}
}

// testbedTopo is the testbed's topology at its default rates.
func testbedTopo() *Topology {
	return Testbed(16, 32)
}

// TestMutLMC7IsAccepted: lmc runs from 0 to 7 (up to 128 LIDs a host), both
// ends included. Kills routing.go checkRouting's `lmc > 7` turned into `>=`
// (a survivor of session 11's measurement sample, killed after it).
func TestMutLMC7IsAccepted(t *testing.T) {
	r, err := ComputeRoutes(testbedTopo(), "minhop", 7, 1)
	if err != nil {
		t.Fatalf("lmc 7: %v", err)
	}
	if r.LMC != 7 || len(r.LFT[0]) != len(testbedTopo().Hosts())<<7 {
		t.Errorf("lmc 7: LMC %d, %d LIDs a table, want 7 and %d", r.LMC, len(r.LFT[0]), len(testbedTopo().Hosts())<<7)
	}
	if _, err := ComputeRoutes(testbedTopo(), "minhop", 8, 1); err == nil || !strings.Contains(err.Error(), "lmc 8: want 0 to 7") {
		t.Errorf("lmc 8: error %v, want it refused", err)
	}
}

// TestMutAdaptiveCheckNamesBrokenRoutes: the check of the adaptive choices
// follows every switch a packet can reach, not only the hosts' switches,
// and names a hole or a loop as the routing check does (a loop is no
// channel cycle that allow_deadlock would let pass). closTopo(2, 1, 1):
// H0 on L0, H1 on L1, spine S0; one spine, so no group: the choices are
// the tables'.
func TestMutAdaptiveCheckNamesBrokenRoutes(t *testing.T) {
	top := closTopo(2, 1, 1)
	for _, c := range []struct {
		name   string
		break_ func(r *Routes)
		want   string
	}{
		{"hole at the spine", func(r *Routes) { r.LFT[2][1] = NoRoute }, "host H0 does not reach host H1 at LID 1: switch S0 has no route"},
		{"loop", func(r *Routes) { r.LFT[1][1] = 1 }, "host H0 does not reach host H1 at LID 1: adaptive choices loop through switch S0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFabric(top)
			r := f.minHop(0)
			if _, err := AdaptiveGroups(f, r, "minhop", false); err != nil {
				t.Fatal(err)
			}
			c.break_(r)
			for _, allow := range []bool{false, true} {
				if _, err := AdaptiveGroups(f, r, "minhop", allow); err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("allow_deadlock %v: err %v, want %q", allow, err, c.want)
				}
			}
		})
	}
}

// TestMutCheckFindsALoopThroughASwitchCheckedForAnotherLID: the routing
// check stops a walk at a switch already checked for the same LID only. On
// closTopo(2, 1, 2) with lmc 1 (LIDs 0, 1 H0's, 2, 3 H1's), H0's LID 0
// goes by S0 and LID 1 by S1; H1's LID 2 goes from L0 to S0 and on to L1,
// which sends it back to S0: a loop through S0, a switch last checked for
// LID 0, which the check must still name.
func TestMutCheckFindsALoopThroughASwitchCheckedForAnotherLID(t *testing.T) {
	top := closTopo(2, 1, 2) // L0, L1: port 0 host, 1 to S0, 2 to S1; S0, S1: port 0 L0, 1 L1
	f := NewFabric(top)
	r := f.newRoutes(1)
	r.LFT[0] = []int32{0, 0, 1, 2}
	r.LFT[1] = []int32{1, 2, 0, 0}
	r.LFT[2] = []int32{0, 0, 1, 1}
	r.LFT[3] = []int32{0, 0, 1, 1}
	if err := f.check(r, 1); err != nil {
		t.Fatalf("the unbroken tables: %v", err)
	}
	r.LFT[1][2] = 1 // L1 sends LID 2 back up to S0
	const want = "host H0 does not reach host H1 at LID 2: it loops through switch S0"
	if err := f.check(r, 1); err == nil || err.Error() != want {
		t.Errorf("err %v, want %s", err, want)
	}
}

// TestMutAdaptiveChoicesTowardsEverySwitch: the ports a switch may forward
// a LID to are its group towards the LID's switch where the table's port is
// in it, else the table's alone, whichever switch the destination hangs
// off, switch 0 included. On closTopo(2, 1, 2) under minhop (switch 0 is
// L0), each leaf's group towards the other is its two up ports, so L1's
// choices for H0 and L0's for H1 are both up ports; the spines and the
// destination's own leaf have the table's port only.
func TestMutAdaptiveChoicesTowardsEverySwitch(t *testing.T) {
	top := closTopo(2, 1, 2) // L0, L1: port 0 host, 1 to S0, 2 to S1; S0, S1: port 0 L0, 1 L1
	f := NewFabric(top)
	r := f.minHop(0)
	ar, err := AdaptiveGroups(f, r, "minhop", false)
	if err != nil {
		t.Fatal(err)
	}
	var one [1]uint8
	for s := range 4 {
		for lid := range 2 {
			table := r.LFT[s][lid]
			want := []uint8{uint8(table)}
			if s == 1-lid { // the other leaf
				want = []uint8{1, 2}
			}
			if got := ar.choices(int32(s), lid, table, &one); !slices.Equal(got, want) {
				t.Errorf("%s towards H%d (table port %d): choices %v, want %v", top.Nodes[f.sws[s]].Name, lid, table, got, want)
			}
		}
	}
}

// TestMutLFTsRoundTripWithAHostAsNodeZero: a dump written by WriteLFTs
// reads back as the same tables whatever the node order, here with a host
// as node 0 (hosts matched by name: the fabric has no GUIDs) and lmc 1.
func TestMutLFTsRoundTripWithAHostAsNodeZero(t *testing.T) {
	top := &Topology{}
	a := top.AddHost("A")
	s0, s1 := top.AddSwitch("S0", 3), top.AddSwitch("S1", 3)
	b := top.AddHost("B")
	mustLink(top, a, 0, s0, 0)
	mustLink(top, s0, 1, s1, 1)
	mustLink(top, s0, 2, s1, 2)
	mustLink(top, b, 0, s1, 0)
	info, err := InspectFabric(top, "minhop", 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := info.WriteLFTs(&buf); err != nil {
		t.Fatal(err)
	}
	r, warns, err := ReadLFTs(top, "round trip", &buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) > 0 || r.LMC != 1 {
		t.Errorf("warnings %q, lmc %d; want none, 1", warns, r.LMC)
	}
	for s := range r.LFT {
		if !slices.Equal(r.LFT[s], info.routes.LFT[s]) {
			t.Errorf("switch %s: read %v, wrote %v", top.Nodes[info.f.sws[s]].Name, r.LFT[s], info.routes.LFT[s])
		}
	}
}
