package fabric

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

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

// TestFtreeRoutesASingleImportedSwitch: a fabric of one switch and its
// hosts, read without levels, is a fat tree of one level: the switch is
// both its leaf and its root (0 hops from the roots), and ftree routes each
// host to the port it hangs off. (Written against levelsFromRoots' `d[s] <
// 0` turned into `d[s] <= 0`, which it does not kill: where that refuses a
// leaf that is a root, treeLevels' fallback ranks the same levels;
// docs/mutation-log.md, session 18.)
func TestFtreeRoutesASingleImportedSwitch(t *testing.T) {
	top, err := GenerateTopology("fattree", TopoParams{K: 4, Levels: 1, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	for n := range top.Nodes {
		top.Nodes[n].Level = 0
	}
	top.Kind = "ibnetdiscover"
	r, err := ComputeRoutes(top, "ftree", 0, 1)
	if err != nil {
		t.Fatalf("ftree on one switch read without levels: %v", err)
	}
	f := NewFabric(top)
	for h := range f.hosts {
		if got, want := r.LFT[0][h], f.attachPort[h]; got != want {
			t.Errorf("host %d: port %d, want %d, the port it hangs off", h, got, want)
		}
	}
}
