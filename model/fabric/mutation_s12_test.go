package fabric

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Tests for the mutation survivors of session 11's model/fabric
// measurement that were not examined then (docs/testing.md, "Results of
// 2026-11-26 (session 12): model/fabric").

// TestMutAdaptiveTablesOnlyGroups: where every equal-cost port would be
// too many, a group keeps the equal-cost ports the switch's own table
// sends some LID of the destination switch's hosts to (routing_adaptive.go's
// doc), and a table entry without a route adds none. A 2-leaf, 2-spine Clos
// with lmc 1 and hand-made tables: L0 sends H1's two LIDs up by S0 and S1,
// so L0 -> L1 is the group {2, 3} (ports counting from 1); L1 sends both
// of H0's LIDs by S0 (one port: no group, though both up ports are
// equal-cost), the spines have one port down, so no other group.
func TestMutAdaptiveTablesOnlyGroups(t *testing.T) {
	top := closTopo(2, 1, 2) // L0, L1: port 0 host, 1 to S0, 2 to S1; S0, S1: port 0 L0, 1 L1
	f := NewFabric(top)
	r := f.newRoutes(1)
	const l0, l1, s0, s1 = 0, 1, 2, 3
	// LIDs 0, 1: H0 (on L0); 2, 3: H1 (on L1).
	r.LFT[l0] = []int32{0, 0, 1, 2}
	r.LFT[l1] = []int32{1, 1, 0, NoRoute}
	r.LFT[s0] = []int32{0, 0, 1, 1}
	r.LFT[s1] = []int32{0, 0, 1, 1}
	for _, tablesOnly := range []bool{true, false} {
		ar := buildGroups(f, r, tablesOnly)
		want := map[[2]int][]uint8{{l0, l1}: {1, 2}}
		if !tablesOnly {
			want[[2]int{l1, l0}] = []uint8{1, 2} // every equal-cost port
		}
		for s := range 4 {
			for d := range 4 {
				gi := ar.Group[s*4+d]
				w, ok := want[[2]int{s, d}]
				switch {
				case !ok && gi >= 0:
					t.Errorf("tablesOnly %v: group %d -> %d %v, want none", tablesOnly, s, d, ar.Ports[gi])
				case ok && gi < 0:
					t.Errorf("tablesOnly %v: no group %d -> %d, want %v", tablesOnly, s, d, w)
				case ok && !slices.Equal(ar.Ports[gi], w):
					t.Errorf("tablesOnly %v: group %d -> %d %v, want %v", tablesOnly, s, d, ar.Ports[gi], w)
				}
			}
		}
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

// TestMutClosSpineOfExactlyMaxPorts: a Clos spine may have exactly
// MaxSwitchPorts ports (leaves × links_per_pair), not more: 2 leaves of
// 127 links to one spine give a spine of 254 ports, 128 links are refused.
func TestMutClosSpineOfExactlyMaxPorts(t *testing.T) {
	p := TopoParams{Leaves: 2, Spines: 1, HostsPerLeaf: 1, LinksPerPair: MaxSwitchPorts / 2, HostGbps: 8, SwitchGbps: 8}
	top, err := GenerateTopology("clos", p)
	if err != nil {
		t.Fatalf("a spine of %d ports: %v", MaxSwitchPorts, err)
	}
	for _, n := range top.Switches() {
		if nd := top.Nodes[n]; nd.Level == 2 && nd.Ports != MaxSwitchPorts {
			t.Errorf("spine %s has %d ports, want %d", nd.Name, nd.Ports, MaxSwitchPorts)
		}
	}
	p.LinksPerPair++
	if _, err := GenerateTopology("clos", p); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("want at most %d ports per spine", MaxSwitchPorts)) {
		t.Errorf("a spine of %d ports: error %v, want the limit named", 2*p.LinksPerPair, err)
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

// TestMutDORSecondHalfwayPathCrossesTheDateline: with LMC, path p of a host
// where p/R is odd (R orders) takes a halfway dimension with a dateline bit
// the way across the dateline (routing_dor.go's doc). On a ring of 6
// routers (one dimension, so R = 1; 6 routers: a dateline bit) with lmc 1,
// H0 (on R0) reaches H3 (on R3, halfway) by R1, R2 on LID path 0, the way
// without the dateline, and by R5, R4 on path 1, across the dateline
// between R0 and R5, with the dateline bit in its SL; H0 to H2 (not
// halfway) takes R1 on both paths.
func TestMutDORSecondHalfwayPathCrossesTheDateline(t *testing.T) {
	top := gridTopo([]int{6}, true, 1)
	r, err := ComputeRoutes(top, "dor", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFabric(top)
	routers := func(dst, p int) string {
		var names []string
		for _, gp := range trace(t, f, r, 0, r.LID(dst, p))[1:] {
			if pp := f.peer[gp]; f.host[f.owner[pp]] < 0 {
				names = append(names, top.Nodes[f.owner[pp]].Name)
			}
		}
		return strings.Join(names, " ")
	}
	for _, c := range []struct {
		dst, p int
		want   string
		sl     int
	}{{3, 0, "R1 R2 R3", 0}, {3, 1, "R5 R4 R3", 1}, {2, 0, "R1 R2", 0}, {2, 1, "R1 R2", 0}} {
		if got := routers(c.dst, c.p); got != c.want {
			t.Errorf("H0 to H%d, path %d: by %s, want %s", c.dst, c.p, got, c.want)
		}
		if sl := r.SL(0, r.LID(c.dst, c.p)); sl != c.sl {
			t.Errorf("H0 to H%d, path %d: SL %d, want %d", c.dst, c.p, sl, c.sl)
		}
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

// TestMutAdaptiveGroupOfParallelLinks: a group holds every port one hop
// nearer the destination switch, parallel links to it included: on a Clos
// of 2 leaves and 1 spine with 2 links per pair, the spine's group towards
// each leaf is its two links to it, and each leaf's towards the other its
// two uplinks (ports counting from 1).
func TestMutAdaptiveGroupOfParallelLinks(t *testing.T) {
	top, err := GenerateTopology("clos", TopoParams{Leaves: 2, Spines: 1, HostsPerLeaf: 1, LinksPerPair: 2, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ARGroupsString(top, "minhop", 0, RoutingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const want = "L1->L2: 2,3\nL2->L1: 2,3\nS1->L1: 1,2\nS1->L2: 3,4\n"
	if got != want {
		t.Errorf("groups\n%s\nwant\n%s", got, want)
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

// TestMutAdaptiveCycleNamesItsPorts: a channel cycle the adaptive choices
// close is named as the routing check names one, switch ports counting
// from 1: clockwise tables on a ring of 4 (the groups from the tables are
// none: one port per destination switch).
func TestMutAdaptiveCycleNamesItsPorts(t *testing.T) {
	top := ringTopo(4)
	f := NewFabric(top)
	r := clockwiseRoutes(f)
	const want = "deadlock possible: channel cycle on VL 0: S0 port 2 -> S1 port 2 -> S2 port 2 -> S3 port 2 -> S0 port 2"
	if err := f.checkAdaptive(r, buildGroups(f, r, true)); err == nil || err.Error() != want {
		t.Errorf("err %v, want %s", err, want)
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
