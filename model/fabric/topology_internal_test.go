package fabric

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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

// TestMutFtreeUpChoiceDividesByTheLeavesUpPorts checks ftree's documented
// choice going up above the leaves: a level-2 switch takes choice
// floor(d / U_1) mod c among its c equal up ports, U_1 being the greatest
// number of up ports of a leaf. The tree is irregular, and its switch 0 is
// a level-2 switch every leaf links to (generated trees number the leaves
// first): leaves A, B, C, D (level 1, hosts 2g and 2g+1 on leaf g) each
// link up to M0 (switch 0), A and B also to M1, C and D also to M2, so
// U_1 = 2; M1 and M2 link up to T0 and T1 (level 3). M1 reaches C and D
// only going up (over T0 or T1, then M2), and so does M2 for A and B: hosts
// d = 0, 1 (4, 5) go by T0, d = 2, 3 (6, 7) by T1 (d mod 2 would alternate).
func TestMutFtreeUpChoiceDividesByTheLeavesUpPorts(t *testing.T) {
	top := &Topology{Kind: "fattree"}
	sw := addLeveled(top, 6, leveled{"M0", 2}, leveled{"M1", 2}, leveled{"M2", 2}, leveled{"A", 1}, leveled{"B", 1},
		leveled{"C", 1}, leveled{"D", 1}, leveled{"T0", 3}, leveled{"T1", 3})
	for _, l := range [][2]string{
		{"A", "M0"}, {"B", "M0"}, {"C", "M0"}, {"D", "M0"},
		{"A", "M1"}, {"B", "M1"}, {"C", "M2"}, {"D", "M2"},
		{"M1", "T0"}, {"M1", "T1"}, {"M2", "T0"}, {"M2", "T1"},
	} {
		if err := top.Connect(sw[l[0]], sw[l[1]], testGbps); err != nil {
			t.Fatal(err)
		}
	}
	for g := range 8 {
		if err := top.Connect(top.AddHost(fmt.Sprintf("H%d", g)), sw[string(rune('A'+g/2))], testGbps); err != nil {
			t.Fatal(err)
		}
	}
	r, err := ComputeRoutes(top, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	// M1's ports: 0 to A, 1 to B, 2 to T0, 3 to T1; M2's the same with C, D.
	for _, c := range []struct {
		sw   string
		want [8]int32 // local port towards host d; -1: not checked here
	}{
		{"M1", [8]int32{-1, -1, -1, -1, 2, 2, 3, 3}},
		{"M2", [8]int32{2, 2, 3, 3, -1, -1, -1, -1}},
	} {
		s := int(sw[c.sw]) // switches were added first: node ID = switch index
		for d, want := range c.want {
			if want >= 0 && r.LFT[s][d] != want {
				t.Errorf("%s towards host %d: local port %d, want %d", c.sw, d, r.LFT[s][d], want)
			}
		}
	}
}

// TestMutDeadEndOffSwitchZero: a switch-like node with links to one switch
// only and no host is a dead end, never an updn root, whichever switch it
// hangs off, switch 0 included. Switch 0 is the spine SP of leaves A and B
// (a host each); D hangs off SP only, on SP's port 0 (the fabric's first
// port), and is farthest from the hosts (2 hops), but as a dead end it is
// not ranked: SP is the root. E hangs off A (not switch 0): also a dead end.
func TestMutDeadEndOffSwitchZero(t *testing.T) {
	top := &Topology{}
	sp := top.AddSwitch("SP", 4)
	a, b := top.AddSwitch("A", 4), top.AddSwitch("B", 4)
	d, e := top.AddSwitch("D", 4), top.AddSwitch("E", 4)
	// D's first link is SP's port 0, global port 0 of the fabric.
	for _, l := range [][2]NodeID{{sp, d}, {a, sp}, {b, sp}, {e, a}, {top.AddHost("HA"), a}, {top.AddHost("HB"), b}} {
		if err := top.Connect(l[0], l[1], testGbps); err != nil {
			t.Fatal(err)
		}
	}
	f := NewFabric(top)
	for s, want := range []bool{false, false, false, true, true} {
		if got := f.deadEnd(int32(s)); got != want {
			t.Errorf("deadEnd(%s) = %v, want %v", top.Nodes[f.sws[s]].Name, got, want)
		}
	}
	if got := updnRootNames(t, top); !slices.Equal(got, []string{"SP"}) {
		t.Errorf("updn roots %v, want [SP]", got)
	}
}

// ibsimTwoNodes is an ibsim net file of one switch and one host linked
// port 1 to port 1, with head before the switch and portOpts on the
// switch's port line.
func ibsimTwoNodes(head, switchLine, portOpts string) string {
	return head + switchLine + "\n[1]\t\"h1\"[1]\t" + portOpts + "\n\nHca\t1 \"h1\"\n[1]\t\"sw1\"[1]\n"
}

// TestMutIBSimMasksAtTheirEnds: ibsim's width mask runs from 1 to 15 and
// the speed mask from 1 to 7 (all widths: 12x; all speeds: QDR; 1: 1x,
// SDR), both ends included; 0, 16 and 8 are refused naming the file and
// line. A link runs at
// the widest width and the fastest speed both ends enable.
func TestMutIBSimMasksAtTheirEnds(t *testing.T) {
	for _, c := range []struct {
		head string
		gbps float64
	}{{"width=15\nspeed=7\n", 12 * 8}, {"width=1\nspeed=1\n", 2}} {
		topo, _, err := ReadIBNetDiscover("net", strings.NewReader(ibsimTwoNodes(c.head, "Switch\t8 \"sw1\"", "")))
		if err != nil {
			t.Fatalf("%q: %v", c.head, err)
		}
		if len(topo.Links) != 1 || topo.Links[0].Gbps != c.gbps {
			t.Errorf("%q: links %+v, want one of %g Gbit/s (12x QDR, 1x SDR)", c.head, topo.Links, c.gbps)
		}
	}
	for _, c := range []struct{ head, want string }{
		{"width=16\n", "net:1: width=16: want an ibsim width mask from 1 to 15"},
		{"speed=8\n", "net:1: speed=8: want an ibsim speed mask from 1 to 7"},
		{"width=0\n", "net:1: width=0: want an ibsim width mask from 1 to 15"},
		{"speed=0\n", "net:1: speed=0: want an ibsim speed mask from 1 to 7"},
	} {
		if _, _, err := ReadIBNetDiscover("net", strings.NewReader(ibsimTwoNodes(c.head, "Switch\t8 \"sw1\"", ""))); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.head, err, c.want)
		}
	}
}

// TestMutIBSimPortOptionsAllApply: a port line's w= and s= both apply,
// whichever comes first: with every width and speed enabled before the
// nodes, w=1 s=1 on the switch's port gives a 1x SDR link (2 Gbit/s), and
// a bad option after a good one is refused.
func TestMutIBSimPortOptionsAllApply(t *testing.T) {
	for _, opts := range []string{"w=1 s=1", "s=1 w=1", "s=4 w=1"} {
		topo, _, err := ReadIBNetDiscover("net", strings.NewReader(ibsimTwoNodes("width=15\nspeed=7\n", "Switch\t8 \"sw1\"", opts)))
		if err != nil {
			t.Fatalf("%s: %v", opts, err)
		}
		want := 2.0
		if opts == "s=4 w=1" {
			want = 8 // 1x QDR
		}
		if len(topo.Links) != 1 || topo.Links[0].Gbps != want {
			t.Errorf("%s: links %+v, want one of %g Gbit/s", opts, topo.Links, want)
		}
	}
	const want = "net:4: w=16: want an ibsim mask"
	if _, _, err := ReadIBNetDiscover("net", strings.NewReader(ibsimTwoNodes("width=15\nspeed=7\n", "Switch\t8 \"sw1\"", "s=1 w=16"))); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("s=1 w=16: err %v, want %q", err, want)
	}
}

// TestMutIBSimEmptyDescriptionIsTheID: an ibsim node whose description is
// empty ("") is described by its id, as one without a description.
func TestMutIBSimEmptyDescriptionIsTheID(t *testing.T) {
	for _, line := range []string{"Switch\t8 \"sw1\"", "Switch\t8 \"sw1\"\t# \"\"", "Switch\t8 \"sw1\"\t# \"\" lid 3"} {
		topo, _, err := ReadIBNetDiscover("net", strings.NewReader(ibsimTwoNodes("", line, "")))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if sw := topo.Switches(); len(sw) != 1 || topo.Nodes[sw[0]].Name != "sw1" {
			t.Errorf("%q: switch named %q, want sw1", line, topo.Nodes[sw[0]].Name)
		}
	}
}

// TestMutIBNetDiscoverUnterminatedDescription: a node description is the
// text in quotes after '#'; a lone opening quote gives no description, so
// the node is called by its id, and the file is read.
func TestMutIBNetDiscoverUnterminatedDescription(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "ibnetdiscover", "small.txt"))
	if err != nil {
		t.Fatal(err)
	}
	const line = "Ca\t2 \"H-0002c903000a1b40\"\t\t# \"H4 HCA-1\""
	text := string(data)
	if !strings.Contains(text, line) {
		t.Fatalf("small.txt has no line %q", line)
	}
	text = strings.Replace(text, line, "Ca\t2 \"H-0002c903000a1b40\"\t\t# \"", 1)
	topo, _, err := ReadIBNetDiscover("small.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, h := range topo.Hosts() {
		names = append(names, topo.Nodes[h].Name)
	}
	if !slices.Contains(names, "H-0002c903000a1b40") || slices.Contains(names, "H4") {
		t.Errorf("hosts %v, want H-0002c903000a1b40 for the one without a description, no H4", names)
	}
}

// TestMutFtreeNamesTheLinkThatSkipsALevel: ftree refuses a link joining
// levels that are not adjacent, naming the switch, its port (counting from
// 1) and the levels. Leaves A and B (level 1, a host each), C (level 2)
// above both, D (level 3) above C; B also links to D. Switch B (not switch
// 0, so its ports do not start at global port 0) finds it first: its port
// 2 (1: C, 2: D; its host comes last).
func TestMutFtreeNamesTheLinkThatSkipsALevel(t *testing.T) {
	top := &Topology{Kind: "fattree"}
	sw := addLeveled(top, 4, leveled{"A", 1}, leveled{"B", 1}, leveled{"C", 2}, leveled{"D", 3})
	mustLink(top, sw["A"], 0, sw["C"], 0)
	mustLink(top, sw["B"], 0, sw["C"], 1)
	mustLink(top, sw["C"], 2, sw["D"], 0)
	mustLink(top, sw["B"], 1, sw["D"], 1)
	mustLink(top, top.AddHost("HA"), 0, sw["A"], 3)
	mustLink(top, top.AddHost("HB"), 0, sw["B"], 3)
	const want = "the link from B port 2 to D joins levels 1 and 3; a fat tree links adjacent levels only"
	if _, err := ComputeRoutes(top, "ftree", 0, 1); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v, want %q", err, want)
	}
}

// TestMutDORComputedWhateverTheLinkPorts: dor computes its routes from
// coordinates wherever the grid is complete, whichever local ports its
// links use: meshes and tori whose routers have their links on the first
// ports (port 0 included) and their hosts on the last are computed, and
// the computed ports are the tables'.
func TestMutDORComputedWhateverTheLinkPorts(t *testing.T) {
	for _, c := range []struct {
		dims []int
		wrap bool
		hpr  int
	}{{[]int{3}, false, 1}, {[]int{3, 2}, false, 2}, {[]int{4, 3}, true, 1}} {
		top := gridTopo(c.dims, c.wrap, c.hpr)
		for i := range top.Links { // port p of a router becomes ports-1-p
			l := &top.Links[i]
			if n := top.Nodes[l.A]; !n.Host {
				l.APort = n.Ports - 1 - l.APort
			}
			if n := top.Nodes[l.B]; !n.Host {
				l.BPort = n.Ports - 1 - l.BPort
			}
		}
		name := fmt.Sprintf("%s %v, %d hosts a router", top.Kind, c.dims, c.hpr)
		if !DORComputed(top, 0) {
			t.Errorf("%s, links from port 0: not computed", name)
			continue
		}
		f := NewFabric(top)
		d, err := f.dorSetup(0)
		if err != nil {
			t.Fatal(err)
		}
		r, err := f.dimensionOrder(0, d.need)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for s := range f.sws {
			for lid, want := range r.LFT[s] {
				if got := d.Port(int32(s), int32(lid)); got != want {
					t.Fatalf("%s: switch %s, LID %d: computed port %d, table %d", name, top.Nodes[f.sws[s]].Name, lid, got, want)
				}
			}
		}
	}
}

// TestMutHopsToSolvesTheHopEquations: HopsTo's distances are the least
// solution of dist[dst] = 0 and dist[v] = 1 + min over v's neighbours u that
// forward (switches, and dst itself) of dist[u], -1 where no neighbour has
// one: checked for every destination of a Clos, a torus and a random
// fabric, and dist[dst] = 0 in particular.
func TestMutHopsToSolvesTheHopEquations(t *testing.T) {
	for name, top := range map[string]*Topology{
		"clos":   closTopo(3, 2, 2),
		"torus":  gridTopo([]int{3, 3}, true, 1),
		"random": randomTopo(5, 7, 4, 3, 9, 3),
	} {
		adj := top.Neighbours()
		dist := make([]int, len(top.Nodes))
		for dst := range top.Nodes {
			top.HopsTo(adj, NodeID(dst), dist)
			for v := range top.Nodes {
				want := -1
				if v == dst {
					want = 0
				} else {
					for _, u := range adj[v] {
						if (int(u) == dst || !top.Nodes[u].Host) && dist[u] >= 0 && (want < 0 || dist[u]+1 < want) {
							want = dist[u] + 1
						}
					}
				}
				if dist[v] != want {
					t.Fatalf("%s: %s to %s: %d hops, want %d", name, top.Nodes[v].Name, top.Nodes[dst].Name, dist[v], want)
				}
			}
		}
	}
}

// TestMutCentralSwitchBreaksEccentricityTiesBySum: the central switch is
// the live switch of least eccentricity, ties going to the least total hop
// count. A ring S0-S1-S2-S3 with Z hanging off S1: S0, S1 and S2 have
// eccentricity 2, and S1 the least sum (1+1+2+1 = 5, S0 and S2 6), so S1,
// though S0 comes first.
func TestMutCentralSwitchBreaksEccentricityTiesBySum(t *testing.T) {
	top := &Topology{}
	var s [4]NodeID
	for i := range s {
		s[i] = top.AddSwitch(fmt.Sprintf("S%d", i), 4)
	}
	z := top.AddSwitch("Z", 2)
	for _, l := range [][2]NodeID{{s[0], s[1]}, {s[1], s[2]}, {s[2], s[3]}, {s[3], s[0]}, {s[1], z}, {top.AddHost("H"), s[0]}} {
		if err := top.Connect(l[0], l[1], testGbps); err != nil {
			t.Fatal(err)
		}
	}
	f := NewFabric(top)
	if got := f.centralSwitch(f.liveSwitches()); top.Nodes[f.sws[got]].Name != "S1" {
		t.Errorf("central switch %s, want S1", top.Nodes[f.sws[got]].Name)
	}
}

// TestMutIBSimDescriptionRightAfterTheID: an ibsim node's description
// follows the '#' after its id, with or without blanks between them.
func TestMutIBSimDescriptionRightAfterTheID(t *testing.T) {
	for _, line := range []string{"Switch\t8 \"sw1\"\t# \"leafA\"", "Switch\t8 \"sw1\"#\"leafA\""} {
		topo, _, err := ReadIBNetDiscover("net", strings.NewReader(ibsimTwoNodes("", line, "")))
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if sw := topo.Switches(); len(sw) != 1 || topo.Nodes[sw[0]].Name != "leafA" {
			t.Errorf("%q: switch named %q, want leafA", line, topo.Nodes[sw[0]].Name)
		}
	}
}

// TestMutUpdnRootsAreTheTopLevelEvenWhenNotFarthest checks updn's roots on a
// levelled fabric where OpenSM's rule gives none: every switch has a Level,
// so the roots are the switches of the highest Level, even where that level
// is not the farthest from the hosts. Leaves A and B (Level 1, a host each)
// are linked to C (Level 2) and to D (Level 3), and C to D: C and D each
// have both hosts one hop away, so OpenSM's rule takes both, but they are
// linked (minHopRoots: nil); they are also the farthest switches, but D
// alone is the top. D as the one root is legal (A up to D, down to B), so
// it stays. The roots of every other level (A, B and C) leave A without a
// legal route to B (each path goes down to C or D, then up), which would
// also end in C and D.
func TestMutUpdnRootsAreTheTopLevelEvenWhenNotFarthest(t *testing.T) {
	top := &Topology{Kind: "clos"}
	sw := addLeveled(top, 4, leveled{"A", 1}, leveled{"B", 1}, leveled{"C", 2}, leveled{"D", 3})
	for _, l := range [][2]NodeID{
		{top.AddHost("HA"), sw["A"]}, {top.AddHost("HB"), sw["B"]},
		{sw["A"], sw["C"]}, {sw["B"], sw["C"]}, {sw["A"], sw["D"]}, {sw["B"], sw["D"]}, {sw["C"], sw["D"]},
	} {
		if err := top.Connect(l[0], l[1], 10); err != nil {
			t.Fatal(err)
		}
	}
	if got := NewFabric(top).farthestSwitches(); len(got) != 2 {
		t.Fatalf("%d switches farthest from the hosts, want C and D", len(got))
	}
	if got := updnRootNames(t, top); !slices.Equal(got, []string{"D"}) {
		t.Errorf("roots %v, want [D], the top Level", got)
	}
}
