package model

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// hotUplink is a 4-ary 2-tree (4 leaves of 4 hosts, 4 spines, every link
// 16 Gbit/s, hosts' I/O 13) where ftree's d-mod-k sends H1->H5, H2->H9 and
// H3->H13 (destinations 4, 8, 12: all 0 mod 4) up S1_1's port 5 alone.
func hotUplink(t *testing.T, adaptive bool, cc string) (*Network, params.Config) {
	t.Helper()
	sc, err := workload.ScenarioOf(fmt.Sprint("hot-uplink-", adaptive), workload.ScenarioSpec{Name: "hot-uplink", Phases: 1, Topology: "fattree",
		Topo: fabric.TopoParams{K: 4, Levels: 2}, Routing: "ftree", Adaptive: adaptive,
		Flows: []workload.FlowSpec{{Name: "F1", Src: "H1", Dst: "H5"}, {Name: "F2", Src: "H2", Dst: "H9"}, {Name: "F3", Src: "H3", Dst: "H13"}}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Phase, cfg.Sample = engine.Millisecond, 100*engine.Microsecond
	cfg.HostLinkGbps, cfg.SwitchLinkGbps, cfg.HostIOGbps = 16, 16, 13
	cfg.CC.Scheme = cc
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return n, cfg
}

// TestAdaptiveSpreadsAHotUplink: with the tables alone the three flows
// share S1_1's port 5 (16 Gbit/s · 2048/2074 = 15.8 of payload, 5.27
// each); adaptive routing spreads their packets over S1_1's four up ports
// (its AR group towards every other leaf), so each flow moves its host's
// 13 Gbit/s and no up link carries more than its 16: at most 16/39 of the
// bytes, counted per link.
func TestAdaptiveSpreadsAHotUplink(t *testing.T) {
	for _, adaptive := range []bool{false, true} {
		n, _ := hotUplink(t, adaptive, params.SchemeOff)
		n.RunUntil(n.End())
		res := n.Result()
		up := make([]int64, 4)
		var total int64
		for i := range up {
			up[i] = n.ports[n.sws[0].firstPort+4+int32(i)].txBytes
			total += up[i]
		}
		var gbps []float64
		for _, f := range res.Flows {
			g := f.Gbps[2:]
			sum := 0.0
			for _, x := range g {
				sum += x
			}
			gbps = append(gbps, sum/float64(len(g)))
		}
		maxShare := 0.0
		used := 0
		for _, b := range up {
			maxShare = max(maxShare, float64(b)/float64(total))
			if b > 0 {
				used++
			}
		}
		if !adaptive {
			if up[0] != total {
				t.Errorf("tables: up ports carry %v bytes, want all on port 5", up)
			}
			for i, g := range gbps {
				if want := 16 * 2048.0 / 2074 / 3; g < 0.97*want || g > 1.03*want {
					t.Errorf("tables: flow %d moves %.2f Gbit/s, want %.2f", i+1, g, want)
				}
			}
			continue
		}
		if used < 3 || maxShare > 16.0/39*1.05 {
			t.Errorf("adaptive: up ports carry %v bytes: %d used, busiest %.2f of them (want at most %.2f)", up, used, maxShare, 16.0/39)
		}
		for i, g := range gbps {
			if g < 0.97*13 || g > 13.01 {
				t.Errorf("adaptive: flow %d moves %.2f Gbit/s, want 13", i+1, g)
			}
		}
	}
}

// TestAdaptiveIsDeterministic: the same scenario, configuration and seed
// give the same run with adaptive routing (its choices read only the
// network's state), and a run other than the tables'.
func TestAdaptiveIsDeterministic(t *testing.T) {
	run := func(adaptive bool) string {
		n, _ := hotUplink(t, adaptive, params.SchemeIB)
		n.RunUntil(n.End())
		res := n.Result()
		return fmt.Sprint(res.Flows, res.Counters, n.Events())
	}
	a, b := run(true), run(true)
	if a != b {
		t.Error("two adaptive runs of one seed differ")
	}
	if a == run(false) {
		t.Error("the adaptive run is the tables' run")
	}
}

// TestAdaptiveConserves runs a 4-ary 3-tree under uniform saturating
// traffic with CC on and adaptive routing (choices at two levels), and
// checks bytes and credits at odd instants.
func TestAdaptiveConserves(t *testing.T) {
	sc, err := workload.ScenarioOf("ar-conserve", workload.ScenarioSpec{Name: "ar-conserve", Phases: 1, Topology: "fattree",
		Topo: fabric.TopoParams{K: 4, Levels: 3}, Routing: "ftree", Adaptive: true,
		Traffic: []workload.TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "saturate"}}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.Phase, cfg.Sample = engine.Millisecond, 100*engine.Microsecond
	cfg.CC.Scheme = params.SchemeIB
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	runConserving(t, n, 77*engine.Microsecond+13)
	if n.counters.Packets == 0 {
		t.Fatal("nothing was sent")
	}
}

// TestAdaptiveRefusedWithDOR: dor's paths keep their SLs; adaptive is
// refused with it, naming why.
func TestAdaptiveRefusedWithDOR(t *testing.T) {
	sc, err := workload.ScenarioOf("ar-dor", workload.ScenarioSpec{Name: "ar-dor", Phases: 1, Topology: "torus",
		Topo: fabric.TopoParams{Dims: []int{4, 4}, HostsPerRouter: 1}, Routing: "dor", Adaptive: true,
		Traffic: []workload.TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "saturate"}}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	cfg.VLs = 4
	if _, err := NewNetwork(sc, cfg, 1); err == nil || !strings.Contains(err.Error(), "adaptive routing") {
		t.Fatalf("err %v", err)
	}
}

// TestAdaptiveParam: adaptive, as a scenario parameter (a grid axis),
// turns the groups on and off for one run of a scenario that says
// otherwise.
func TestAdaptiveParam(t *testing.T) {
	for _, set := range []bool{true, false} {
		n0, _ := hotUplink(t, !set, params.SchemeOff)
		cfg := n0.cfg
		if err := n0.scenario.Set(&cfg, "adaptive", set); err != nil {
			t.Fatal(err)
		}
		n, err := NewNetwork(n0.scenario, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if n.ar.On != set {
			t.Errorf("adaptive = %v: groups on %v", set, n.ar.On)
		}
	}
}

// TestAdaptiveChoiceRule checks the choice among S1_1's up ports towards
// H5 (ports 5-8) as documented: all idle, the table's port (5); port 5's
// link busy, the next idle one (6); 6 with a packet waiting too, 7; every
// port with one packet waiting and 5's link idle, 5 again (a tie goes to
// the table's port).
func TestAdaptiveChoiceRule(t *testing.T) {
	n, _ := hotUplink(t, true, params.SchemeOff)
	first := n.sws[0].firstPort
	table := n.sws[0].out(4) // H5's LID
	if table != first+4 {
		t.Fatalf("table port %d, want port 5", table-first+1)
	}
	pick := func() int32 { return n.adaptiveOut(0, 4, table) - first + 1 }
	if p := pick(); p != 5 {
		t.Errorf("all idle: port %d, want 5", p)
	}
	n.ports[first+4].linkFree = engine.Microsecond
	if p := pick(); p != 6 {
		t.Errorf("port 5 busy: port %d, want 6", p)
	}
	n.ports[first+5].queued = 1
	if p := pick(); p != 7 {
		t.Errorf("port 5 busy, 6 with a packet: port %d, want 7", p)
	}
	n.ports[first+4].linkFree = 0
	for o := first + 4; o < first+8; o++ {
		n.ports[o].queued = 1
	}
	if p := pick(); p != 5 {
		t.Errorf("one packet everywhere: port %d, want 5", p)
	}
}

// TestDORMeshKeepsNoForwardingTables builds dor meshes of 1 000 and 8 000
// hosts: a switch keeps no table, and the live heap per host of the larger
// is within 20 % of the smaller's (a byte per switch and LID, 8 KB a host
// at 8 000 hosts, would double it).
func TestDORMeshKeepsNoForwardingTables(t *testing.T) {
	perHost := map[int]float64{}
	for _, dims := range [][]int{{25, 40}, {80, 100}} {
		sc := meshScenario(t, dims)
		cfg := sc.Config()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n, err := NewNetwork(sc, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		for s := range n.sws {
			if n.sws[s].lft != nil {
				t.Fatalf("mesh %v: switch %d keeps a table of %d LIDs", dims, s, len(n.sws[s].lft))
			}
		}
		hosts := len(n.hcas)
		perHost[hosts] = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(hosts)
		runtime.KeepAlive(n)
		t.Logf("mesh %v: %.0f bytes of live heap a host", dims, perHost[hosts])
	}
	if perHost[8000] > 1.2*perHost[1000] {
		t.Errorf("live heap a host: %.0f at 1 000 hosts, %.0f at 8 000", perHost[1000], perHost[8000])
	}
}

// TestBalanceClos648Ftree checks the 648-port Clos under ftree against
// d-mod-k's closed form: a leaf's 18 hosts send to the 630 hosts of the
// other 35 leaves, spread evenly over its 18 uplinks (630 routes each); a
// spine's link down to a leaf carries the routes of the 630 outside hosts
// to the one host of that leaf at the spine's position (630); a leaf's
// link to a host carries all 647 others.
func TestBalanceClos648Ftree(t *testing.T) {
	info, err := InspectScenario(workload.LookupScenario("clos648-uniform"), workload.LookupScenario("clos648-uniform").Config(), "")
	if err != nil {
		t.Fatal(err)
	}
	b := info.Balance
	if info.Hosts != 648 || info.Switches != 54 || info.Routing != "ftree" {
		t.Fatalf("%d hosts, %d switches, %s", info.Hosts, info.Switches, info.Routing)
	}
	if b.SwitchLinks != 2*648 || b.SwitchMax != 630 || b.SwitchMean != 630 {
		t.Errorf("switch links %d, max %d, mean %g; want 1296, 630, 630", b.SwitchLinks, b.SwitchMax, b.SwitchMean)
	}
	if b.Links != 3*648 || b.Max != 647 || b.P99 != 647 {
		t.Errorf("links %d, max %d, p99 %d; want 1944, 647, 647", b.Links, b.Max, b.P99)
	}
	if want := float64(2*648*630+648*647) / (3 * 648); b.Mean != want {
		t.Errorf("mean %g, want %g", b.Mean, want)
	}
	if len(info.Roots) != 18 || info.Levels != 2 || info.VLsNeeded != 1 || info.Deadlock != "" {
		t.Errorf("roots %v, levels %d, VLs needed %d, deadlock %q", info.Roots, info.Levels, info.VLsNeeded, info.Deadlock)
	}
}

// TestNetworkBytesCountsTablesWhereDORFallsBack: a 3×3 mesh declared 3×4
// (an empty row) is not a complete mesh, so dor routes it by tables
// (TestDORFallsBackToTables) and the memory estimate counts them: more than
// the nodes alone: by hand, 9 hosts of 12 KiB and 9 routers of 5 ports of
// 512 bytes (133 632), 9 switches × 9 LIDs of 5 bytes of forwarding and 9
// hosts × 9 LIDs of 1 byte of service level, 133 632 + 405 + 81 = 134 118
// bytes; with lmc 1 (18 LIDs) 133 632 + 810 + 162 = 134 604; routed by
// minhop instead, no service levels: 134 037.
func TestNetworkBytesCountsTablesWhereDORFallsBack(t *testing.T) {
	top, err := fabric.GenerateTopology("mesh", fabric.TopoParams{Dims: []int{3, 3}, HostsPerRouter: 1, HostGbps: 16, SwitchGbps: 16})
	if err != nil {
		t.Fatal(err)
	}
	if !fabric.DORComputed(top, 0) {
		t.Fatal("the complete 3×3 mesh is not routed from coordinates")
	}
	top.Dims = []int{3, 4}
	if fabric.DORComputed(top, 0) || NetworkBytes(top, 0, "dor") <= 9*bytesPerHost+45*bytesPerSwitchPort {
		t.Errorf("holes: the memory estimate counts no tables (%d bytes, %d nodes)", NetworkBytes(top, 0, "dor"), len(top.Nodes))
	}
	for _, c := range []struct {
		lmc     int
		routing string
		want    int64
	}{{0, "dor", 134118}, {1, "dor", 134604}, {0, "minhop", 134037}} {
		if got := NetworkBytes(top, c.lmc, c.routing); got != c.want {
			t.Errorf("3×3 mesh declared 3×4, lmc %d, %s: %d bytes, want %d", c.lmc, c.routing, got, c.want)
		}
	}
}

// ownTable gives switch sw a forwarding table of its own, a byte a LID, in
// place of ftree's compact form, for a test to edit.
func ownTable(n *Network, sw *switchState) {
	if sw.lft != nil {
		return
	}
	lids := int32(len(n.hcas)) << n.routes.LMC
	lft := make([]uint8, lids)
	for lid := range lids {
		lft[lid] = uint8(sw.out(lid) - sw.firstPort)
	}
	sw.lft = lft
}

// A run's ftree keeps byte tables on a fabric of at most
// fabric.FTreeTablesUpTo forwarding entries and its compact form alone
// above: the 648-port Clos (35 000 entries) keeps tables, the 10 368-host
// one (2.2 M) does not; with the limit at 0 the small one keeps none.
func TestFTreeKeepsTablesOnlyWhereSmall(t *testing.T) {
	if !fabric.FTreeKeepsTables(54, 648) || fabric.FTreeKeepsTables(216, 10368) {
		t.Fatal("the 648-port Clos should keep tables, the 10 368-host one not")
	}
	defer func(n int) { fabric.FTreeTablesUpTo = n }(fabric.FTreeTablesUpTo)
	sc := workload.LookupScenario("clos648-hotspot")
	for _, limit := range []int{fabric.FTreeTablesUpTo, 0} {
		fabric.FTreeTablesUpTo = limit
		n, err := NewNetwork(sc, sc.Config(), 1)
		if err != nil {
			t.Fatal(err)
		}
		for s := range n.sws {
			sw := &n.sws[s]
			if (sw.lft != nil) != (limit > 0) || (sw.ftree != nil) != (limit == 0) {
				t.Fatalf("limit %d: switch %d keeps a table %v, the compact form %v", limit, s, sw.lft != nil, sw.ftree != nil)
			}
		}
	}
}

// A switch may have fabric.MaxSwitchPorts ports, not one more: a star of
// 254 hosts builds, one of 255 is refused naming the bound.
// Kills routes.go's `sw.nPorts > fabric.MaxSwitchPorts` turned into `>=`.
func TestMutSwitchPortBound(t *testing.T) {
	for _, hosts := range []int{fabric.MaxSwitchPorts, fabric.MaxSwitchPorts + 1} {
		sc := starScenario(fmt.Sprintf("star%d", hosts), hosts)
		sc.Flows = []workload.FlowSpec{{Name: "A", Src: "H1", Dst: "H2", Role: workload.Contributor}}
		_, err := NewNetwork(sc, appConfig(engine.Millisecond), 1)
		if hosts == fabric.MaxSwitchPorts && err != nil {
			t.Errorf("a switch of %d ports: %v", hosts, err)
		}
		if hosts > fabric.MaxSwitchPorts && (!errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(fmt.Sprint(err), fmt.Sprintf("at most %d", fabric.MaxSwitchPorts))) {
			t.Errorf("a switch of %d ports: err = %v, want a bad scenario naming the bound", hosts, err)
		}
	}
}

// TestMutAdaptiveChoiceOnEveryLeaf applies TestAdaptiveChoiceRule's first
// two steps on every leaf of hotUplink's fat tree, not only the first
// switch (whose ports are numbered from 0): towards a host on another
// leaf, an idle table port is kept, a busy one is left for an idle port of
// the group (the leaf's up ports).
// Kills routes.go's group membership test `table-sw.firstPort` turned into
// `table+sw.firstPort` (the same on a switch whose first port is 0; on the
// others the table port is not found in its group and adaptive routing
// never leaves it).
func TestMutAdaptiveChoiceOnEveryLeaf(t *testing.T) {
	n, _ := hotUplink(t, true, params.SchemeOff)
	leaves := 0
	for s := range n.sws {
		sw := &n.sws[s]
		hosted := false
		for o := sw.firstPort; o < sw.firstPort+sw.nPorts; o++ {
			hosted = hosted || n.ports[o].toHost
		}
		if !hosted {
			continue
		}
		leaves++
		lid := int32(-1)
		for l := int32(0); l < 16; l++ {
			if !n.ports[sw.out(l)].toHost {
				lid = l
				break
			}
		}
		if lid < 0 {
			t.Fatalf("switch %d reaches every host directly", s)
		}
		table := sw.out(lid)
		if got := n.adaptiveOut(int32(s), lid, table); got != table {
			t.Errorf("switch %d, LID %d, all idle: port %d, want the table's %d", s, lid, got-sw.firstPort+1, table-sw.firstPort+1)
		}
		n.ports[table].linkFree = engine.Microsecond
		got := n.adaptiveOut(int32(s), lid, table)
		if got == table || got < sw.firstPort || got >= sw.firstPort+sw.nPorts || n.ports[got].toHost {
			t.Errorf("switch %d, LID %d, table port %d busy: port %d, want another up port", s, lid, table-sw.firstPort+1, got-sw.firstPort+1)
		}
		n.ports[table].linkFree = 0
	}
	if leaves != 4 {
		t.Errorf("%d leaves, want 4", leaves)
	}
}

// TestMutInspectLFTsScenario inspects a scenario routed by the tables a
// subnet manager computed (fabric's small ibnetdiscover fabric and its
// ibroute tables, as grids' TestScenarioRoutingFiles reads them from a
// scenario file): with no routing named, InspectScenario describes those
// tables (switch S1's link to S2 carries 12 routes); with a routing named,
// that routing's tables.
// Kills routes.go's `routing == ""` negated (the named routing ignored for
// the tables, and no routing named sent to an engine called "lfts").
func TestMutInspectLFTsScenario(t *testing.T) {
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sc, err := workload.ScenarioOf("inspect-lfts", workload.ScenarioSpec{Name: "inspect-lfts", Phases: 1, Topology: "ibnetdiscover",
		Fabric: read("fabric/testdata/ibnetdiscover/small.txt"), FabricName: "small.txt",
		Routing: "lfts", LFTs: read("fabric/testdata/lfts/small-ibroute.txt"), LFTsName: "small-ibroute.txt",
		Traffic: []workload.TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "poisson", Load: 0.1}}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := InspectScenario(sc, sc.Config(), "")
	if err != nil {
		t.Fatal(err)
	}
	if info.Routing != "lfts" || info.Balance.SwitchMax != 12 {
		t.Errorf("no routing named: routing %s, max %d; want lfts, 12", info.Routing, info.Balance.SwitchMax)
	}
	info, err = InspectScenario(sc, sc.Config(), "minhop")
	if err != nil {
		t.Fatal(err)
	}
	if info.Routing != "minhop" {
		t.Errorf("minhop named: routing %s", info.Routing)
	}
}
