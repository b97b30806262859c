package fabric

import (
	"fmt"
	"math/rand/v2"
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
// without levels, with the cable from leaf L1 to spine S1 gone. The roots
// are OpenSM's: the three spines with every cable, each one hop from all 32
// hosts; S1 is no root, as L1's 4 hosts (12.5 %) sit three hops from it
// (minHopRoots). S1 then ranks below the leaves, and no route passes it
// (L2 -> S1 -> L3 goes down, then up): every leaf reaches every other over
// S2, S3 or S4 (not one central switch), and every spine uplink of L1
// carries its share: L1 sends each of the 28 other hosts' LIDs up one of
// its 3 uplinks, the routes of all 4 of its hosts, so at most
// ceil(28/3) * 4 = 40 routes an uplink where spread evenly; one central
// root would put all 112 on one.
func TestUpdnRootsSurviveAFailedCable(t *testing.T) {
	top, err := GenerateTopology("clos", TopoParams{Leaves: 8, Spines: 4, HostsPerLeaf: 4, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	unlink(top, "L1", "S1")
	l1 := top.Lookup("L1")
	for n := range top.Nodes {
		top.Nodes[n].Level = 0
	}
	top.Kind = "ibnetdiscover"
	if got := updnRootNames(t, top); !slices.Equal(got, []string{"S2", "S3", "S4"}) {
		t.Errorf("roots %v, want the 3 spines with every cable", got)
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

// upDownKeys returns every switch's place in the up*/down* order as
// documented (routing_updn.go, docs/fabrics.md): its hop count from the
// nearest root (a breadth-first search here; switches no root reaches
// last), ties to the lower switch index. A hop from s to x goes up when
// key[x] < key[s].
func upDownKeys(f *Fabric, roots []int32) []int64 {
	n := len(f.sws)
	hops := make([]int64, n)
	for i := range hops {
		hops[i] = -1
	}
	var queue []int32
	for _, s := range roots {
		if hops[s] < 0 {
			hops[s] = 0
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		first, end := f.ports(u)
		for gp := first; gp < end; gp++ {
			if x := f.next(gp); x >= 0 && hops[x] < 0 {
				hops[x] = hops[u] + 1
				queue = append(queue, x)
			}
		}
	}
	key := make([]int64, n)
	for s, h := range hops {
		if h < 0 {
			h = int64(n)
		}
		key[s] = h*int64(n) + int64(s)
	}
	return key
}

// TestMutUpdnEqualRankLinksFollowTheSwitchOrder: up*/down* orders the
// switches by (hop count from the nearest root, switch index), so a link
// between two switches of equal rank goes up towards the lower index, and
// no route goes down (to a later switch) and then up (to an earlier one).
// routing_updn.go:291:16 (the tie-break `a - b` to `a + b`) orders the
// switches of one rank otherwise: Go's sort keeps them in index order up to
// 12 elements (insertion sort) but not beyond, so the fabrics have 13 to 20
// switches. Random irregular fabrics, with one or two roots given and with
// the roots updn finds: every route between two hosts is legal in the
// documented order, and the order updn builds is that order.
func TestMutUpdnEqualRankLinksFollowTheSwitchOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 291))
	routed, equalRankHops := 0, 0
	for c := range 40 {
		nSw := 13 + rng.IntN(8)
		top := randomTopo(uint64(1000+c), nSw, 4, nSw/2, nSw, 2)
		f := NewFabric(top)
		var opts RoutingOptions
		var roots []int32
		if c%2 == 0 {
			for range 1 + rng.IntN(2) {
				s := rng.IntN(nSw)
				opts.Roots = append(opts.Roots, fmt.Sprintf("S%d", s))
				roots = append(roots, int32(s))
			}
		}
		r, err := ComputeRoutesWith(top, "updn", 0, 1, opts)
		if err != nil {
			if opts.Roots == nil || !strings.Contains(err.Error(), "without a legal up*/down* route") {
				t.Fatalf("case %d, roots %v: %v", c, opts.Roots, err)
			}
			continue
		}
		routed++
		if opts.Roots == nil {
			_, _, roots = NewFabric(top).upDownRoutes(0)
		}
		key := upDownKeys(f, roots)
		pos := f.upDownOrder(roots)
		for s := range nSw {
			for x := range nSw {
				if (pos[x] < pos[s]) != (key[x] < key[s]) {
					t.Errorf("case %d, roots %v: S%d before S%d is %v in updn's order, %v in the documented one", c, roots, x, s, pos[x] < pos[s], key[x] < key[s])
				}
			}
		}
		for src := range f.hosts {
			for lid := range f.hosts {
				if lid == src {
					continue
				}
				path := trace(t, f, r, src, lid)
				wentDown := false
				for _, gp := range path[1 : len(path)-1] { // the hops between switches
					s, x := f.sw[f.owner[gp]], f.next(gp)
					if key[s]/int64(nSw) == key[x]/int64(nSw) {
						equalRankHops++
					}
					up := key[x] < key[s]
					if up && wentDown {
						t.Fatalf("case %d, roots %v: H%d to H%d goes down and then up, from %s to %s", c, roots, src, lid, top.Nodes[f.sws[s]].Name, top.Nodes[f.sws[x]].Name)
					}
					wentDown = wentDown || !up
				}
			}
		}
	}
	t.Logf("%d of 40 fabrics routed, %d hops between switches of equal rank", routed, equalRankHops)
	if routed < 25 || equalRankHops < 100 {
		t.Errorf("%d of 40 fabrics routed, %d hops between switches of equal rank: too few to test the order", routed, equalRankHops)
	}
}

// TestMutUpdnGivenRootsNameTheFirstSwitchWithoutARoute: where the roots
// given leave switches with hosts without a legal route, the error names,
// for the first host (in the fabric's order) that some switch with hosts
// cannot reach, the first such switch in the fabric's order
// (docs/fabrics.md, "updn roots"). routing_updn.go:263:8 (`s >= 0` to
// `s > 0`) left switch 0 out of the switches with hosts: the same fabrics
// are refused (a pair without a legal route is one both ways), but
// another switch is named.
//
// Switches X, A, W, Y, B, Z (in that order), roots A and B: X, W and Y
// below A, Y and Z below B, a host on X, W, Y and Z, Z's first. X and W
// reach Z only down to Y and up to B: both lack a route to HZ, and X, switch
// 0, is named. Then random irregular fabrics with random roots, the
// switches without a route taken from up*/down* tables computed for the
// same roots without the refusal (an entry that stays NoRoute).
func TestMutUpdnGivenRootsNameTheFirstSwitchWithoutARoute(t *testing.T) {
	top := &Topology{Kind: "ibnetdiscover"}
	sw := map[string]NodeID{}
	for _, name := range []string{"X", "A", "W", "Y", "B", "Z"} {
		sw[name] = top.AddSwitch(name, 4)
	}
	for _, name := range []string{"Z", "X", "W", "Y"} {
		if err := top.Connect(top.AddHost("H"+name), sw[name], 10); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range [][2]string{{"X", "A"}, {"W", "A"}, {"Y", "A"}, {"Y", "B"}, {"Z", "B"}} {
		if err := top.Connect(sw[l[0]], sw[l[1]], 10); err != nil {
			t.Fatal(err)
		}
	}
	_, err := ComputeRoutesWith(top, "updn", 0, 1, RoutingOptions{Roots: []string{"A", "B"}})
	const want = "the roots given leave switch X without a legal up*/down* route to some host"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("roots A and B: %v, want %q", err, want)
	}

	rng := rand.New(rand.NewPCG(13, 263))
	refused, namesZero := 0, 0
	for c := range 300 {
		nSw := 3 + rng.IntN(6)
		top := randomTopo(uint64(2000+c), nSw, 3, rng.IntN(3), 2+rng.IntN(2*nSw-1), 2) // at most 2 hosts a switch
		f := NewFabric(top)
		var names []string
		var roots []int32
		for range 1 + rng.IntN(2) {
			s := rng.IntN(nSw)
			names = append(names, fmt.Sprintf("S%d", s))
			roots = append(roots, int32(s))
		}
		r, _ := f.upDownWith(f.upDownOrder(roots), make([]bool, nSw), 0)
		want := -1
		for g := 0; g < len(f.hosts) && want < 0; g++ {
			for s := range nSw {
				if f.hasHost(int32(s)) && int32(s) != f.attach[g] && r.LFT[s][g] == NoRoute {
					want = s
					break
				}
			}
		}
		_, err := ComputeRoutesWith(top, "updn", 0, 1, RoutingOptions{Roots: names})
		if want < 0 {
			if err != nil {
				t.Errorf("fabric %d, roots %v: %v, want routes", c, names, err)
			}
			continue
		}
		refused++
		if want == 0 {
			namesZero++
		}
		msg := fmt.Sprintf("the roots given leave switch S%d without a legal up*/down* route", want)
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("fabric %d, roots %v: %v, want %q", c, names, err, msg)
		}
	}
	t.Logf("%d of 300 fabrics refused, %d naming S0", refused, namesZero)
	if refused < 30 || namesZero < 5 {
		t.Errorf("%d of 300 fabrics refused, %d naming S0: too few", refused, namesZero)
	}
}

// hasHost reports whether switch s has a host.
func (f *Fabric) hasHost(s int32) bool {
	for _, a := range f.attach {
		if a == s {
			return true
		}
	}
	return false
}

// TestMinHopRootsThresholdsAreStrict: on a Clos of one spine and N leaves of
// one host each, the spine has every host one hop away (a root), and a leaf
// has its own host at 0 hops (1/N) and the others at 2. OpenSM's bars count
// when they hold more than 90 % and more than 5 % of the end ports: with 19
// leaves a leaf's own host is 5.3 %, a second bar, so the spine alone is the
// root; with 20 it is exactly 5 %, no bar, so the leaves qualify too, are
// linked to the spine, and OpenSM's rule gives nothing ccsweep's order can
// follow (nil).
func TestMinHopRootsThresholdsAreStrict(t *testing.T) {
	for _, c := range []struct {
		leaves int
		want   []string
	}{{19, []string{"S1"}}, {20, nil}} {
		top, err := GenerateTopology("clos", TopoParams{Leaves: c.leaves, Spines: 1, HostsPerLeaf: 1, HostGbps: 8, SwitchGbps: 8})
		if err != nil {
			t.Fatal(err)
		}
		f := NewFabric(top)
		var got []string
		for _, s := range f.minHopRoots() {
			got = append(got, top.Nodes[f.sws[s]].Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%d leaves: minHopRoots %v, want %v", c.leaves, got, c.want)
		}
	}
}

// TestMinHopRootsWantMoreThan90Percent: 20 hosts, 9 on L1 and on L2, one on
// L3 and on L4, linked X-L1, X-L2, X-Y, Y-L3, L3-L4. X has 18 hosts (exactly
// 90 %) one hop away and one each at two and three hops: no bar holds more
// than 90 %, so X is no root; nor are L3 and L4 (18 hosts three and four
// hops away). Y has 19 (95 %) two hops away and one (5 %, not more) at one:
// the only root. Counted at 90 % or more, X, L3 and L4 would be roots too,
// linked to each other and to Y, and OpenSM's rule would give nothing.
func TestMinHopRootsWantMoreThan90Percent(t *testing.T) {
	top := &Topology{Kind: "ibnetdiscover"}
	sw := map[string]NodeID{}
	for _, s := range []struct {
		name         string
		ports, hosts int
	}{{"X", 3, 0}, {"Y", 2, 0}, {"L1", 10, 9}, {"L2", 10, 9}, {"L3", 3, 1}, {"L4", 2, 1}} {
		sw[s.name] = top.AddSwitch(s.name, s.ports)
		for h := range s.hosts {
			if err := top.Connect(top.AddHost(fmt.Sprintf("H%s_%d", s.name, h)), sw[s.name], 10); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, l := range [][2]string{{"X", "L1"}, {"X", "L2"}, {"X", "Y"}, {"Y", "L3"}, {"L3", "L4"}} {
		if err := top.Connect(sw[l[0]], sw[l[1]], 10); err != nil {
			t.Fatal(err)
		}
	}
	f := NewFabric(top)
	var got []string
	for _, s := range f.minHopRoots() {
		got = append(got, top.Nodes[f.sws[s]].Name)
	}
	if !slices.Equal(got, []string{"Y"}) {
		t.Errorf("minHopRoots %v, want [Y]", got)
	}
}
