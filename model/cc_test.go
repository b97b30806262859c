package model

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// ccNetwork builds testbed-s1 with CC on and the given parameters, at time 0.
func ccNetwork(t *testing.T, set map[string]any) *Network {
	t.Helper()
	cfg := params.DefaultConfig()
	cfg.Phase = 10 * engine.Millisecond
	cfg.CC.Scheme = params.SchemeIB
	for k, v := range set {
		if err := cfg.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestBECNsRaiseCCTIUpToTheLimit(t *testing.T) {
	for _, c := range []struct{ inc, limit, becns, want int }{
		{1, 127, 5, 5}, {3, 127, 10, 30}, {4, 10, 5, 10}, {1, 127, 200, 127}, {0, 127, 9, 0},
	} {
		t.Run(fmt.Sprintf("inc %d limit %d becns %d", c.inc, c.limit, c.becns), func(t *testing.T) {
			n := ccNetwork(t, map[string]any{"ccti_increase": int64(c.inc), "ccti_limit": int64(c.limit)})
			for i := 0; i < c.becns; i++ {
				n.receiveBECN(&packet{flow: 1, kind: kindCNP, becn: true})
			}
			if got := n.cc.ccti[n.flows[1].cc.slot]; int(got) != c.want {
				t.Errorf("%d BECNs gave CCTI %d, want %d", c.becns, got, c.want)
			}
			if other := n.cc.ccti[n.flows[2].cc.slot]; other != 0 {
				t.Errorf("another flow's CCTI moved to %d", other)
			}
		})
	}
}

func TestTimerLowersCCTIOneStepDownToTheFloor(t *testing.T) {
	n := ccNetwork(t, map[string]any{"ccti_min": int64(3)})
	slot := n.flows[0].cc.slot
	n.setCCTI(slot, 7)
	timer := -1
	for i, tm := range n.cc.timers {
		for _, s := range tm.slots {
			if s == slot {
				timer = i
			}
		}
	}
	want := []int32{6, 5, 4, 3, 3, 3}
	for i, w := range want {
		n.cctiTimer(int32(timer))
		if got := n.cc.ccti[slot]; got != w {
			t.Fatalf("expiry %d: CCTI %d, want %d", i+1, got, w)
		}
	}
}

func TestIRDFollowsTheCCT(t *testing.T) {
	n := ccNetwork(t, nil)
	f := &n.flows[0]
	for _, i := range []int32{0, 1, 53, 106, 127} {
		n.setCCTI(f.cc.slot, i)
		want := engine.Time(7e6 * float64(i) * float64(i) / (106 * 106)) // 7·i²/106² µs in ps
		if got := n.ird(f); math.Abs(float64(got-want)) > 1 {
			t.Errorf("CCTI %d: IRD %v, want %v", i, got, want)
		}
	}
	n2 := ccNetwork(t, map[string]any{"cct_denominator": int64(95)})
	n2.setCCTI(n2.flows[0].cc.slot, 95)
	if got := n2.ird(&n2.flows[0]); got != 7*engine.Microsecond {
		t.Errorf("vendor CCT at i=95: %v, want 7us", got)
	}
}

// congestedPort returns S2's port toward H5 with its fill forced over the
// threshold and credits that make it a root (or a victim when starved).
func congestedPort(n *Network, starved bool) int32 {
	topo, _ := n.scenario.Build(&n.cfg)
	h5 := n.nodePort(topo.Lookup("H5"))
	p := n.ports[h5].peer
	pt := &n.ports[p]
	n.lane(p, 0).voqFill = pt.markThreshold + 100
	in := n.nodePort(topo.Lookup("S2")) // any input of S2
	n.voqs.at(n.voqs.get(voqKey(p, 0, n.ports[in].local))).fill = pt.markThreshold + 100
	n.lane(p, 0).credits = 200
	if starved {
		n.lane(p, 0).credits = 40
	}
	return p
}

func markCount(n *Network, p int32, packets int, credits int32) int {
	in := n.nodePort(n.ports[p].node)
	marks := 0
	for i := 0; i < packets; i++ {
		pk := packet{kind: kindData, credits: credits}
		n.markFECN(p, in, &pk)
		if pk.fecn {
			marks++
		}
	}
	return marks
}

func TestCounterMarksExactlyOneInRatePlusOne(t *testing.T) {
	for _, rate := range []int{0, 1, 2, 7, 64} {
		n := ccNetwork(t, map[string]any{"marking_rate": int64(rate), "marking_mode": "counter"})
		p := congestedPort(n, false)
		packets := 1000 * (rate + 1)
		if got, want := markCount(n, p, packets, 33), 1000; got != want {
			t.Errorf("marking_rate %d: %d marks in %d eligible packets, want %d", rate, got, packets, want)
		}
	}
}

func TestRandomMarkingHasTheSameMean(t *testing.T) {
	n := ccNetwork(t, map[string]any{"marking_rate": int64(4), "marking_mode": "random"})
	p := congestedPort(n, false)
	got := markCount(n, p, 100000, 33)
	if math.Abs(float64(got)-20000) > 600 { // ~4.7 standard deviations
		t.Errorf("random marking: %d of 100000, want about 20000", got)
	}
}

func TestSmallPacketsAndCNPsAreNeverMarked(t *testing.T) {
	n := ccNetwork(t, map[string]any{"packet_size": int64(8), "marking_rate": int64(0)})
	p := congestedPort(n, false)
	if got := markCount(n, p, 100, 7); got != 0 {
		t.Errorf("%d packets of 7 credits marked with packet_size 8", got)
	}
	if got := markCount(n, p, 100, 8); got != 100 {
		t.Errorf("%d of 100 packets of 8 credits marked, want all", got)
	}
	cnp := packet{kind: kindCNP, credits: 33}
	n.markFECN(p, n.nodePort(n.ports[p].node), &cnp)
	if cnp.fecn {
		t.Error("a CNP was marked")
	}
}

func TestThresholdZeroNeverMarksAndBelowThresholdDoesNot(t *testing.T) {
	n := ccNetwork(t, map[string]any{"threshold": int64(0), "marking_rate": int64(0)})
	if got := markCount(n, congestedPort(n, false), 100, 33); got != 0 {
		t.Errorf("threshold 0 marked %d packets", got)
	}
	n = ccNetwork(t, map[string]any{"marking_rate": int64(0)})
	p := congestedPort(n, false)
	n.lane(p, 0).voqFill = n.ports[p].markThreshold - 1
	if got := markCount(n, p, 100, 33); got != 0 {
		t.Errorf("below threshold: %d marks", got)
	}
}

func TestVictimPortMarksOnlyWithVictimMask(t *testing.T) {
	for _, c := range []struct {
		mask  string
		want  int
		about string
	}{
		{"host", 100, "host-facing victim with the default mask"},
		{"none", 0, "victim without mask"},
		{"S2:2", 100, "victim named in the mask"},
		{"S1:4", 0, "victim not named in the mask"},
	} {
		t.Run(c.about, func(t *testing.T) {
			n := ccNetwork(t, map[string]any{"marking_rate": int64(0), "victim_mask": c.mask})
			p := congestedPort(n, true)
			if got := markCount(n, p, 100, 33); got != c.want {
				t.Errorf("%d marks, want %d", got, c.want)
			}
		})
	}
	// A root (credits to spare) marks whatever its mask.
	n := ccNetwork(t, map[string]any{"marking_rate": int64(0), "victim_mask": "none"})
	if got := markCount(n, congestedPort(n, false), 100, 33); got != 100 {
		t.Errorf("root without mask: %d marks, want 100", got)
	}
}

func TestQPLevelAndSLLevelCCTI(t *testing.T) {
	sc := &workload.Scenario{Name: "two-qps", Phases: 1, Build: testbed, Flows: []workload.FlowSpec{
		{Name: "A", Src: "H1", Dst: "H4", Role: workload.Contributor},
		{Name: "B", Src: "H1", Dst: "H5", Role: workload.Contributor},
		{Name: "C", Src: "H2", Dst: "H5", Role: workload.Contributor},
	}}
	for _, level := range []string{"qp", "sl"} {
		cfg := params.DefaultConfig()
		cfg.CC.Scheme = params.SchemeIB
		cfg.CC.Level = level
		n, err := NewNetwork(sc, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 5; i++ {
			n.receiveBECN(&packet{flow: 0, kind: kindCNP})
		}
		a, b, c := n.ird(&n.flows[0]), n.ird(&n.flows[1]), n.ird(&n.flows[2])
		if a == 0 || c != 0 {
			t.Errorf("%s: IRD A %v C %v: BECNs for A must slow A and never another HCA's flow", level, a, c)
		}
		if level == "qp" && b != 0 {
			t.Errorf("qp level: B shares A's HCA and SL but was slowed (%v)", b)
		}
		if level == "sl" && b != a {
			t.Errorf("sl level: B's IRD %v differs from A's %v on the same port-SL", b, a)
		}
	}
}

func TestCNPReturnsToTheSourceAheadOfData(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase = 5 * engine.Millisecond
	cfg.CC.Scheme = params.SchemeIB
	cfg.CC.MarkingRate = 0
	cfg.Transport.BECNReturn = "cnp"
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	n.RunUntil(n.End())
	c := n.counters
	inFlight := int64(0) // marked packets not yet at their destination
	free := map[int32]bool{}
	for _, k := range n.free {
		free[k] = true
	}
	for k := range n.pkts {
		if pk := &n.pkts[k]; !free[int32(k)] && pk.kind == kindData && pk.fecn && !n.ports[pk.inPort].host {
			inFlight++
		}
	}
	if c.FECN == 0 || c.CNPs+inFlight != c.FECN {
		t.Fatalf("FECN %d, CNPs %d, marked in flight %d: every marked data packet that arrived must make one CNP", c.FECN, c.CNPs, inFlight)
	}
	if c.BECNs > c.CNPs || c.BECNs < c.CNPs-10 {
		t.Fatalf("BECNs %d of CNPs %d: CNPs must reach their sources", c.BECNs, c.CNPs)
	}
	// The victim F1 never crosses a congested port: its CCTI stays at 0.
	if v := n.cc.ccti[n.flows[0].cc.slot]; v != 0 {
		t.Errorf("victim CCTI %d", v)
	}
	// The CCTI trace has a value per sample and ends at the current CCTI.
	r := n.Result()
	f5 := r.Flows[4]
	if len(f5.CCTI) != len(f5.Gbps) || f5.CCTI[len(f5.CCTI)-1] != n.cc.ccti[n.flows[4].cc.slot] || slices.Max(f5.CCTI) == 0 {
		t.Errorf("F5 CCTI trace %v", f5.CCTI)
	}
}

// TestMutCCTTableAtItsBounds checks that a 1 s entry, the longest an
// explicit CCT accepts (params' TestMutCCTTableAtItsBounds), is the delay
// the CCT gives.
func TestMutCCTTableAtItsBounds(t *testing.T) {
	// An accepted 1 s entry is the delay the CCT gives (a table of two:
	// CCTI 1 and every one past it wait 1 s).
	c := params.DefaultCC()
	c.CCT = "table:0,1s"
	if cct := buildCCT(c); cct[1] != engine.Second || cct[127] != engine.Second {
		t.Errorf("table:0,1s gives cct[1] = %v, cct[127] = %v, want 1s", cct[1], cct[127])
	}
}
