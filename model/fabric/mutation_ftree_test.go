package fabric

import "testing"

// TestMutFtreeDeadEndsLinkedToEachOther checks ftree's routes of two dead
// ends (treeLevels: outside the tree, level 0, no route passes them) linked
// to each other. On a 2-leaf, 1-spine Clos read from ibnetdiscover, SHARP
// aggregation node A hangs off the spine and aggregation node B off A only.
// A reaches every host going up to the spine (its port 1), whatever B
// holds; B's one neighbour, A, is at its own level, not a parent, so B has
// no route to any host rather than one through A. Only up routes to a
// higher level are priced: a switch is priced after those above it, so a
// neighbour at its own level may not be priced yet for this destination.
func TestMutFtreeDeadEndsLinkedToEachOther(t *testing.T) {
	top := importedClos(2, 1, 1, 0, 1)
	a := top.AddSwitch("aggA", 2)
	b := top.AddSwitch("aggB", 1)
	top.Nodes[a].Adapter, top.Nodes[b].Adapter = true, true
	mustLink(top, top.Lookup("S0"), 2, a, 0)
	mustLink(top, a, 1, b, 0)
	r, err := ComputeRoutes(top, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	sws := top.Switches()
	idx := func(n NodeID) int {
		for s, x := range sws {
			if x == n {
				return s
			}
		}
		t.Fatalf("%s is not a switch", top.Nodes[n].Name)
		return -1
	}
	for lid := range len(top.Hosts()) {
		if got := r.LFT[idx(a)][lid]; got != 0 {
			t.Errorf("aggA towards LID %d: port %d, want its port 1 to the spine (local 0)", lid, got+1)
		}
		if got := r.LFT[idx(b)][lid]; got != NoRoute {
			t.Errorf("aggB towards LID %d: port %d, want no route (its one link leads to aggA, a dead end)", lid, got+1)
		}
	}
}
