package fabric_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// readIBNetWarn reads a sample of testdata/ibnetdiscover with
// ReadIBNetDiscover, failing on an error.
func readIBNetWarn(t *testing.T, file string) (*fabric.Topology, []string) {
	t.Helper()
	topo, warns, err := fabric.ReadIBNetDiscover(file, bytes.NewReader(readIBNet(t, file)))
	if err != nil {
		t.Fatal(err)
	}
	checkWellFormed(t, topo)
	return topo, warns
}

// sameFabric fails unless a and b have the same switches, hosts (in order)
// and links.
func sameFabric(t *testing.T, a, b *fabric.Topology) {
	t.Helper()
	if !slices.Equal(nodeNames(a, a.Switches()), nodeNames(b, b.Switches())) ||
		!slices.Equal(nodeNames(a, a.Hosts()), nodeNames(b, b.Hosts())) ||
		!slices.Equal(linkList(a), linkList(b)) {
		t.Fatalf("fabrics differ:\n%v %v\n%v\nand\n%v %v\n%v", nodeNames(a, a.Switches()), nodeNames(a, a.Hosts()), linkList(a),
			nodeNames(b, b.Switches()), nodeNames(b, b.Hosts()), linkList(b))
	}
}

// TestIBNetDiscoverPuTTYLog reads small.txt as a PuTTY log keeps it (the
// log's header, the prompt and command, tabs as spaces, CRLF, a prompt at
// the end): the same fabric as small.txt, and one warning that counts the
// three skipped lines and quotes them.
func TestIBNetDiscoverPuTTYLog(t *testing.T) {
	want, warns := readIBNetWarn(t, "small.txt")
	if len(warns) != 0 {
		t.Fatalf("small.txt: warnings %q", warns)
	}
	got, warns := readIBNetWarn(t, "putty-log.txt")
	sameFabric(t, got, want)
	w := `putty-log.txt: skipped 3 lines that are not ibnetdiscover output: line 1 "=~=~=~=~=~=~=~=~=~=~=~= PuTTY log 2024.03.12 10:21:31 =~=...", ` +
		`line 2 "[root@login1 ~]# ibnetdiscover", line 77 "[root@login1 ~]#"`
	if !slices.Equal(warns, []string{w}) {
		t.Fatalf("warnings\n%q\nwant\n%q", warns, w)
	}
	// Tabs lost outright, not turned into spaces: "Switch36", "[1]\"H-...".
	text := strings.ReplaceAll(string(readIBNet(t, "small.txt")), "\t", "")
	if !strings.Contains(text, `Switch36 "S-0002c90200410b48"# "MF0;S2:IS4/U1"`) || !strings.Contains(text, `[1]"H-0002c903000a1b40"[1]`) {
		t.Fatal("the tabs are not where this test expects them")
	}
	got, warns, err := fabric.ReadIBNetDiscover("notabs.txt", strings.NewReader(text))
	if err != nil || len(warns) != 0 {
		t.Fatalf("without tabs: %v, warnings %q", err, warns)
	}
	sameFabric(t, got, want)
}

// TestIBNetDiscoverStrayLines: libibmad's messages before the output are
// skipped; of more than three skipped lines the warning quotes the first
// three and counts the rest.
func TestIBNetDiscoverStrayLines(t *testing.T) {
	want, _ := readIBNetWarn(t, "small.txt")
	got, warns := readIBNetWarn(t, "ibmad-error.txt")
	sameFabric(t, got, want)
	if len(warns) != 1 || !strings.HasPrefix(warns[0], `ibmad-error.txt: skipped 3 lines that are not ibnetdiscover output: line 1 "ibwarn: [4153] _do_madrpc: recv failed: Connection timed out", line 2 `) {
		t.Fatalf("warnings %q", warns)
	}
	text := "junk one\n" + string(readIBNet(t, "small.txt")) + "\njunk two\njunk three\njunk four\njunk five\n"
	_, warns, err := fabric.ReadIBNetDiscover("x.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	w := fmt.Sprintf(`x.txt: skipped 5 lines that are not ibnetdiscover output: line 1 "junk one", line %d "junk two", line %d "junk three", and 2 more`,
		strings.Count(text, "\n")-3, strings.Count(text, "\n")-2)
	if !slices.Equal(warns, []string{w}) {
		t.Fatalf("warnings\n%q\nwant\n%q", warns, w)
	}
	// Nothing but stray lines: no hosts, and the error says lines were skipped.
	_, _, err = fabric.ReadIBNetDiscover("x.txt", strings.NewReader("<html>\n<body>404</body>\n"))
	if err == nil || err.Error() != "x.txt: no hosts: no port of a Ca is linked (2 lines were skipped as not ibnetdiscover output)" {
		t.Fatalf("err %v", err)
	}
}

// TestIBNetDiscoverManPageGrouped reads the man page's -g example
// ("Non-Chassis Nodes"), in which two links are 4xSDR at one end and 1xSDR
// at the other: they run at 1xSDR (2 Gbit/s), each with a warning.
func TestIBNetDiscoverManPageGrouped(t *testing.T) {
	topo, warns := readIBNetWarn(t, "manpage-g.txt")
	if got, want := nodeNames(topo, topo.Switches()), []string{"ISR9024", "SW-6IB4"}; !slices.Equal(got, want) {
		t.Fatalf("switches %v, want %v", got, want)
	}
	// Hosts by the switch and port they link to: ISR9024 (3080) ports 8,
	// 12, 22, then SW-6IB4 (0015) ports 4, 6. The adapters share one
	// description, so they are called by their ids.
	wantHosts := []string{"H-0008f10403960558/2", "H-0008f10403960558/1", "H-0008f10403961354", "H-005442b100004900", "H-0008f10403960984"}
	if got := nodeNames(topo, topo.Hosts()); !slices.Equal(got, wantHosts) {
		t.Fatalf("hosts %v, want %v", got, wantHosts)
	}
	wantLinks := []string{
		"H-0008f10403960558/1:1-ISR9024:12@2.0000", "H-0008f10403960558/2:1-ISR9024:8@8.0000",
		"H-0008f10403960984:1-SW-6IB4:6@8.0000", "H-0008f10403961354:1-ISR9024:22@8.0000",
		"H-005442b100004900:1-SW-6IB4:4@8.0000", "ISR9024:10-SW-6IB4:1@2.0000", "ISR9024:6-SW-6IB4:3@8.0000",
	}
	if got := linkList(topo); !slices.Equal(got, wantLinks) {
		t.Fatalf("links\n%v\nwant\n%v", got, wantLinks)
	}
	wantWarns := []string{
		"manpage-g.txt:26: link ends disagree on width and speed: S-005442ba00003080[10] says 4xSDR at line 15, S-0008f10400410015[1] says 1xSDR here; the link runs at 1xSDR",
		"manpage-g.txt:52: link ends disagree on width and speed: S-005442ba00003080[12] says 4xSDR at line 18, H-0008f10403960558[1] says 1xSDR here; the link runs at 1xSDR",
	}
	if !slices.Equal(warns, wantWarns) {
		t.Fatalf("warnings\n%q\nwant\n%q", warns, wantWarns)
	}
	if _, err := fabric.ComputeRoutes(topo, "minhop", 0, 1); err != nil {
		t.Fatal(err)
	}
}

// TestIBNetDiscoverRateDisagree: a link whose ends say 4xDDR and 4xSDR
// runs at 4xSDR (8 Gbit/s), the slower speed, with a warning.
func TestIBNetDiscoverRateDisagree(t *testing.T) {
	topo, warns := readIBNetWarn(t, "rate-disagree.txt")
	var got []string
	for _, l := range linkList(topo) {
		if strings.Contains(l, "H5") {
			got = append(got, l)
		}
	}
	if want := []string{"H5:1-S2:2@8.0000"}; !slices.Equal(got, want) {
		t.Fatalf("H5's links %v, want %v", got, want)
	}
	w := "rate-disagree.txt:40: link ends disagree on width and speed: S-0002c90200410b48[2] says 4xDDR at line 13, H-0002c903000a1b50[1] says 4xSDR here; the link runs at 4xSDR"
	if !slices.Equal(warns, []string{w}) {
		t.Fatalf("warnings %q, want %q", warns, w)
	}
	// Width from one end, speed from the other: 4xQDR and 1xFDR run at
	// 1xQDR; more than three disagreeing links are counted after three.
	for _, c := range []struct {
		a, b string
		gbps float64
	}{{"4xQDR", "1xFDR", 8}, {"12xEDR", "4xHDR", 4 * 25.78125 * 64 / 66}, {"2xNDR", "4xNDR", 200}} {
		text := strings.Join(ibNetBase, "\n")
		text = strings.Replace(text, `"a HCA-1" lid 2 4xQDR`, `"a HCA-1" lid 2 `+c.a, 1)
		text = strings.Replace(text, `lid 2 lmc 0 "MF0;sw:IS4/U1" lid 1 4xQDR`, `lid 2 lmc 0 "MF0;sw:IS4/U1" lid 1 `+c.b, 1)
		topo, warns, err := fabric.ReadIBNetDiscover("x.txt", strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range topo.Links {
			if topo.Nodes[l.A].Name == "a" || topo.Nodes[l.B].Name == "a" {
				if l.Gbps != c.gbps {
					t.Fatalf("%s and %s: %g Gbit/s, want %g", c.a, c.b, l.Gbps, c.gbps)
				}
			}
		}
		if len(warns) != 1 {
			t.Fatalf("%s and %s: warnings %q", c.a, c.b, warns)
		}
	}
	var b strings.Builder
	b.WriteString("Switch\t8 \"S-0000000000000001\"\t\t# \"sw\" enhanced port 0 lid 1 lmc 0\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "[%d]\t\"H-%016x\"[1](%x) \t\t# \"h%d\" lid %d 4xQDR\n", i, i<<4, i<<4+1, i, i+1)
	}
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "Ca\t1 \"H-%016x\"\t\t# \"h%d\"\n[1](%x) \t\"S-0000000000000001\"[%d]\t\t# lid %d lmc 0 \"sw\" lid 1 4xDDR\n", i<<4, i, i<<4+1, i, i+1)
	}
	_, warns, err := fabric.ReadIBNetDiscover("x.txt", strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 4 || warns[3] != "x.txt: and 2 more links whose ends disagree on width and speed" {
		t.Fatalf("warnings %q", warns)
	}
}

// TestIBNetDiscoverChassis reads -g output of a chassis: its grouping
// lines, "[ext N]" ports, comments on id lines, and the spine and line
// switches listed twice. The fabric is the one the same file without the
// grouping (each node once, no [ext N]) gives.
func TestIBNetDiscoverChassis(t *testing.T) {
	topo, warns := readIBNetWarn(t, "chassis.txt")
	if len(warns) != 0 {
		t.Fatalf("warnings %q", warns)
	}
	// The file without -g: drop the second listings (the "# Chassis
	// Switches" block) and the grouping, by hand.
	text := string(readIBNet(t, "chassis.txt"))
	i, j := strings.Index(text, "# Chassis Switches"), strings.Index(text, "# Chassis CAs")
	plain := text[:i] + text[j:]
	for _, s := range []string{"[ext 1]", "[ext 2]", "Non-Chassis Nodes", "Chassis 1 (guid 0x8f104004005a3)"} {
		plain = strings.ReplaceAll(plain, s, "")
	}
	want, _, err := fabric.ReadIBNetDiscover("plain", strings.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	sameFabric(t, topo, want)
	if got, wantSw := nodeNames(topo, topo.Switches()), []string{"ISR9288_ISR9096_Voltaire_sFB-12D", "S-0008f104003f10d2", "S-0008f104003f125c"}; !slices.Equal(got, wantSw) {
		t.Fatalf("switches %v, want %v", got, wantSw)
	}
	if got, wantH := nodeNames(topo, topo.Hosts()), []string{"node03", "node04", "node01", "node02"}; !slices.Equal(got, wantH) {
		t.Fatalf("hosts %v, want %v", got, wantH)
	}
	if len(topo.Links) != 4+4 {
		t.Fatalf("%d links, want 8", len(topo.Links))
	}
	// The chassis's switches share its system image GUID.
	for _, sw := range topo.Switches() {
		if g := topo.Nodes[sw].SysGUID; g != 0x8f104004005a3 {
			t.Errorf("switch %s: system image GUID %#x, want the chassis's 0x8f104004005a3", topo.Nodes[sw].Name, g)
		}
	}
}

// TestIBNetDiscoverLoopback reads a lab dump with a loopback cable (switch
// ports 35-36), a loopback plug (port 33) and an adapter cabled to itself:
// the switch keeps its 37 ports with those unused, the adapter is no host,
// and one warning lists the three loops.
func TestIBNetDiscoverLoopback(t *testing.T) {
	topo, warns := readIBNetWarn(t, "loopback.txt")
	if got, want := nodeNames(topo, topo.Hosts()), []string{"node1", "node2", "node3"}; !slices.Equal(got, want) {
		t.Fatalf("hosts %v, want %v", got, want)
	}
	sw := topo.Switches()
	if len(sw) != 1 || topo.Nodes[sw[0]].Ports != 37 {
		t.Fatalf("switches %v", nodeNames(topo, sw))
	}
	want := []string{"lab-sw1:1-node1:1@100.0000", "lab-sw1:2-node2:1@100.0000", "lab-sw1:3-node3:1@100.0000"}
	if got := linkList(topo); !slices.Equal(got, want) {
		t.Fatalf("links %v, want %v", got, want)
	}
	w := "loopback.txt: kept as unused ports 3 loopback cables (a link from a node to itself): " +
		"S-7cfe900300a1b200[33]-[33] (line 14), S-7cfe900300a1b200[35]-[36] (line 15), H-248a070300f1c040[1]-[2] (line 44)"
	if !slices.Equal(warns, []string{w}) {
		t.Fatalf("warnings\n%q\nwant\n%q", warns, w)
	}
	if _, err := fabric.ComputeRoutes(topo, "updn", 0, 1); err != nil {
		t.Fatal(err)
	}
}

// TestIBNetDiscoverAggregationNodes reads two HDR Quantum switches with
// their SHARP aggregation nodes (a Ca on port 41) and a router: both are
// switch-like nodes of the topology, linked, and never hosts, so a flow
// cannot start or end at them and generated traffic counts only the four
// GPU hosts.
func TestIBNetDiscoverAggregationNodes(t *testing.T) {
	text := readIBNet(t, "sharp.txt")
	topo, warns := readIBNetWarn(t, "sharp.txt")
	if len(warns) != 0 {
		t.Fatalf("warnings %q", warns)
	}
	if got, want := nodeNames(topo, topo.Hosts()), []string{"gpu01", "gpu02", "gpu03", "gpu04"}; !slices.Equal(got, want) {
		t.Fatalf("hosts %v, want %v", got, want)
	}
	wantSw := []string{"leaf01", "leaf02", "H-b8599f0300fc6dec", "H-b8599f0300fc7a0c", "ib-gw01"}
	if got := nodeNames(topo, topo.Switches()); !slices.Equal(got, wantSw) {
		t.Fatalf("switch-like nodes %v, want %v", got, wantSw)
	}
	for _, n := range wantSw[2:] {
		if nd := topo.Nodes[topo.Lookup(n)]; nd.Host {
			t.Fatalf("%s is a host", n)
		}
	}
	wantLinks := []string{
		"H-b8599f0300fc6dec:1-leaf01:41@200.0000", "H-b8599f0300fc7a0c:1-leaf02:41@200.0000",
		"gpu01:1-leaf01:1@200.0000", "gpu02:1-leaf01:2@200.0000", "gpu03:1-leaf02:1@200.0000", "gpu04:1-leaf02:2@200.0000",
		"ib-gw01:1-leaf02:30@100.0000", "leaf01:39-leaf02:39@200.0000", "leaf01:40-leaf02:40@200.0000",
	}
	if got := linkList(topo); !slices.Equal(got, wantLinks) {
		t.Fatalf("links\n%v\nwant\n%v", got, wantLinks)
	}
	if n := topo.Nodes[topo.Lookup("ib-gw01")]; n.Ports != 2 {
		t.Fatalf("router has %d ports, want 2", n.Ports)
	}

	spec := func(flows []workload.FlowSpec, traffic []workload.TrafficSpec) workload.ScenarioSpec {
		return workload.ScenarioSpec{Name: "sharp", Phases: 1, Topology: "ibnetdiscover", Fabric: text, FabricName: "sharp.txt",
			Routing: "updn", Flows: flows, Traffic: traffic, Source: []byte(fmt.Sprint(flows, traffic))}
	}
	for _, end := range []string{"H-b8599f0300fc6dec", "ib-gw01"} {
		sc, err := workload.NewScenario(spec([]workload.FlowSpec{{Name: "F1", Src: "gpu01", Dst: end}}, nil))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := model.NewNetwork(sc, sc.Config(), 1); err == nil || !errors.Is(err, fabric.ErrBadScenario) ||
			!strings.Contains(err.Error(), "is not a pair of distinct hosts") {
			t.Fatalf("a flow to %s: err %v", end, err)
		}
	}
	// transpose needs a square number of hosts: 4 hosts (not 6 or 7 with
	// the aggregation nodes and the router).
	sc, err := workload.NewScenario(spec(nil, []workload.TrafficSpec{{Name: "t", Pattern: "transpose", Arrival: "saturate"}}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.NewNetwork(sc, sc.Config(), 1); err != nil {
		t.Fatal(err)
	}
}

// TestIBNetDiscoverIBSim reads ibsim net files: ids of any form, Hca, a
// peer port defaulting to 1, and rates negotiated from the enabled-width
// and -speed masks (width=, speed=, w=, s=), by hand: the widest width
// and the fastest speed both ends enable.
func TestIBNetDiscoverIBSim(t *testing.T) {
	topo, warns := readIBNetWarn(t, "ibsim-net.txt")
	if len(warns) != 0 {
		t.Fatalf("warnings %q", warns)
	}
	if got, want := slices.Concat(nodeNames(topo, topo.Switches()), nodeNames(topo, topo.Hosts())),
		[]string{"leafA", "sw2", "node1", "node2", "node3", "node4"}; !slices.Equal(got, want) {
		t.Fatalf("nodes %v, want %v", got, want)
	}
	want := []string{
		"leafA:1-node1:1@16.0000", // 4x and DDR (masks 3 and 3)
		"leafA:2-node2:1@4.0000",  // w=1: 1x
		"leafA:7-sw2:7@16.0000",
		"leafA:8-sw2:8@8.0000",  // s=1: SDR
		"node3:1-sw2:1@16.0000", // s=7 with 3: DDR
		"node4:1-sw2:2@16.0000", // peer port 1 by default; w=2 with 3: 4x
	}
	if got := linkList(topo); !slices.Equal(got, want) {
		t.Fatalf("links\n%v\nwant\n%v", got, want)
	}
	// ibsim's own example: defaults 4x SDR (8 Gbit/s).
	topo, _ = readIBNetWarn(t, "ibsim-2sw2path4hca2port.txt")
	want = []string{
		"Hca1/1:1-Switch1:1@8.0000", "Hca1/2:1-Switch1:2@8.0000", "Hca2/1:1-Switch2:1@8.0000", "Hca2/2:1-Switch2:2@8.0000",
		"Switch1:3-Switch2:3@8.0000", "Switch1:5-Switch2:5@8.0000",
	}
	if got := linkList(topo); !slices.Equal(got, want) {
		t.Fatalf("links\n%v\nwant\n%v", got, want)
	}
	base := string(readIBNet(t, "ibsim-net.txt"))
	for _, c := range []struct{ name, text, want string }{
		{"nothing in common", strings.Replace(base, "[1]\t\"sw2\"[1]\ts=7", "[1]\t\"sw2\"[1]\ts=4", 1),
			"x.txt:25: sw2[1] and node3[1] enable no width and speed in common: widths 3 and 3, speeds 3 and 4 (ibsim masks)"},
		{"bad mask", strings.Replace(base, "w=1", "w=16", 1), "x.txt:8: w=16: want an ibsim mask"},
		{"unknown option", strings.Replace(base, "w=1", "v=1", 1), "x.txt:8: unknown port option v="},
		{"bad width=", strings.Replace(base, "width=3", "width=0", 1), "x.txt:3: width=0: want an ibsim width mask"},
		{"alias", strings.Replace(base, "[2]\t\"node2\"[1]\tw=1", "@[2]\t\"node2\"", 1), "x.txt:8: ibsim's aliases, module= and include are not supported"},
		{"unknown peer", strings.Replace(base, `"node4"`, `"node5"`, 1), `x.txt:14: sw2[2] links to node5, which the file does not list`},
	} {
		_, _, err := fabric.ReadIBNetDiscover("x.txt", strings.NewReader(c.text))
		if err == nil || !errors.Is(err, fabric.ErrBadScenario) || !strings.HasPrefix(err.Error(), c.want) {
			t.Fatalf("%s: err %v, want %q", c.name, err, c.want)
		}
	}
}

// TestIBNetDiscoverLongLine: a line over 1 MiB is an error naming it, not a
// size limit on the file.
func TestIBNetDiscoverLongLine(t *testing.T) {
	text := strings.Join(ibNetBase, "\n") + "\n# " + strings.Repeat("x", 1<<20) + "\n"
	_, _, err := fabric.ReadIBNetDiscover("x.txt", strings.NewReader(text))
	if err == nil || err.Error() != "x.txt:11: line longer than 1 MiB: not a topology file" {
		t.Fatalf("err %v", err)
	}
}
