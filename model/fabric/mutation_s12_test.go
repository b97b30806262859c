package fabric

import (
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
		{"loop", func(r *Routes) { r.LFT[1][1] = 1 }, "host H0 does not reach host H1 at LID 1: adaptive choices loop through switch"},
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
// (a host each); D hangs off SP only, by two links, and is farthest from
// the hosts (2 hops), but as a dead end it is not ranked: SP is the root.
// E hangs off A (not switch 0): also a dead end.
func TestMutDeadEndOffSwitchZero(t *testing.T) {
	top := &Topology{}
	sp := top.AddSwitch("SP", 4)
	a, b := top.AddSwitch("A", 4), top.AddSwitch("B", 4)
	d, e := top.AddSwitch("D", 4), top.AddSwitch("E", 4)
	for _, l := range [][2]NodeID{{a, sp}, {b, sp}, {d, sp}, {d, sp}, {e, a}, {top.AddHost("HA"), a}, {top.AddHost("HB"), b}} {
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
// the speed mask from 1 to 7 (all widths: 12x; all speeds: QDR), both ends
// included; 16 and 8 are refused naming the file and line. A link runs at
// the widest width and the fastest speed both ends enable.
func TestMutIBSimMasksAtTheirEnds(t *testing.T) {
	topo, _, err := ReadIBNetDiscover("net", strings.NewReader(ibsimTwoNodes("width=15\nspeed=7\n", "Switch\t8 \"sw1\"", "")))
	if err != nil {
		t.Fatalf("width=15 speed=7: %v", err)
	}
	if len(topo.Links) != 1 || topo.Links[0].Gbps != 12*8 {
		t.Fatalf("width=15 speed=7: links %+v, want one of 12x QDR (96 Gbit/s)", topo.Links)
	}
	for _, c := range []struct{ head, want string }{
		{"width=16\n", "net:1: width=16: want an ibsim width mask from 1 to 15"},
		{"speed=8\n", "net:1: speed=8: want an ibsim speed mask from 1 to 7"},
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
	sw := map[string]NodeID{}
	for _, s := range []struct {
		name  string
		level int
	}{{"A", 1}, {"B", 1}, {"C", 2}, {"D", 3}} {
		sw[s.name] = top.AddSwitch(s.name, 4)
		top.Nodes[sw[s.name]].Level = s.level
	}
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
