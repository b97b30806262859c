package fabric

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Tests for model/fabric's last mutation survivors (docs/testing.md,
// "Results of 2026-11-26 (session 12): model/fabric": the helper's "not
// killed" and the lead's). Each checks the documented rule on a family of
// fabrics, beside the one case that tells the survivor apart.

// ringOfK builds n switches in a ring with k hosts each: switch s (named
// S<s>) has its hosts on ports 0..k-1, port k to the next switch and port
// k+1 from the one before; host s*k+j (named H<s*k+j>) is on port j of
// switch s.
func ringOfK(n, k int) *Topology {
	t := &Topology{}
	sw := make([]NodeID, n)
	for s := range n {
		sw[s] = t.AddSwitch(fmt.Sprintf("S%d", s), k+2)
	}
	for s := range n {
		mustLink(t, sw[s], k, sw[(s+1)%n], k+1)
	}
	for s := range n {
		for j := range k {
			mustLink(t, t.AddHost(fmt.Sprintf("H%d", s*k+j)), 0, sw[s], j)
		}
	}
	return t
}

// clockwiseOfK are routes on ringOfK(n, k) sending every packet clockwise
// (port k) to its destination's switch, and there to the host's port.
func clockwiseOfK(f *Fabric, k int) *Routes {
	r := f.newRoutes(0)
	for s := range r.LFT {
		for g := range r.LFT[s] {
			r.LFT[s][g] = int32(k)
			if g/k == s {
				r.LFT[s][g] = int32(g % k)
			}
		}
	}
	return r
}

// slTable returns an SL table of hosts × LIDs, every entry 0.
func slTable(hosts int) [][]uint8 {
	sls := make([][]uint8, hosts)
	for h := range sls {
		sls[h] = make([]uint8, hosts)
	}
	return sls
}

// TestMutCheckWalksEveryHostWithSLs: with per-path service levels, the
// deadlock check covers the channel dependencies of every route on the VL
// of its SL (routing_check.go's doc): hosts of one switch share their
// routes, but not their VLs, so a switch's third host is walked too.
// routing_check.go:65:39 (`r.SLs != nil` negated) walked only the first
// two hosts of each switch, as with one VL.
//
// On a ring of 3 switches with 3 hosts each routed clockwise, the routes
// of two switch hops from Si turn at S(i+1) from its port 5 (counting from
// 1) to its port 4, and the three turns close the cycle S0 port 4 -> S1
// port 4 -> S2 port 4. The SLs put every route on VL 0 except those of
// S2's hosts to S1's hosts (VL 1), but for H8's to H3: VL 0 holds the
// turns at S1 and S2, and the cycle closes only by H8, S2's third host,
// whose route to H3 is on VL 0. With that one entry on VL 1 too, no VL has a cycle.
// Then random SL tables (an SL per source host, a few per destination
// switch) on rings of 3 and 4 switches with 3 or 4 hosts each: the check refuses exactly the tables where some VL's dependencies,
// traced from every host to every LID (dependencies), have a cycle, names
// the first such VL, and the cycle it names is one of that VL's.
func TestMutCheckWalksEveryHostWithSLs(t *testing.T) {
	top := ringOfK(3, 3)
	f := NewFabric(top)
	r := clockwiseOfK(f, 3)
	r.SLs = slTable(9)
	for h := 6; h < 9; h++ { // S2's hosts
		for g := 3; g < 6; g++ { // to S1's hosts
			r.SLs[h][g] = 1
		}
	}
	r.SLs[8][3] = 0 // H8 to H3
	const want = "deadlock possible: channel cycle on VL 0: S0 port 4 -> S1 port 4 -> S2 port 4 -> S0 port 4"
	if err := f.check(r, 2); err == nil || err.Error() != want {
		t.Errorf("H8 to H3 on VL 0: %v, want %q", err, want)
	}
	r.SLs[8][3] = 1
	if err := f.check(r, 2); err != nil {
		t.Errorf("H8 to H3 on VL 1 too: %v, want no cycle", err)
	}

	rng := rand.New(rand.NewPCG(13, 65))
	refused, thirdHostMatters := 0, 0
	for c := range 300 {
		n, k, vls := 3+rng.IntN(2), 3+rng.IntN(2), 4+rng.IntN(4)
		top := ringOfK(n, k)
		f := NewFabric(top)
		r := clockwiseOfK(f, k)
		hosts := n * k
		r.SLs = slTable(hosts)
		for h := range hosts {
			v := uint8(rng.IntN(vls + 1)) // SL vls is VL 0 again
			for s := range n {
				if rng.IntN(10) == 0 {
					v = uint8(rng.IntN(vls))
				}
				for g := s * k; g < (s+1)*k; g++ {
					r.SLs[h][g] = v
				}
			}
		}
		// The reference: every route traced, its turns on its VL.
		deps := dependencies(t, f, r, vls)
		wantVL := -1
		for v := range vls {
			if !acyclic(deps[v]) {
				wantVL = v
				break
			}
		}
		// Whether the hosts after each switch's first two change it.
		firstTwo := *r
		firstTwo.SLs = slTable(hosts)
		for h := range hosts {
			if h%k < 2 {
				copy(firstTwo.SLs[h], r.SLs[h])
			} else {
				copy(firstTwo.SLs[h], r.SLs[h-h%k]) // as its switch's first host
			}
		}
		cyclic2 := false
		for _, d := range dependencies(t, f, &firstTwo, vls) {
			cyclic2 = cyclic2 || !acyclic(d)
		}
		if cyclic2 != (wantVL >= 0) {
			thirdHostMatters++
		}

		err := f.check(r, vls)
		if wantVL < 0 {
			if err != nil {
				t.Errorf("case %d (%d switches, %d hosts each, %d VLs): %v, want no cycle", c, n, k, vls, err)
			}
			continue
		}
		refused++
		var ce *cycleError
		if !errors.As(err, &ce) {
			t.Errorf("case %d (%d switches, %d hosts each, %d VLs): %v, want a cycle on VL %d", c, n, k, vls, err, wantVL)
			continue
		}
		if ce.vl != wantVL {
			t.Errorf("case %d: cycle on VL %d, want VL %d, the first with one", c, ce.vl, wantVL)
		}
		for i, p := range ce.ports {
			if q := ce.ports[(i+1)%len(ce.ports)]; !deps[ce.vl][[2]int32{p, q}] {
				t.Errorf("case %d: %v: no route on VL %d uses %s right after %s", c, err, ce.vl, ce.names[(i+1)%len(ce.names)], ce.names[i])
			}
		}
	}
	t.Logf("%d of 300 tables refused, %d decided by hosts after a switch's first two", refused, thirdHostMatters)
	if refused < 30 || refused > 270 || thirdHostMatters < 10 {
		t.Errorf("%d of 300 tables refused, %d decided by hosts after a switch's first two: the family no longer tells them apart", refused, thirdHostMatters)
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

// ftreeCheck checks r, ftree's routes on top whose switches have the
// levels level (by switch index; 0: outside the tree), against the rule of
// routing_ftree.go, with the legal routes found here by a breadth-first
// search over (switch, phase): a switch from which the destination switch
// is reachable going only down goes down on a shortest such path; any
// other switch goes up to a parent with the shortest onward up*-then-down*
// route; a switch with no such route has none. It returns how many
// switches went up while a costlier parent came after the cheapest in
// port order.
func ftreeCheck(t *testing.T, name string, top *Topology, level []int, r *Routes) (laterCostlier int) {
	t.Helper()
	f := NewFabric(top)
	n := len(f.sws)
	const inf = 1 << 30
	anyDist := make([]int, n)  // legal route, may still go up
	downDist := make([]int, n) // going only down
	for g := range f.hosts {
		dst := f.attach[g]
		for s := range n {
			anyDist[s], downDist[s] = inf, inf
		}
		anyDist[dst], downDist[dst] = 0, 0
		// Backwards from the destination, one hop a round: a hop s -> x
		// down (level[x] < level[s]) may follow anything; a hop up only
		// an up part.
		for changed := true; changed; {
			changed = false
			for s := range n {
				first, end := f.ports(int32(s))
				for gp := first; gp < end; gp++ {
					x := f.next(gp)
					if x < 0 {
						continue
					}
					switch {
					case level[x] < level[s] && downDist[x]+1 < downDist[s]:
						downDist[s] = downDist[x] + 1
						changed = true
					case level[x] > level[s] && anyDist[x]+1 < anyDist[s]:
						anyDist[s] = anyDist[x] + 1
						changed = true
					}
					if downDist[s] < anyDist[s] {
						anyDist[s] = downDist[s]
					}
				}
			}
		}
		for s := range n {
			if int32(s) == dst {
				continue
			}
			sname := top.Nodes[f.sws[s]].Name
			out := r.LFT[s][g]
			if anyDist[s] == inf {
				if out != NoRoute {
					t.Errorf("%s: %s has no legal route to H%d's switch, but port %d", name, sname, g, out+1)
				}
				continue
			}
			if out == NoRoute {
				t.Errorf("%s: %s has no route to H%d, want one of %d hops", name, sname, g, anyDist[s])
				continue
			}
			first, _ := f.ports(int32(s))
			x := f.next(first + out)
			switch {
			case x < 0:
				t.Errorf("%s: %s sends H%d's LID to a host (port %d)", name, sname, g, out+1)
			case downDist[s] < inf && (level[x] >= level[s] || downDist[x] != downDist[s]-1):
				t.Errorf("%s: %s sends H%d's LID to %s; want a shortest way down (%d hops)", name, sname, g, top.Nodes[f.sws[x]].Name, downDist[s])
			case downDist[s] == inf && (level[x] <= level[s] || anyDist[x] != anyDist[s]-1):
				t.Errorf("%s: %s sends H%d's LID up to %s (%d hops on), want a parent with the shortest onward route (%d hops)", name, sname, g, top.Nodes[f.sws[x]].Name, anyDist[x], anyDist[s]-1)
			case downDist[s] == inf:
				// Was a costlier parent after a cheapest one?
				cheapest := false
				_, end := f.ports(int32(s))
				for gp := first; gp < end; gp++ {
					y := f.next(gp)
					if y < 0 || level[y] <= level[s] || anyDist[y] == inf {
						continue
					}
					if anyDist[y] == anyDist[s]-1 {
						cheapest = true
					} else if cheapest {
						laterCostlier++
						break
					}
				}
			}
		}
	}
	return laterCostlier
}

// TestMutFtreeUpPortsFollowTheCheapestParent: ftree prices every switch
// that cannot go down to the destination at one more than its cheapest
// parent, and goes up to a parent of that cost (routing_ftree.go's doc).
// routing_ftree.go:190:101 (`cost[x]+1 < cost[s]` negated) priced it by
// its last parent and :190:98 (`cost[x]+1` to `cost[x]-1` in the
// comparison) by a later parent costing one more than the earlier.
//
// An irregular 3-level tree: leaves L0 and L1 under A, L0 also under B
// (its later port), A and B under T. Towards L1, L0's parents cost 1 (A,
// down to L1) and 3 (B, T, A, L1): L0 goes up to A, a 2-hop route. In a
// tree of levels the parents of a switch are one level up, so their costs
// differ by an even number and :190:98 changes nothing there; it does on a
// SHARP aggregation node (outside the tree, level 0), whose neighbours are
// all parents: one linked to leaf L0 (its port 1) and spine S0 (port 2) of
// an imported 2-leaf Clos goes up to L0 towards L0's host (cost 0 there,
// the spine's 1) and to S0 towards L1's (L0 costs 2 there, S0 1). Then 60
// random irregular trees of 3 levels, each switch with one or two random
// parents.
func TestMutFtreeUpPortsFollowTheCheapestParent(t *testing.T) {
	{
		top := &Topology{Kind: "fattree"}
		sw := addLeveled(top, 4, leveled{"L0", 1}, leveled{"L1", 1}, leveled{"A", 2}, leveled{"B", 2}, leveled{"T", 3})
		mustLink(top, top.AddHost("H0"), 0, sw["L0"], 0)
		mustLink(top, top.AddHost("H1"), 0, sw["L1"], 0)
		mustLink(top, sw["L0"], 1, sw["A"], 0)
		mustLink(top, sw["L0"], 2, sw["B"], 0)
		mustLink(top, sw["L1"], 1, sw["A"], 1)
		mustLink(top, sw["A"], 2, sw["T"], 0)
		mustLink(top, sw["B"], 2, sw["T"], 1)
		r, err := ComputeRoutes(top, "ftree", 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.LFT[0][1]; got != 1 {
			t.Errorf("L0 towards H1: port %d, want 2 (to A, which reaches L1 going down)", got+1)
		}
		if n := ftreeCheck(t, "irregular tree", top, []int{1, 1, 2, 2, 3}, r); n == 0 {
			t.Error("irregular tree: no switch with a costlier parent after its cheapest")
		}
	}
	{
		top := importedClos(2, 1, 1, 1, 1) // L0, L1: port 0 host, 1 to S0, 2 free; S0: port 0 L0, 1 L1, 2 free
		agg := top.AddSwitch("agg", 2)
		top.Nodes[agg].Adapter = true
		mustLink(top, agg, 0, top.Lookup("L0"), 2)
		mustLink(top, agg, 1, top.Lookup("S0"), 2)
		r, err := ComputeRoutes(top, "ftree", 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		const a = 3 // agg's switch index
		if got := r.LFT[a]; got[0] != 0 || got[1] != 1 {
			t.Errorf("agg towards Ha0, Hb0: ports %d, %d, want 1 (to L0), 2 (to S0)", got[0]+1, got[1]+1)
		}
		ftreeCheck(t, "aggregation node", top, []int{1, 1, 2, 0}, r)
	}

	rng := rand.New(rand.NewPCG(13, 190))
	routed, laterCostlier := 0, 0
	for c := range 60 {
		top := &Topology{Kind: "fattree"}
		var byLevel [4][]NodeID
		var level []int
		for l, count := range []int{0, 3 + rng.IntN(3), 2 + rng.IntN(3), 1 + rng.IntN(2)} {
			for i := range count {
				byLevel[l] = append(byLevel[l], top.AddSwitch(fmt.Sprintf("L%d-%d", l, i), 8))
				top.Nodes[byLevel[l][i]].Level = l
				level = append(level, l)
			}
		}
		used := map[NodeID]int{}
		link := func(a, b NodeID) {
			mustLink(top, a, used[a], b, used[b])
			used[a]++
			used[b]++
		}
		for l := 1; l < 3; l++ {
			for _, s := range byLevel[l] {
				parents := byLevel[l+1]
				p := rng.Perm(len(parents))
				for _, i := range p[:min(len(p), 1+rng.IntN(2))] {
					link(s, parents[i])
				}
			}
		}
		hosts := 0
		for _, s := range byLevel[1] {
			for range 1 + rng.IntN(2) {
				link(top.AddHost(fmt.Sprintf("H%d", hosts)), s)
				hosts++
			}
		}
		r, err := ComputeRoutes(top, "ftree", 0, 1)
		if err != nil {
			if !errors.Is(err, ErrBadScenario) || !strings.Contains(err.Error(), "does not reach") {
				t.Fatalf("tree %d: %v", c, err)
			}
			continue // no common ancestor for some pair
		}
		routed++
		laterCostlier += ftreeCheck(t, fmt.Sprintf("tree %d", c), top, level, r)
	}
	t.Logf("%d of 60 trees routed, %d switches with a costlier parent after the cheapest", routed, laterCostlier)
	if routed < 20 || laterCostlier < 10 {
		t.Errorf("%d of 60 trees routed, %d switches with a costlier parent after the cheapest: too few", routed, laterCostlier)
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
