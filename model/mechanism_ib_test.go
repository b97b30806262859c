package model

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestMechThresholdScale checks the marking threshold of every connected
// switch port of the testbed (1024-credit input buffers): threshold 1..15
// is 15/16..1/16 of the fill measure's full scale. For a VoQ and for the
// per-input average the full scale is one input buffer; for the port's sum
// it is the buffers of the inputs that can feed the port, every connected
// input but the port's own (a packet never leaves by the port it came in):
// S1 has 4 connected ports (H1-H3, S2), so 3·1024 = 3072; S2 has 5 (H4-H7,
// S1), so 4·1024 = 4096.
func TestMechThresholdScale(t *testing.T) {
	cases := []struct {
		mode   string
		thr    int
		s1, s2 int32
	}{
		{"port", 15, 3072 / 16, 4096 / 16},          // 192, 256
		{"port", 8, 3072 * 8 / 16, 4096 * 8 / 16},   // 1536, 2048
		{"port", 1, 3072 * 15 / 16, 4096 * 15 / 16}, // 2880, 3840
		{"voq", 15, 64, 64},                         // 1024/16
		{"voq", 1, 960, 960},                        // 1024·15/16
		{"port_avg", 12, 256, 256},                  // 1024·4/16
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %d", c.mode, c.thr), func(t *testing.T) {
			n := ccNetwork(t, map[string]any{"fill_mode": c.mode, "threshold": int64(c.thr)})
			for _, h := range []struct {
				host string
				want int32
			}{{"H1", c.s1}, {"H3", c.s1}, {"H4", c.s2}, {"H7", c.s2}} {
				p := n.ports[hostPort(t, n, h.host)].peer // the switch port facing the host
				if got := n.ports[p].markThreshold; got != h.want {
					t.Errorf("%s's switch port: threshold %d credits, want %d", h.host, got, h.want)
				}
				// The inter-switch port of the same switch has the same.
				sw := &n.sws[n.ports[p].owner]
				for q := sw.firstPort; q < sw.firstPort+sw.nPorts; q++ {
					if peer := n.ports[q].peer; peer >= 0 && !n.ports[peer].host && n.ports[q].markThreshold != h.want {
						t.Errorf("%s's switch, inter-switch port: threshold %d, want %d", h.host, n.ports[q].markThreshold, h.want)
					}
				}
			}
		})
	}
}

// markOnce offers one eligible data packet of 33 credits to output p, fed
// from input in, and reports whether markFECN set its FECN.
func markOnce(n *Network, p, in int32) bool {
	pk := packet{kind: kindData, credits: 33}
	n.markFECN(p, in, &pk)
	return pk.fecn
}

// TestMechFECNAtTheThreshold checks SPEC §2's congestion state at its
// edges, with every eligible packet marked (marking_rate 0): a port-VL
// whose fill has reached the threshold (fill = threshold) marks and one a
// credit below does not, in each fill mode; the port is a root while it
// holds credits for an MTU packet (33 credits) after this one (66 credits
// left before a 33-credit packet), and a victim one credit short (65),
// which marks only with its victim mask.
func TestMechFECNAtTheThreshold(t *testing.T) {
	for _, mode := range []string{"port", "voq", "port_avg"} {
		t.Run(mode, func(t *testing.T) {
			n := ccNetwork(t, map[string]any{"fill_mode": mode, "marking_rate": int64(0), "marking_mode": "counter",
				"victim_mask": "none"})
			p := n.ports[hostPort(t, n, "H5")].peer  // S2's port to H5
			in := n.ports[hostPort(t, n, "H6")].peer // S2's port from H6
			pt := &n.ports[p]
			thr := pt.markThreshold
			ln := n.lane(p, 0)
			ln.credits = 66
			setFill := func(f int32) {
				switch mode {
				case "port":
					ln.voqFill = f
				case "voq":
					n.voqs.at(n.voqs.get(voqKey(p, 0, n.ports[in].local))).fill = f
				case "port_avg": // three inputs hold 3·f (+0..2): the average rounds down to f
					ln.voqFill, ln.fillInputs = 3*f, 3
				}
			}
			setFill(thr)
			if !markOnce(n, p, in) {
				t.Errorf("fill = threshold (%d credits) on a root: not marked", thr)
			}
			setFill(thr - 1)
			if mode == "port_avg" {
				ln.voqFill = 3*thr - 1 // average (3·thr−1)/3 = thr−1
			}
			if markOnce(n, p, in) {
				t.Errorf("fill one credit under the threshold (%d): marked", thr)
			}
			setFill(thr)
			ln.credits = 65
			if markOnce(n, p, in) {
				t.Error("a victim (65 credits before a 33-credit packet) without victim mask marked")
			}
			pt.victimMask = true
			if !markOnce(n, p, in) {
				t.Error("a victim with its victim mask set did not mark")
			}
		})
	}
}

// TestMechCounterMarkingSpacing checks marking_mode counter against SPEC
// §2's Marking_Rate, the number of eligible packets sent between marked
// ones: marks fall exactly marking_rate+1 eligible packets apart, and
// packets too small to be eligible (under packet_size credits) pass
// between them without counting.
func TestMechCounterMarkingSpacing(t *testing.T) {
	for _, rate := range []int{0, 1, 3} {
		t.Run(fmt.Sprint(rate), func(t *testing.T) {
			n := ccNetwork(t, map[string]any{"marking_rate": int64(rate), "marking_mode": "counter", "packet_size": int64(8)})
			p := congestedPort(n, false)
			in := n.nodePort(n.ports[p].node)
			var marked []int // indexes among the eligible packets
			for i := 0; i < 4*(rate+1); i++ {
				small := packet{kind: kindData, credits: 7}
				n.markFECN(p, in, &small)
				if small.fecn {
					t.Fatal("a 7-credit packet was marked with packet_size 8")
				}
				if markOnce(n, p, in) {
					marked = append(marked, i)
				}
			}
			if len(marked) != 4 {
				t.Fatalf("marks at eligible packets %v, want 4 in %d", marked, 4*(rate+1))
			}
			for j := 1; j < len(marked); j++ {
				if d := marked[j] - marked[j-1]; d != rate+1 {
					t.Errorf("marks at eligible packets %v: %d apart, want marking_rate+1 = %d", marked, d, rate+1)
				}
			}
		})
	}
}

// TestMechBECNAndTimerSetTheGapBetweenPackets follows one FECN through IB
// CC on the testbed (SPEC §2, adapter side): F1 alone, its 10th packet
// marked as it reaches S1. H4 answers with a CNP; at its arrival F1's CCTI
// rises by ccti_increase = 5; each expiry of the CCTI timer (150 µs, first
// at 150 µs with ccti_timer_start zero) takes one off: 4 from 150 µs, 3
// from 300 µs. F1 starts each packet one own time after the last plus the
// IRD CCT[CCTI] = 7·CCTI²/106² µs its CCTI gives when it sends (no paced
// read latency). By hand, in picoseconds:
//
//	own time: max(2074 B at 16 Gbit/s, 2048 B at 13 Gbit/s)
//	        = max(1 037 000, ⌈1 260 307.7⌉) = 1 260 308
//	CCT[5] = ⌊7e6·25/11236⌋ = 15 574, CCT[4] = ⌊7e6·16/11236⌋ = 9 967,
//	CCT[3] = ⌊7e6·9/11236⌋ = 5 606
func TestMechBECNAndTimerSetTheGapBetweenPackets(t *testing.T) {
	n := ccNetwork(t, map[string]any{"becn_return": "cnp", "ccti_increase": int64(5), "ccti_timer": "150us",
		"ccti_timer_start": "zero", "paced_read_latency": engine.Time(0)})
	h1 := hostPort(t, n, "H1")
	s1In := n.ports[h1].peer
	arrivals := 0
	var cnpAt []engine.Time
	before := func(e engine.Event) {
		if e.Kind != evArrive {
			return
		}
		pk := &n.pkts[e.Arg]
		switch {
		case pk.kind == kindData && pk.flow == 0 && pk.inPort == s1In:
			if arrivals++; arrivals == 10 {
				pk.fecn = true
			}
		case pk.kind == kindCNP && pk.inPort == h1:
			cnpAt = append(cnpAt, n.sim.Now())
		}
	}
	after, starts := startRecorder(n, 0)
	runHooked(n, 320*engine.Microsecond, before, after)
	if len(cnpAt) != 1 || n.counters.BECNs != 1 {
		t.Fatalf("%d CNPs reached H1 (BECNs %d), want the one answering the marked packet", len(cnpAt), n.counters.BECNs)
	}
	const own = 1260308
	ird := map[int32]engine.Time{0: 0, 5: 15574, 4: 9967, 3: 5606}
	ccti := func(at engine.Time) int32 { // by hand: the BECN, then the expiries
		switch {
		case at < cnpAt[0]:
			return 0
		case at < 150*engine.Microsecond:
			return 5
		case at < 300*engine.Microsecond:
			return 4
		}
		return 3
	}
	seen := map[int32]int{}
	s := *starts
	for i := 0; i+1 < len(s); i++ {
		c := ccti(s[i])
		seen[c]++
		if got, want := s[i+1]-s[i], own+ird[c]; got != want {
			t.Fatalf("packet %d at %v (CCTI %d by hand): next one %d ps later, want %d", i, s[i], c, got, want)
		}
	}
	t.Logf("CNP at %v; gaps per CCTI %v", cnpAt[0], seen)
	for _, c := range []int32{0, 5, 4, 3} {
		if seen[c] == 0 {
			t.Errorf("no packet sent at CCTI %d (gaps per CCTI %v)", c, seen)
		}
	}
	if got := n.cc.ccti[n.flows[0].cc.slot]; got != 3 {
		t.Errorf("CCTI at 320 µs: %d, want 5 − 2 expiries = 3", got)
	}
}

// TestMechBECNRidesOnTheNextRequestedACK checks the RC transport's BECN
// return (transport.go, becn_return ack, ack_req_packets 16): F1 alone on
// the testbed sends 64 KiB messages of 32 packets, asking for an ACK on
// packets 16 and 32 of each. With its packets 3, 5, 20 and 40 marked, H4
// sends three ACKs with a BECN, each as the tail of the next AckReq packet
// is in: packet 16 (for the FECNs of 3 and 5, coalesced), 32 (20) and 48
// (40, the 16th of the second message); F1's CCTI rises by one per ACK.
func TestMechBECNRidesOnTheNextRequestedACK(t *testing.T) {
	n := ccNetwork(t, map[string]any{"becn_return": "ack", "ack_req_packets": int64(16), "ccti_timer": "10ms",
		"paced_read_latency": engine.Time(0)})
	h1, h4 := hostPort(t, n, "H1"), hostPort(t, n, "H4")
	s1In := n.ports[h1].peer
	marks := map[int]bool{3: true, 5: true, 20: true, 40: true}
	atS1, atH4, becns := 0, 0, 0
	tails := map[int]engine.Time{} // packet number -> its tail's arrival at H4
	var acks []engine.Time
	before := func(e engine.Event) {
		switch e.Kind {
		case evArrive:
			pk := &n.pkts[e.Arg]
			switch {
			case pk.kind == kindData && pk.flow == 0 && pk.inPort == s1In:
				atS1++
				pk.fecn = marks[atS1]
			case pk.kind == kindData && pk.flow == 0 && pk.inPort == h4:
				atH4++
				tails[atH4] = pk.tailAt
			case pk.kind == kindCNP && pk.inPort == h1:
				becns++
			}
		case evAck:
			if n.pkts[e.Arg].flow == 0 {
				acks = append(acks, n.sim.Now())
			}
		}
	}
	runHooked(n, 100*engine.Microsecond, before, nil)
	if atH4 < 50 {
		t.Fatalf("only %d packets reached H4", atH4)
	}
	want := []engine.Time{tails[16], tails[32], tails[48]}
	if len(acks) != 3 || acks[0] != want[0] || acks[1] != want[1] || acks[2] != want[2] {
		t.Fatalf("BECN-carrying ACKs sent at %v, want at the tails of packets 16, 32, 48: %v", acks, want)
	}
	if becns != 3 || n.counters.BECNs != 3 || n.cc.ccti[n.flows[0].cc.slot] != 3 {
		t.Errorf("%d BECNs at H1 (counter %d), CCTI %d; want 3, 3, 3", becns, n.counters.BECNs, n.cc.ccti[n.flows[0].cc.slot])
	}
}

// TestMechTimerLowersEveryFlowOfItsPortSL checks SPEC §2: a CCTI_Timer
// expiry takes one off the CCTI of every flow of its port-SL (QP level:
// each flow its own CCTI), never below ccti_min, and of no other port's.
// H1 sources A and B, H2 sources C: CCTIs 3, 5, 4 and ccti_min 0 become
// 2, 4, 4 after H1's timer expires, then 1, 3, 4 and, two expiries on,
// 0, 1, 4.
func TestMechTimerLowersEveryFlowOfItsPortSL(t *testing.T) {
	sc := &workload.Scenario{Name: "timer", Phases: 1, Build: testbed, Flows: []workload.FlowSpec{
		{Name: "A", Src: "H1", Dst: "H4", Role: workload.Contributor},
		{Name: "B", Src: "H1", Dst: "H5", Role: workload.Contributor},
		{Name: "C", Src: "H2", Dst: "H5", Role: workload.Contributor},
	}}
	cfg := params.DefaultConfig()
	cfg.CC.Scheme = params.SchemeIB
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []int32{3, 5, 4} {
		n.setCCTI(n.flows[i].cc.slot, v)
	}
	timerOf := func(fi int) int32 {
		for ti, tm := range n.cc.timers {
			if slices.Contains(tm.slots, n.flows[fi].cc.slot) {
				return int32(ti)
			}
		}
		t.Fatalf("flow %d has no timer", fi)
		return -1
	}
	if timerOf(0) != timerOf(1) || timerOf(0) == timerOf(2) {
		t.Fatal("A and B must share H1's timer, C have H2's")
	}
	for _, want := range [][3]int32{{2, 4, 4}, {1, 3, 4}, {0, 2, 4}, {0, 1, 4}} {
		n.cctiTimer(timerOf(0))
		var got [3]int32
		for i := range got {
			got[i] = n.cc.ccti[n.flows[i].cc.slot]
		}
		if got != want {
			t.Fatalf("CCTIs %v after an expiry of H1's timer, want %v", got, want)
		}
	}
}
