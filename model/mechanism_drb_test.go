package model

import (
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestMechDRBChargesTheNotifiedPathAndContracts follows DRB's documented
// response (drb.go, reference 003 §1.3) through the network on a 4x4 torus
// (dor, lmc 1: two paths from H1 to H11), with H1→H11's flow idle so the
// test drives it: H11 answers each FECN-marked packet of H1 with a CNP on
// the data's path, and H1's pair counts it for that path.
//
//   - A BECN for the minimal path (order[0]) opens the second (open_after
//     1): counts [1, 0].
//   - Three BECNs for the second path: counts [1, 3]. Messages then take
//     the paths by weights 1/(1+1) : 1/(1+3) = 2 : 1, exactly 200 and 100
//     of 300 with smooth weighted round-robin.
//   - A drb.timer (100 µs) after the last BECN with none since, the path
//     opened last closes: every message takes the minimal path; 1 ps
//     earlier both are still in use.
func TestMechDRBChargesTheNotifiedPathAndContracts(t *testing.T) {
	const timer = 100 * engine.Microsecond
	flow := workload.FlowSpec{Name: "F", Src: "H1", Dst: "H11", Role: workload.Contributor, StartPhase: 1}
	cfg := drbConfig(2)
	cfg.Transport.BECNReturn = "cnp"
	cfg.DRB.Timer = timer
	n, err := NewNetwork(drbScenario("torus", torus(4, 4), "dor", 1, []workload.FlowSpec{flow}, nil), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	src, dst := hcaOf(t, n, "H1"), hcaOf(t, n, "H11")
	h1 := n.hcas[src].port
	var becnAt []engine.Time
	hook := func(e engine.Event) {
		if e.Kind != evArrive {
			return
		}
		if pk := &n.pkts[e.Arg]; pk.kind == kindCNP && pk.inPort == h1 {
			becnAt = append(becnAt, n.sim.Now())
		}
	}
	picks := func(order drbOrder, k int) []int { return drbPicks(n, order, k) }
	mark := func(p uint8) { drbMark(n, src, dst, p) }
	n.drbPick(0) // the pair's first message
	pr := &n.drb.pairs[n.drb.pairOf[uint64(0)<<32|uint64(dst)]]
	order := pr.order
	if len(order) != 2 {
		t.Fatalf("path order %v, want the two paths of lmc 1", order)
	}
	mark(order[0])
	runHooked(n, 10*engine.Microsecond, hook, nil)
	if len(becnAt) != 1 || pr.open != 2 {
		t.Fatalf("after one BECN: %d arrived, %d paths open; want 1, 2", len(becnAt), pr.open)
	}
	for range 3 {
		mark(order[1])
	}
	runHooked(n, 20*engine.Microsecond, hook, nil)
	if len(becnAt) != 4 {
		t.Fatalf("%d BECNs arrived, want 4", len(becnAt))
	}
	if got := picks(order, 300); got[0] != 200 || got[1] != 100 {
		t.Fatalf("300 messages after BECNs 1 and 3 on paths %v: %v, want 200, 100", order, got)
	}
	last := becnAt[3]
	runHooked(n, last+timer-1, hook, nil)
	if got := picks(order, 3); got[0] != 2 || got[1] != 1 {
		t.Fatalf("1 ps before the timer expires: 3 messages take %v, want 2, 1", got)
	}
	runHooked(n, last+timer, hook, nil)
	if got := picks(order, 10); got[0] != 10 {
		t.Fatalf("at the timer's expiry: 10 messages take %v, want all on the minimal path", got)
	}
}

// TestMechDRBExpandsAndContractsGradually is the same on the four paths
// (lmc 2) from H1 to H6 across the spines of a two-level fat tree (k 4,
// ftree), with open_after 1: a BECN for order[0], then three
// for order[1], open all four paths one by one (k = 4) with counts
// [1, 3, 0, 0], weights 1/2 : 1/4 : 1 : 1, so of 1100 messages 200, 100,
// 400, 400. Each expiry of the timer with no BECN since closes the path
// opened last and halves the others' counts: at last+T, [0, 1, 0] gives
// weights 1 : 1/2 : 1, 200, 100, 200 of 500; at last+2T, [0, 0], an even
// split; at last+3T the minimal path alone. The expiries fall at those
// instants even when the pair is next used later (drb.go evaluates the
// timer lazily): used next at last+3T−1, it has had exactly two.
func TestMechDRBExpandsAndContractsGradually(t *testing.T) {
	const timer = 100 * engine.Microsecond
	flow := workload.FlowSpec{Name: "F", Src: "H1", Dst: "H6", Role: workload.Contributor, StartPhase: 1}
	cfg := drbConfig(1)
	cfg.Phase = engine.Millisecond
	cfg.Transport.BECNReturn = "cnp"
	cfg.DRB.Timer = timer
	n, err := NewNetwork(drbScenario("fattree", fabric.TopoParams{K: 4, Levels: 2}, "ftree", 2, []workload.FlowSpec{flow}, nil), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	src, dst := hcaOf(t, n, "H1"), hcaOf(t, n, "H6")
	h1 := n.hcas[src].port
	var last engine.Time
	hook := func(e engine.Event) {
		if e.Kind == evArrive && n.pkts[e.Arg].kind == kindCNP && n.pkts[e.Arg].inPort == h1 {
			last = n.sim.Now()
		}
	}
	n.drbPick(0)
	pr := &n.drb.pairs[n.drb.pairOf[uint64(0)<<32|uint64(dst)]]
	order := pr.order
	if len(order) != 4 {
		t.Fatalf("path order %v, want 4 distinct paths", order)
	}
	picks := func(k int) []int { return drbPicks(n, order, k) }
	mark := func(p uint8) { drbMark(n, src, dst, p) }
	mark(order[0])
	runHooked(n, 10*engine.Microsecond, hook, nil)
	for range 3 {
		mark(order[1])
	}
	runHooked(n, 20*engine.Microsecond, hook, nil)
	if n.counters.BECNs != 4 || pr.open != 4 {
		t.Fatalf("%d BECNs, %d paths open; want 4, 4", n.counters.BECNs, pr.open)
	}
	for _, s := range []struct {
		at   engine.Time
		k    int
		want []int
	}{
		{20 * engine.Microsecond, 1100, []int{200, 100, 400, 400}},
		{last + timer - 1, 1100, []int{200, 100, 400, 400}},
		{last + timer, 500, []int{200, 100, 200, 0}},
		{last + 3*timer - 1, 10, []int{5, 5, 0, 0}}, // last+2T's expiry, applied late
		{last + 3*timer, 10, []int{10, 0, 0, 0}},
	} {
		runHooked(n, s.at, hook, nil)
		if got := picks(s.k); !slices.Equal(got, s.want) {
			t.Fatalf("at %v: %d messages take %v of paths %v, want %v", s.at, s.k, got, order, s.want)
		}
	}
}

// drbPicks has flow 0 pick k new messages' paths and returns how many
// took each path of order.
func drbPicks(n *Network, order drbOrder, k int) []int {
	got := make([]int, len(order))
	for range k {
		n.drbPick(0)
		for j, p := range order {
			if int(p) == n.routes.PathOf(n.flows[0].dlid) {
				got[j]++
			}
		}
	}
	return got
}

// drbMark has dst answer a FECN-marked packet of flow 0 from src sent on
// path p.
func drbMark(n *Network, src, dst int32, p uint8) {
	dlid := int32(n.routes.LID(int(dst), int(p)))
	data := packet{flow: 0, src: src, dst: dst, dlid: dlid, vl: VL(n.routes.SL(int(src), int(dlid)) % n.nVL),
		kind: kindData, fecn: true}
	n.answerFECN(&data)
}
