package fabric

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// routeFTree routes top by ftree with lmc and opts, tables and compact
// form both, unchecked.
func routeFTree(tb testing.TB, top *Topology, lmc int, opts RoutingOptions) (*Fabric, *Routes) {
	tb.Helper()
	f, err := prepareFabric(top, "ftree", lmc, 1, opts)
	if err != nil {
		tb.Fatal(err)
	}
	r, _, err := f.route("ftree", lmc, 1)
	if err != nil {
		tb.Fatalf("lmc %d: %v", lmc, err)
	}
	return f, r
}

// TestFTreeRouterMatchesTheTables compares ftree's compact forwarding with
// its tables, entry for entry (every switch, every LID, no route included),
// on generated k-ary n-trees and Clos networks (parallel links, lmc 0 to
// 2), a tree routed for a few compute nodes, an imported Clos with a
// storage host on a spine (with roots, and with the hosts of one leaf as
// compute nodes, which leaves entries without a route) and the
// imported fat trees of testdata and examples; and checks that the compact
// form is small: per switch, at most the switches whose hosts it routes to.
func TestFTreeRouterMatchesTheTables(t *testing.T) {
	type fabricCase struct {
		name string
		top  *Topology
		opts RoutingOptions
		// noRoute: some entries have no route (the case is there for them).
		noRoute bool
	}
	var cases []fabricCase
	gen := func(kind string, p TopoParams) *Topology {
		t.Helper()
		top, err := GenerateTopology(kind, p)
		if err != nil {
			t.Fatal(err)
		}
		return top
	}
	for k := 2; k <= 6; k++ {
		for levels := 1; levels <= 4; levels++ {
			hosts := 1
			for range levels {
				hosts *= k
			}
			if hosts > 300 {
				continue
			}
			cases = append(cases, fabricCase{fmt.Sprintf("fattree k=%d n=%d", k, levels), gen("fattree", TopoParams{K: k, Levels: levels, HostGbps: 8, SwitchGbps: 8}), RoutingOptions{}, false})
		}
	}
	for _, c := range [][4]int{{4, 2, 3, 1}, {6, 3, 4, 2}, {5, 4, 7, 1}, {3, 5, 2, 3}, {2, 1, 5, 2}} {
		cases = append(cases, fabricCase{fmt.Sprintf("clos %v", c), gen("clos", TopoParams{Leaves: c[0], Spines: c[1], HostsPerLeaf: c[2], LinksPerPair: c[3], HostGbps: 8, SwitchGbps: 8}), RoutingOptions{}, false})
	}
	cases = append(cases, fabricCase{"clos 648", gen("clos", TopoParams{Preset: "648"}), RoutingOptions{}, false})
	k4 := gen("fattree", TopoParams{K: 4, Levels: 3, HostGbps: 8, SwitchGbps: 8})
	var names []string
	for _, h := range k4.Hosts() {
		names = append(names, k4.Nodes[h].Name)
	}
	for _, cn := range [][]string{names[:1], names[:8], names[20:]} {
		cases = append(cases, fabricCase{fmt.Sprintf("fattree k=4 n=3, %d compute nodes", len(cn)), k4, RoutingOptions{ComputeNodes: cn}, false})
	}
	// A spine listed before the leaves: the first host's switch is switch
	// 1, not 0 (the routing computes candidates per destination switch and
	// must not take switch 1's for computed before any).
	spineFirst := &Topology{Kind: "ibnetdiscover"}
	s0 := spineFirst.AddSwitch("S0", 4)
	var leafs []NodeID
	for i := range 2 {
		leafs = append(leafs, spineFirst.AddSwitch(fmt.Sprintf("L%d", i), 4))
		for j := range 2 {
			mustLink(spineFirst, spineFirst.AddHost(fmt.Sprintf("H%d%d", i, j)), 0, leafs[i], j)
		}
	}
	s1 := spineFirst.AddSwitch("S1", 4)
	for i, l := range leafs {
		mustLink(spineFirst, l, 2, s0, i)
		mustLink(spineFirst, l, 3, s1, i)
	}
	cases = append(cases, fabricCase{"imported clos, a spine first", spineFirst, RoutingOptions{}, false})
	storage := importedClos(4, 2, 2, 0, 1)
	mustLink(storage, storage.AddHost("storage"), 0, storage.Lookup("S0"), 4)
	cases = append(cases, fabricCase{"imported clos, storage on a spine, roots", storage, RoutingOptions{Roots: []string{"S0", "S1"}}, false},
		fabricCase{"imported clos, storage on a spine, one leaf's compute nodes", storage, RoutingOptions{ComputeNodes: []string{"Ha0", "Ha1"}}, true})
	for _, path := range []string{
		filepath.Join("testdata", "ibnetdiscover", "fattree.txt"),
		filepath.Join("..", "..", "examples", "fabrics", "clos648.txt"),
	} {
		if _, err := os.Stat(path); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, fabricCase{filepath.Base(path), readSample(t, path), RoutingOptions{}, false})
	}
	for _, c := range cases {
		for lmc := 0; lmc <= 2; lmc++ {
			f, r := routeFTree(t, c.top, lmc, c.opts)
			if r.FTree == nil {
				t.Fatalf("%s lmc %d: no compact forwarding", c.name, lmc)
			}
			noRoute := 0
			for s := range r.LFT {
				for lid, want := range r.LFT[s] {
					if want == NoRoute {
						noRoute++
					}
					if got := r.FTree.Port(int32(s), int32(lid)); got != want {
						t.Fatalf("%s lmc %d: switch %s, LID %d: port %d, the table %d", c.name, lmc, c.top.Nodes[f.sws[s]].Name, lid, got, want)
					}
				}
			}
			if c.noRoute && noRoute == 0 {
				t.Errorf("%s lmc %d: every entry routed; the case is meant to check entries without a route", c.name, lmc)
			}
			kept := 0
			for _, row := range r.FTree.rows {
				kept += len(row.ids)
			}
			if kept > len(f.sws)*len(f.sws) {
				t.Errorf("%s lmc %d: %d list numbers kept for %d switches", c.name, lmc, kept, len(f.sws))
			}
		}
	}
}

// TestFTreeRunRoutesKeepNoTables: a run's ftree routing (ComputeRunRoutes
// with computed) on a fabric of more than FTreeTablesUpTo entries (here
// the limit is 0) makes no tables, and its check follows the compact
// forwarding to the same verdict as the tables': routed where they route,
// the same error where a host has no route (compute nodes that leave
// hosts out). Under the limit, it keeps tables.
func TestFTreeRunRoutesKeepNoTables(t *testing.T) {
	top, err := GenerateTopology("fattree", TopoParams{K: 4, Levels: 3, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := ComputeRunRoutes(top, "ftree", 0, 1, RoutingOptions{}, true); err != nil || r.LFT == nil {
		t.Fatalf("under the limit: %v; want tables", err)
	}
	defer func(n int) { FTreeTablesUpTo = n }(FTreeTablesUpTo)
	FTreeTablesUpTo = 0
	var names []string
	for _, h := range top.Hosts() {
		names = append(names, top.Nodes[h].Name)
	}
	for _, cn := range [][]string{nil, names, names[:8], names[20:]} {
		opts := RoutingOptions{ComputeNodes: cn}
		for lmc := 0; lmc <= 1; lmc++ {
			tables, terr := ComputeRoutesWith(top, "ftree", lmc, 1, opts)
			run, rerr := ComputeRunRoutes(top, "ftree", lmc, 1, opts, true)
			if fmt.Sprint(terr) != fmt.Sprint(rerr) {
				t.Fatalf("%d compute nodes, lmc %d: the run's routing says %v, the tables' %v", len(cn), lmc, rerr, terr)
			}
			if terr != nil {
				continue
			}
			if run.LFT != nil || run.FTree == nil {
				t.Fatalf("%d compute nodes, lmc %d: the run's routing keeps tables (%v) or no compact form (%v)", len(cn), lmc, run.LFT != nil, run.FTree == nil)
			}
			for s := range tables.LFT {
				for lid, want := range tables.LFT[s] {
					if got := run.port(int32(s), int32(lid)); got != want {
						t.Fatalf("%d compute nodes, lmc %d: switch %d, LID %d: %d, the table %d", len(cn), lmc, s, lid, got, want)
					}
				}
			}
		}
	}
}

// TestFastDivMod checks the multiply-by-reciprocal division and remainder
// of the compact forwarding against the hardware's, for every list length
// (2 to 255) and divisors up to 2^31, at the edges (0, around the divisor's
// multiples, around 2^31 and 2^32) and at random numerators.
func TestFastDivMod(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 26))
	nums := func(d uint32) []uint32 {
		a := []uint32{0, 1, d - 1, d, d + 1, 2*d - 1, 2 * d, 1<<31 - 1, 1 << 31, 1<<32 - 1, 1<<32 - 2, (1<<32-1)/d*d - 1, (1<<32 - 1) / d * d}
		for range 200 {
			a = append(a, rng.Uint32())
		}
		return a
	}
	for d := uint32(2); d < 256; d++ {
		for _, a := range nums(d) {
			if got := fastMod(a, d); got != a%d {
				t.Fatalf("fastMod(%d, %d) = %d, want %d", a, d, got, a%d)
			}
		}
	}
	if fastMod(12345, 1) != 0 {
		t.Fatal("a list of one port: fastMod must give 0")
	}
	divisors := []uint32{2, 3, 7, 18, 36, 72, 121, 1 << 16, 1<<16 + 1, 1<<31 - 1, 1 << 31}
	for range 300 {
		divisors = append(divisors, 2+rng.Uint32N(1<<31-1))
	}
	for _, d := range divisors {
		m := divMagic(d)
		for _, a := range nums(d) {
			if got := fastDiv(a, m); got != a/d {
				t.Fatalf("fastDiv(%d, divMagic(%d)) = %d, want %d", a, d, got, a/d)
			}
		}
	}
}

// A list of equal ports too long to pack leaves ftree without its compact
// form, and a run's routing then keeps tables: a Clos of 2 leaves and 256
// spines gives each leaf 256 equal up ports.
func TestFTreeTooLongAListKeepsTables(t *testing.T) {
	b := newFTreeBuilder(1)
	if b.intern(true, make([]int32, 256)); !b.full || b.router(nil, 0, nil) != nil {
		t.Fatal("a list of 256 ports was packed")
	}
	top := &Topology{Kind: "clos"}
	var leaves, spines []NodeID
	for i := range 2 {
		leaves = append(leaves, top.AddSwitch(fmt.Sprintf("L%d", i), 257))
		mustLink(top, top.AddHost(fmt.Sprintf("H%d", i)), 0, leaves[i], 256)
	}
	for i := range 256 {
		spines = append(spines, top.AddSwitch(fmt.Sprintf("S%d", i), 2))
		for j, l := range leaves {
			mustLink(top, l, i, spines[i], j)
		}
	}
	for _, n := range leaves {
		top.Nodes[n].Level = 1
	}
	for _, n := range spines {
		top.Nodes[n].Level = 2
	}
	defer func(n int) { FTreeTablesUpTo = n }(FTreeTablesUpTo)
	FTreeTablesUpTo = 0
	r, err := ComputeRunRoutes(top, "ftree", 0, 1, RoutingOptions{}, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.FTree != nil || r.LFT == nil {
		t.Fatalf("compact form %v, tables %v; want tables alone", r.FTree != nil, r.LFT != nil)
	}
}

// TestFTreeRouterIsCompact: a switch's default is the list most of its
// destinations take, so it keeps list numbers only for the rest. On the
// 648-port Clos a leaf sends every other leaf's hosts up its one list and
// keeps none; a spine has a list per leaf, one its default, and keeps 35.
// On a 4-ary 3-tree a leaf keeps none, a middle switch the 4 leaves below
// it, and a top switch, whose 16 leaves share 4 lists (one per pod), keeps
// the 12 beyond its default's pod.
func TestFTreeRouterIsCompact(t *testing.T) {
	for _, c := range []struct {
		kind string
		p    TopoParams
		keep map[int]int // level -> list numbers kept by each switch
	}{
		{"clos", TopoParams{Preset: "648"}, map[int]int{1: 0, 2: 35}},
		{"fattree", TopoParams{K: 4, Levels: 3, HostGbps: 8, SwitchGbps: 8}, map[int]int{1: 0, 2: 4, 3: 12}},
	} {
		top, err := GenerateTopology(c.kind, c.p)
		if err != nil {
			t.Fatal(err)
		}
		f, r := routeFTree(t, top, 0, RoutingOptions{})
		var leaves []int32
		for s, n := range f.sws {
			if top.Nodes[n].Level == 1 {
				leaves = append(leaves, int32(s))
			}
		}
		for s, row := range r.FTree.rows {
			node := top.Nodes[f.sws[s]]
			if want := c.keep[node.Level]; len(row.ids) != want {
				t.Errorf("%s: switch %s (level %d) keeps %d list numbers, want %d", c.kind, node.Name, node.Level, len(row.ids), want)
			}
			// Of equally frequent lists the lowest numbered, the first
			// leaf's, is a Clos spine's default: it keeps the others'.
			if c.kind == "clos" && node.Level == 2 && row.lo != leaves[1] {
				t.Errorf("clos: spine %s keeps lists from switch %d, want %d (the second leaf)", node.Name, row.lo, leaves[1])
			}
		}
	}
}

// Naming the top switches of a 4-ary 3-tree as roots ranks it as its
// levels say (the leaves two hops below the roots), so ftree routes it as
// without them, entry for entry, and so does its compact form.
func TestFTreeRootsOfAThreeLevelTree(t *testing.T) {
	top, err := GenerateTopology("fattree", TopoParams{K: 4, Levels: 3, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	var roots []string
	for _, n := range top.Switches() {
		if top.Nodes[n].Level == 3 {
			roots = append(roots, top.Nodes[n].Name)
		}
	}
	plain, err := ComputeRoutes(top, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	rooted, err := ComputeRoutesWith(top, "ftree", 0, 1, RoutingOptions{Roots: roots})
	if err != nil {
		t.Fatalf("roots %v: %v", roots, err)
	}
	for s := range plain.LFT {
		for lid, want := range plain.LFT[s] {
			if rooted.LFT[s][lid] != want || rooted.FTree.Port(int32(s), int32(lid)) != want {
				t.Fatalf("switch %d, LID %d: %d with roots (compact %d), %d without", s, lid, rooted.LFT[s][lid], rooted.FTree.Port(int32(s), int32(lid)), want)
			}
		}
	}
}
