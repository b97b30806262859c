package model

import (
	"math"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

func TestAckRequestedOnEveryNthPacketAndTheLast(t *testing.T) {
	cases := []struct {
		every, left, sent int
		want              bool
	}{
		{16, 60 << 10, 2, false},
		{16, 32 << 10, 16, true},
		{16, 30 << 10, 17, false},
		{16, 0, 32, true}, // the message's last packet
		{16, 0, 5, true},  // a short message's last packet
		{0, 32 << 10, 16, false},
		{0, 0, 32, true},
		{1, 60 << 10, 3, true},
	}
	for _, c := range cases {
		n := ccNetwork(t, map[string]any{"ack_req_packets": int64(c.every)})
		if got := n.ackRequested(c.left, c.sent); got != c.want {
			t.Errorf("ack_req_packets %d, %d bytes left, packet %d of its message: AckReq %v, want %v",
				c.every, c.left, c.sent, got, c.want)
		}
	}
}

// With BECNs in ACKs a flow gets at most one BECN per ACK it asks for, however
// many of its packets are marked; with CNPs it gets one per marked packet.
func TestBECNsInACKsCoalesceTheFECNsBetweenTwoACKs(t *testing.T) {
	for _, c := range []struct {
		ret   string
		every int
	}{{"ack", 16}, {"ack", 0}, {"ack", 4}, {"cnp", 16}} {
		n := ccNetwork(t, map[string]any{"becn_return": c.ret, "ack_req_packets": int64(c.every),
			"marking_rate": int64(0), "phase": "5ms"})
		n.RunUntil(n.End())
		var acks int64 // ACKs the requesters asked for
		perMsg := int64(n.cfg.MessageSize / n.cfg.MTU)
		for _, f := range n.flows {
			pkts := f.sent / int64(n.cfg.MTU)
			acks += pkts / perMsg
			if c.every > 0 {
				acks += pkts / perMsg * (perMsg/int64(c.every) - 1)
			}
			acks += 1 // a message in progress may have asked for one
		}
		got := n.counters
		if got.FECN == 0 || got.BECNs == 0 {
			t.Fatalf("%s/%d: FECN %d, BECNs %d: no congestion to notify", c.ret, c.every, got.FECN, got.BECNs)
		}
		switch c.ret {
		case "ack":
			if got.CNPs > acks {
				t.Errorf("ack, every %d: %d BECN-carrying ACKs for %d ACKs requested", c.every, got.CNPs, acks)
			}
			if got.CNPs*2 > got.FECN {
				t.Errorf("ack, every %d: %d BECNs for %d FECNs: marks were not coalesced", c.every, got.CNPs, got.FECN)
			}
		case "cnp":
			if got.CNPs < got.FECN-100 {
				t.Errorf("cnp: %d CNPs for %d FECNs: every marked packet that arrived needs its own", got.CNPs, got.FECN)
			}
		}
		if got.BECNs > got.CNPs || got.BECNs < got.CNPs-10 {
			t.Errorf("%s/%d: BECNs %d of %d sent: notifications must reach their sources", c.ret, c.every, got.BECNs, got.CNPs)
		}
	}
}

// A flow held at a fixed CCTI (ccti_min = ccti_limit) alone on the testbed
// starts each 2 KiB packet one own time after the last (its link or send DMA
// time, the longer) plus its paced gap, and no gap at CCTI 0. The gap is
// the IRD CCT[CCTI] = 7·CCTI²/106² µs, stretched to the paced read latency
// when that is longer, except, with paced_read = aside (ib-5), while the
// IRD is at most the own time (the payload was read ahead): then the IRD
// alone. By hand, in picoseconds: own = max(2074 B at 16 Gbit/s, 2048 B at
// 13 Gbit/s) = max(1 037 000, ⌈1 260 307.7⌉) = 1 260 308; CCT[40] =
// ⌊7e6·1600/11236⌋ = 996 796, CCT[44] = ⌊7e6·1936/11236⌋ = 1 206 123 (the
// last entry within own), CCT[45] = ⌊7e6·2025/11236⌋ = 1 261 569 (the
// first beyond it), CCT[100] = ⌊7e6·10000/11236⌋ = 6 229 975. Every gap
// must be exact, and the throughput 16 384 bits per period.
func TestPacedFlowRateMatchesItsClosedForm(t *testing.T) {
	const own = 1260308
	const read = 2 * engine.Microsecond
	for _, c := range []struct {
		mode   string
		ccti   int
		read   engine.Time
		period engine.Time
		gbps   float64 // 16384 bits / period
	}{
		{"aside", 40, read, own + 996796, 7.25886},
		{"aside", 44, read, own + 1206123, 6.64280},
		{"aside", 45, read, own + 2000000, 5.02529},
		{"aside", 45, 0, own + 1261569, 6.49675},
		{"aside", 100, read, own + 6229975, 2.18737},
		{"aside", 0, read, own, 13.0000},
		{"all", 40, read, own + 2000000, 5.02529},
		{"all", 40, 0, own + 996796, 7.25886},
		{"all", 100, read, own + 6229975, 2.18737},
		{"all", 0, read, own, 13.0000},
	} {
		n := ccNetwork(t, map[string]any{"ccti_min": int64(c.ccti), "ccti_limit": int64(c.ccti),
			"paced_read": c.mode, "paced_read_latency": c.read, "phase": "2ms"})
		after, starts := startRecorder(n, 0)
		runHooked(n, n.cfg.Phase, nil, after) // F1 alone in the first phase
		s := *starts
		for i := 1; i < len(s); i++ {
			if got := s[i] - s[i-1]; got != c.period {
				t.Fatalf("%s, CCTI %d, read latency %v: packets %d and %d %d ps apart, want %d", c.mode, c.ccti, c.read, i-1, i, got, c.period)
			}
		}
		r := n.Result()
		got := r.MeanGbps(0, 500*engine.Microsecond, n.cfg.Phase)
		if len(s) < 100 || math.Abs(got-c.gbps) > 0.01*c.gbps {
			t.Errorf("%s, CCTI %d, read latency %v: %d packets, F1 %.3f Gbit/s, want %.3f", c.mode, c.ccti, c.read, len(s), got, c.gbps)
		}
	}
}

func TestCCTITimersStartOutOfStepAndDeterministically(t *testing.T) {
	firsts := func(start string, seed uint64) []engine.Time {
		cfg := params.DefaultConfig()
		cfg.CC.Scheme = params.SchemeIB
		cfg.Transport.CCTITimerStart = start
		n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		next := n.cctiTimerStarts()
		var out []engine.Time
		for i := 0; i < 5; i++ {
			out = append(out, next())
		}
		return out
	}
	period := params.DefaultConfig().CC.CCTITimer
	a, b, c := firsts("random", 1), firsts("random", 1), firsts("random", 2)
	distinct := map[engine.Time]bool{}
	for i, t0 := range a {
		if t0 <= 0 || t0 > period {
			t.Errorf("first expiry %v outside (0, %v]", t0, period)
		}
		if t0 != b[i] {
			t.Errorf("seed 1 gave %v then %v: not deterministic", a, b)
		}
		distinct[t0] = true
	}
	if len(distinct) < 4 || slices.Equal(a, c) {
		t.Errorf("first expiries %v (seed 2: %v): want out of step, and different per seed", a, c)
	}
	for _, t0 := range firsts("zero", 1) {
		if t0 != period {
			t.Errorf("ccti_timer_start zero: first expiry %v, want %v", t0, period)
		}
	}
}

// TestMutPacedGapAtAPacketsOwnTime checks the edge of paced_read aside
// (docs/model.md, "What the hardware adds"; transport.go's pacedGap): a
// paced QP whose IRD is at most its packet's own time reads its next
// payload ahead and waits its IRD only; one whose IRD exceeds it by a
// picosecond waits the read round trip, paced_read_latency (2.5 µs). At
// CCTI 5 on the testbed's CCT the IRD is ⌊7e6·25/106²⌋ = 15 574 ps. Under
// paced_read all even an IRD below the own time waits the round trip, and
// an unpaced QP (CCTI 0) waits nothing.
func TestMutPacedGapAtAPacketsOwnTime(t *testing.T) {
	const ird = 15574
	lat := 2500 * engine.Nanosecond
	for _, c := range []struct {
		read      string
		ccti      int32
		own, want engine.Time
	}{
		{"aside", 5, ird, ird},
		{"aside", 5, ird + 1, ird},
		{"aside", 5, ird - 1, lat},
		{"all", 5, ird, lat},
		{"all", 5, 10 * ird, lat},
		{"aside", 0, ird, 0},
	} {
		n := ccNetwork(t, map[string]any{"paced_read": c.read, "paced_read_latency": lat})
		f := &n.flows[0]
		n.setCCTI(f.cc.slot, c.ccti)
		if got := n.pacedGap(f, c.own); got != c.want {
			t.Errorf("paced_read %s, CCTI %d, own time %d ps: gap %d ps, want %d", c.read, c.ccti, c.own, got, c.want)
		}
	}
}
