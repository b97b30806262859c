package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// drbScenario is a small torus or fat tree with the given routing, LMC,
// greedy flows and generated traffic, for DRB's tests.
func drbScenario(kind string, tp fabric.TopoParams, routing string, lmc int, flows []workload.FlowSpec, traffic []workload.TrafficSpec) *workload.Scenario {
	return &workload.Scenario{Name: "drb-test", Phases: 2, Routing: routing, LMC: lmc, Flows: flows, Traffic: traffic,
		Build: func(c *params.Config) (*fabric.Topology, error) {
			p := tp
			p.HostGbps, p.SwitchGbps = c.HostLinkGbps, c.SwitchLinkGbps
			return fabric.GenerateTopology(kind, p)
		}}
}

// drbConfig is a short run with DRB on and vls VLs.
func drbConfig(vls int) params.Config {
	cfg := params.DefaultConfig()
	cfg.Phase = 500 * engine.Microsecond
	cfg.Sample = 50 * engine.Microsecond
	cfg.HostIOGbps = 16
	cfg.SwitchLinkGbps = 16
	cfg.MessageSize = 4096
	cfg.VLs = vls
	cfg.CC.Scheme = params.SchemeDRB
	return cfg
}

// hotSpotFlows sends greedily from every host in srcs to host dst.
func hotSpotFlows(dst int, srcs ...int) []workload.FlowSpec {
	var fs []workload.FlowSpec
	for _, s := range srcs {
		fs = append(fs, workload.FlowSpec{Name: fmt.Sprintf("F%d", s), Src: fmt.Sprintf("H%d", s), Dst: fmt.Sprintf("H%d", dst), Role: workload.Contributor})
	}
	return fs
}

func torus(dims ...int) fabric.TopoParams { return fabric.TopoParams{Dims: dims, HostsPerRouter: 1} }

// pathLen returns the switch hops of path p from src to dst.
func pathLen(n *Network, src, dst, p int) int { return len(n.walk(src, int32(n.routes.LID(dst, p)))) }

func TestDRBPathOrder(t *testing.T) {
	cases := []struct {
		name    string
		kind    string
		tp      fabric.TopoParams
		routing string
		lmc     int
		vls     int
		src     int // host indexes
		dst     int
		want    int // distinct paths
	}{
		// dor on a 2-D torus has two dimension orders: LIDs 2 and 3 repeat
		// LIDs 0 and 1, so a pair differing in both dimensions has 2 paths
		// and one differing in one dimension has 1.
		{"torus both dims", "torus", torus(4, 4), "dor", 2, 2, 0, 5, 2},
		{"torus one dim", "torus", torus(4, 4), "dor", 2, 2, 0, 2, 1},
		// On an 8x8 torus, LIDs 2 and 3 take a halfway dimension across
		// its dateline: 4 shortest paths where x is halfway and y is not, 2
		// where only x differs, and the dateline SLs keep all of them
		// free of cycles on 8 VLs.
		{"8x8 torus halfway x", "torus", torus(8, 8), "dor", 2, 8, 0, 12, 4},
		{"8x8 torus halfway both", "torus", torus(8, 8), "dor", 2, 8, 0, 36, 4},
		{"8x8 torus halfway x only", "torus", torus(8, 8), "dor", 2, 8, 0, 4, 2},
		{"8x8 torus no halfway", "torus", torus(8, 8), "dor", 2, 8, 0, 19, 2},
		{"6x6 torus halfway x", "torus", torus(6, 6), "dor", 2, 8, 0, 9, 4},
		// A 4-ary 2-tree: 4 spines, so hosts on different leaves have 4
		// disjoint paths of 3 switches, one per spine.
		{"fattree across spines", "fattree", fabric.TopoParams{K: 4, Levels: 2}, "ftree", 2, 1, 0, 5, 4},
		{"fattree same leaf", "fattree", fabric.TopoParams{K: 4, Levels: 2}, "ftree", 2, 1, 0, 1, 1},
		{"fattree updn", "fattree", fabric.TopoParams{K: 4, Levels: 2}, "updn", 2, 1, 0, 15, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc := drbScenario(c.kind, c.tp, c.routing, c.lmc, hotSpotFlows(c.dst+1, c.src+1), nil)
			n, err := NewNetwork(sc, drbConfig(c.vls), 1)
			if err != nil {
				t.Fatal(err)
			}
			order := n.drbPathOrder(c.src, c.dst)
			if len(order) != c.want {
				t.Fatalf("order %v: want %d distinct paths", order, c.want)
			}
			checkOrder(t, n, c.src, c.dst, order)
			for _, p := range order {
				if pathLen(n, c.src, c.dst, int(p)) != pathLen(n, c.src, c.dst, 0) && c.routing != "updn" {
					t.Fatalf("order %v: path %d is not a shortest path", order, p)
				}
			}
		})
	}
}

// checkOrder checks the contract of drbPathOrder against the paths walked
// anew: offset 0 first, every distinct path once, then shortest first,
// and at each step no remaining path of the same length shares fewer
// channels with those before.
func checkOrder(t *testing.T, n *Network, src, dst int, order drbOrder) {
	t.Helper()
	if order[0] != 0 {
		t.Fatalf("order %v does not start at offset 0", order)
	}
	all := 1 << n.routes.LMC
	paths := make([][]int32, all)
	for p := range all {
		paths[p] = n.walk(src, int32(n.routes.LID(dst, p)))
	}
	for p := range all {
		if !slices.ContainsFunc(order, func(q uint8) bool { return slices.Equal(paths[q], paths[p]) }) {
			t.Fatalf("order %v leaves out path %d (%v)", order, p, paths[p])
		}
	}
	used := map[int32]bool{}
	shared := func(p int) int {
		k := 0
		for _, c := range paths[p] {
			if used[c] {
				k++
			}
		}
		return k
	}
	for i, q := range order {
		for _, r := range order[:i] {
			if slices.Equal(paths[q], paths[r]) {
				t.Fatalf("order %v: paths %d and %d are the same", order, q, r)
			}
		}
		if i > 1 && len(paths[q]) < len(paths[order[i-1]]) {
			t.Fatalf("order %v: path %d is shorter than the one before it", order, q)
		}
		if i > 0 {
			for _, r := range order[i+1:] {
				if len(paths[r]) == len(paths[q]) && shared(int(r)) < shared(int(q)) {
					t.Fatalf("order %v: path %d shares %d channels with those before, path %d only %d", order, q, shared(int(q)), r, shared(int(r)))
				}
			}
		}
		for _, c := range paths[q] {
			used[c] = true
		}
	}
}

// TestDRBOrderPrefersDisjoint: on a 2-ary 3-tree, ftree gives host 7's 4
// LIDs 4 paths from host 0, all of 5 hops. With LID 1 turned at the first
// leaf onto path 0's uplink, it shares that uplink with path 0, so path 3,
// sharing only the last hop, must come before it, whatever their offsets.
func TestDRBOrderPrefersDisjoint(t *testing.T) {
	sc := drbScenario("fattree", fabric.TopoParams{K: 2, Levels: 3}, "ftree", 2, hotSpotFlows(8, 1), nil)
	n, err := NewNetwork(sc, drbConfig(1), 1)
	if err != nil {
		t.Fatal(err)
	}
	before := n.drbPathOrder(0, 7)
	if !slices.Equal(before, drbOrder{0, 1, 2, 3}) {
		t.Fatalf("order %v before the change, want [0 1 2 3]", before)
	}
	p0 := n.walk(0, int32(n.routes.LID(7, 0)))
	leaf := &n.sws[n.ports[p0[0]].owner]
	ownTable(n, leaf)
	leaf.lft[n.routes.LID(7, 1)] = uint8(p0[0] - leaf.firstPort)
	p1 := n.walk(0, int32(n.routes.LID(7, 1)))
	if p1[0] != p0[0] || slices.Equal(p1, p0) || len(p1) != len(p0) {
		t.Fatalf("path 1 %v: want path 0's uplink, then a path of its own length (path 0 %v)", p1, p0)
	}
	order := n.drbPathOrder(0, 7)
	if order[1] != 3 {
		t.Fatalf("order %v: want path 3, disjoint from path 0 but for the last hop, second", order)
	}
	checkOrder(t, n, 0, 7, order)
}

// TestDRBPairOpensAndCloses drives one pair by hand: a path opens per
// open_after BECNs up to the paths there are, and each timer period with
// no BECN closes the last one opened, exactly at last BECN + k·timer.
func TestDRBPairOpensAndCloses(t *testing.T) {
	const T = 100 * engine.Microsecond
	d := &drbState{on: true, timer: T, openAt: 2}
	pr := newDRBPair(drbOrder{0, 3, 1, 2}, 0)
	at := func(us int) engine.Time { return engine.Time(us) * engine.Microsecond }
	steps := []struct {
		now    engine.Time
		becn   bool
		path   uint8
		open   int32
		becns0 int32
	}{
		{at(10), true, 0, 1, 1},   // one BECN: open_after 2 not reached
		{at(20), true, 0, 2, 2},   // second: path 3 opens
		{at(30), true, 3, 2, 2},   // path 3's first
		{at(40), true, 3, 3, 2},   // path 1 opens
		{at(50), true, 0, 3, 3},   // (pending 1)
		{at(60), true, 1, 4, 3},   // path 2 opens
		{at(70), true, 2, 4, 3},   // all open: no more
		{at(80), true, 2, 4, 3},   // still all
		{at(179), false, 0, 4, 3}, // 1 ps before the timer expires
		{at(180), false, 0, 3, 1}, // expiry: path 2 closes, counts halve
		{at(379), false, 0, 2, 0}, // one more expiry (280; 380 not yet): path 1 closes
		{at(380), false, 0, 1, 0}, // back to the minimal path
		{at(2000), false, 0, 1, 0},
	}
	for i, s := range steps {
		if s.becn {
			pr.notify(s.now, s.path, d)
		} else {
			pr.advance(s.now, d)
		}
		if pr.open != s.open || pr.becns[0] != s.becns0 {
			t.Fatalf("step %d at %v: %d open, path 0 has %d BECNs; want %d, %d", i, s.now, pr.open, pr.becns[0], s.open, s.becns0)
		}
	}
	// Opened again, it starts from clean counts.
	pr.notify(at(3000), 0, d)
	pr.notify(at(3001), 0, d)
	if pr.open != 2 || pr.becns[1] != 0 {
		t.Fatalf("reopened: %d open, path 3 has %d BECNs", pr.open, pr.becns[1])
	}
}

// TestDRBSpreadsInverseToBECNs checks the shares of smooth weighted
// round-robin: weights 1/(1+BECNs), exact over a whole period.
func TestDRBSpreadsInverseToBECNs(t *testing.T) {
	cases := []struct {
		becns []int32
		picks int
		want  []int
	}{
		{[]int32{0, 0}, 10, []int{5, 5}},
		{[]int32{0, 3}, 500, []int{400, 100}},
		{[]int32{1, 0, 3}, 700, []int{200, 400, 100}},
		{[]int32{0, 1, 1, 1}, 500, []int{200, 100, 100, 100}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.becns), func(t *testing.T) {
			pr := newDRBPair(make(drbOrder, len(c.becns)), 0)
			pr.open = int32(len(c.becns))
			pr.becns, pr.credit = slices.Clone(c.becns), make([]int64, len(c.becns))
			got := make([]int, len(c.becns))
			run, longest, prev := 0, 0, -1
			for range c.picks {
				j := pr.pick()
				got[j]++
				if j == prev {
					run++
				} else {
					run = 1
				}
				prev, longest = j, max(longest, run)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("picks %v, want %v", got, c.want)
			}
			// Smooth: the most used path never runs longer than its share
			// of the weights allows (here at most 4 in a row for 4:1).
			if longest > 4 {
				t.Fatalf("a path was picked %d times in a row", longest)
			}
		})
	}
}

// torusHotSpot is a 4x4 torus (dor, lmc 1, 2 VLs) where six hosts send
// greedily to H11 and Poisson uniform background traffic runs beside
// them.
func torusHotSpot() *workload.Scenario {
	bg := workload.TrafficSpec{Name: "bg", Pattern: "uniform", Arrival: "poisson", Load: 0.3, MessageSize: 2048}
	return drbScenario("torus", torus(4, 4), "dor", 1, hotSpotFlows(11, 1, 2, 3, 5, 9, 13), []workload.TrafficSpec{bg})
}

// TestDRBOpensPathsUnderCongestion runs the hot spot: the congested pairs
// with two paths open their second, the BECNs stop raising CCTI (no
// throttling), and a longer timer keeps more paths open.
func TestDRBOpensPathsUnderCongestion(t *testing.T) {
	hot := map[engine.Time]float64{}
	for _, timer := range []engine.Time{5 * engine.Microsecond, 500 * engine.Microsecond} {
		cfg := drbConfig(2)
		cfg.DRB.Timer = timer
		n, err := NewNetwork(torusHotSpot(), cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		n.RunUntil(n.End())
		if n.counters.BECNs == 0 {
			t.Fatal("no BECNs: the hot spot did not congest")
		}
		for s, v := range n.cc.ccti {
			if v != 0 {
				t.Fatalf("CCTI slot %d is %d: DRB without drb.throttle must not throttle", s, v)
			}
		}
		if m := n.drbPathsOpenMean(); !(m >= 1 && m <= 2) {
			t.Fatalf("timer %v: paths_open_mean %v, want within [1, 2]", timer, m)
		}
		// The greedy flows' pairs that have two paths, over the window.
		var sum, span float64
		for i := range n.flows {
			f := &n.flows[i]
			pr := &n.drb.pairs[n.drb.pairOf[uint64(i)<<32|uint64(f.dst)]]
			if f.gen != nil || len(pr.order) < 2 {
				continue
			}
			sum += pr.integral
			span += float64(n.end - n.drb.window)
		}
		hot[timer] = sum / span
	}
	t.Logf("hot spot pairs' mean open paths by timer: %v", hot)
	if !(hot[500*engine.Microsecond] > hot[5*engine.Microsecond]) || hot[500*engine.Microsecond] < 1.5 {
		t.Fatalf("hot spot pairs' mean open paths by timer %v: want more with the longer timer, most of the time both", hot)
	}
}

// TestDRBThrottleKeepsCCTI: with drb.throttle the BECNs raise CCTI too.
func TestDRBThrottleKeepsCCTI(t *testing.T) {
	cfg := drbConfig(2)
	cfg.DRB.Throttle = true
	n, err := NewNetwork(torusHotSpot(), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	n.RunUntil(n.End())
	if n.meanCCTI() == 0 {
		t.Fatal("drb.throttle on: want the CCTI to rise")
	}
}

// TestDRBUsesEveryOpenPath counts the data packets each LID offset carried
// into the hot spot's destination: both of the 2 orders carry traffic.
func TestDRBUsesEveryOpenPath(t *testing.T) {
	cfg := drbConfig(2)
	cfg.DRB.Timer = 500 * engine.Microsecond
	n, err := NewNetwork(torusHotSpot(), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	perPath := [2]int{}
	for t0 := engine.Time(0); t0 < n.End(); t0 += 10 * engine.Microsecond {
		n.RunUntil(t0)
		for i := range n.flows {
			if f := &n.flows[i]; f.gen == nil && f.msgLeft > 0 {
				perPath[n.routes.PathOf(f.dlid)]++
			}
		}
	}
	if perPath[0] == 0 || perPath[1] == 0 {
		t.Fatalf("messages in progress per path: %v, want both paths used", perPath)
	}
}

func TestDRBIsDeterministic(t *testing.T) {
	cfg := drbConfig(2)
	a, err := Run(torusHotSpot(), cfg, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(torusHotSpot(), cfg, 7)
	if err != nil {
		t.Fatal(err)
	}
	if a.Events != b.Events || a.Counters != b.Counters || a.Stats.All != b.Stats.All {
		t.Fatalf("two runs differ: %d/%d events, %+v/%+v", a.Events, b.Events, a.Counters, b.Counters)
	}
	for i := range a.Flows {
		if !slices.Equal(a.Flows[i].Gbps, b.Flows[i].Gbps) {
			t.Fatalf("flow %s differs", a.Flows[i].Name)
		}
	}
	if ma, mb := a.Metrics(), b.Metrics(); ma.PathsOpenMean != mb.PathsOpenMean || math.IsNaN(ma.PathsOpenMean) {
		t.Fatalf("paths_open_mean %v and %v", ma.PathsOpenMean, mb.PathsOpenMean)
	}
}

func TestDRBConservesBytesAndCredits(t *testing.T) {
	n, err := NewNetwork(torusHotSpot(), drbConfig(2), 3)
	if err != nil {
		t.Fatal(err)
	}
	runConserving(t, n, 77*engine.Microsecond+13)
	if n.counters.Packets == 0 || n.counters.BECNs == 0 {
		t.Fatalf("counters %+v: want traffic and notifications", n.counters)
	}
}

// TestDRBPathsAreCheckedForDeadlock: the LMC paths DRB may take are routed
// and checked like any routing, so a cyclic set is refused by name and the
// dor set passes.
func TestDRBPathsAreCheckedForDeadlock(t *testing.T) {
	for _, c := range []struct {
		routing string
		vls     int
		want    string
	}{
		{"minhop", 4, "deadlock possible: channel cycle on VL 0"},
		{"dor", 1, "needs 2 VLs"},
		{"dor", 2, ""},
		{"updn", 1, ""},
	} {
		t.Run(c.routing, func(t *testing.T) {
			sc := drbScenario("torus", torus(4, 4), c.routing, 2, hotSpotFlows(11, 1), nil)
			_, err := NewNetwork(sc, drbConfig(c.vls), 1)
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestDRBNotificationsReturnOnTheDataPath: the BECN of a packet sent on
// LID offset p comes back to the source's LID of offset p, in an ACK
// (becn_return ack) and in a CNP (cnp), so the source charges path p and
// the notification keeps to the checked routes.
func TestDRBNotificationsReturnOnTheDataPath(t *testing.T) {
	for _, mode := range []string{"ack", "cnp"} {
		t.Run(mode, func(t *testing.T) {
			cfg := drbConfig(2)
			cfg.Transport.BECNReturn = mode
			n, err := NewNetwork(torusHotSpot(), cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			src, dst := int32(0), int32(10) // F1: H1 -> H11, both dimensions differ
			for p := range 2 {
				dlid := int32(n.routes.LID(int(dst), p))
				vl := VL(n.routes.SL(int(src), int(dlid)) % n.nVL)
				data := packet{flow: 0, src: src, dst: dst, dlid: dlid, vl: vl, kind: kindData, fecn: true, ackReq: true}
				n.answerFECN(&data) // nothing has run: the notification is the newest packet
				k := int32(len(n.pkts) - 1)
				back := n.pkts[k]
				if back.kind != kindCNP || back.dst != src {
					t.Fatalf("path %d: no notification to the source (%+v)", p, back)
				}
				if got := n.routes.PathOf(back.dlid); got != p || int(back.dlid)>>n.routes.LMC != int(src) {
					t.Fatalf("path %d: the notification goes to LID %d (offset %d)", p, back.dlid, got)
				}
				if want := VL(n.routes.SL(int(dst), int(back.dlid)) % n.nVL); back.vl != want {
					t.Fatalf("path %d: the notification travels on VL %d, its route's SL gives %d", p, back.vl, want)
				}
			}
		})
	}
}

// TestScenarioLMCParameterRoutes: a file scenario's lmc, set as a
// parameter (--set lmc=2, a grid axis), gives the run that many LIDs per
// host, so DRB has the paths it was asked for.
func TestScenarioLMCParameterRoutes(t *testing.T) {
	sc, err := workload.NewScenario(workload.ScenarioSpec{Name: "drb-lmc", Phases: 1, Topology: "torus", Topo: torus(4, 4),
		Routing: "dor", Flows: hotSpotFlows(11, 1), Source: []byte("drb-lmc test")})
	if err != nil {
		t.Fatal(err)
	}
	for _, lmc := range []int{0, 1, 2} {
		cfg := drbConfig(2)
		if err := sc.Set(&cfg, "lmc", int64(lmc)); err != nil {
			t.Fatal(err)
		}
		n, err := NewNetwork(sc, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if n.routes.LMC != lmc {
			t.Fatalf("lmc = %d: the run routes %d LIDs per host", lmc, 1<<n.routes.LMC)
		}
	}
}

// TestMutDRBPathsOpenMeanByHand checks paths_open_mean (docs/schemes.md,
// "DRB": the time-average number of open paths per pair in use over the
// window, each pair from its first use) on pairs driven by hand, the
// window from 10 µs, at 40 µs, a 1 ms timer (no expiry):
//
//	pair A, in use from 0: one path to 20 µs, then two (a BECN with
//	open_after 1): in the window 1·10 + 2·20 = 50 path·µs over 30 µs;
//	pair B, in use from 30 µs: one path, 1·10 over 10 µs;
//
// the mean is (50 + 10) / (30 + 10) = 1.5. Before the window and at its
// start nothing is measured: NaN.
func TestMutDRBPathsOpenMeanByHand(t *testing.T) {
	us := engine.Microsecond
	flow := workload.FlowSpec{Name: "F", Src: "H1", Dst: "H11", Role: workload.Contributor, StartPhase: 1}
	cfg := drbConfig(2)
	cfg.DRB.Timer = engine.Millisecond
	n, err := NewNetwork(drbScenario("torus", torus(4, 4), "dor", 1, []workload.FlowSpec{flow}, nil), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := &n.drb
	d.window = 10 * us // the flow is idle until 500 µs: only the pairs below exist
	if d.openAt != 1 {
		t.Fatalf("open_after %d, want the default 1", d.openAt)
	}
	order := drbOrder{0, 1}
	d.pairs = append(d.pairs, newDRBPair(order, 0))
	if m := n.drbPathsOpenMean(); !math.IsNaN(m) {
		t.Errorf("paths_open_mean before the window: %v, want NaN", m)
	}
	n.RunUntil(10 * us)
	if m := n.drbPathsOpenMean(); !math.IsNaN(m) {
		t.Errorf("paths_open_mean at the window's start: %v, want NaN", m)
	}
	n.RunUntil(20 * us)
	d.pairs[0].notify(n.sim.Now(), 0, d)
	if d.pairs[0].open != 2 {
		t.Fatalf("a BECN at 20 µs left %d paths open, want 2", d.pairs[0].open)
	}
	n.RunUntil(30 * us)
	d.pairs = append(d.pairs, newDRBPair(order, n.sim.Now()))
	n.RunUntil(40 * us)
	if n.sim.Now() != 40*us || len(d.pairs) != 2 {
		t.Fatalf("at %v with %d pairs: the flow must stay idle", n.sim.Now(), len(d.pairs))
	}
	if m := n.drbPathsOpenMean(); math.Abs(m-1.5) > 1e-12 {
		t.Errorf("paths_open_mean %v, want (50 + 10) / (30 + 10) = 1.5", m)
	}
}
