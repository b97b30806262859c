package model

import (
	"fmt"
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestMechSantosWindowAndRate follows testbed-s1's F1 alone under santos
// (m = 2, R_max = the host's 13 Gbit/s, R_min = R_max/64 = 0.203125) with
// its 5th packet marked on the way. Reference 001's source (§1.4, [A]): a
// window of one packet, and a rate answering every ACK, so a packet starts
// only once the previous one's ACK is back and no earlier than the
// previous start plus its 16 384 payload bits at the rate. Alone, F1's
// round trip is longer than a packet at 13 Gbit/s (1 260 308 ps), so
// before the mark each packet starts exactly when the last ACK arrives.
// The marked ACK takes the rate to 6.5 Gbit/s (aimd and fimd: r/m; lipd:
// r·R_max/(R_max+r) = 13·13/26); the next starts then follow the rate as
// unmarked ACKs raise it. By hand, the gaps in ps (rounded down) after the
// 5th packet: 16 384e3/6.5 = 2 520 615, then
//
//	fimd, r·2^(R_min/r): r = 6.5·2^(1/32) = 6.642331 → 2 466 603;
//	     6.784630 → 2 414 870; 6.926896 → 2 365 272
//	lipd, the gap times 1 − R_min/R_max = 63/64: 2 481 230, 2 442 461,
//	     2 404 298
//	aimd, r + R_min²/r: 6.5 + 0.041260/6.5 = 6.506348 → 2 518 156;
//	     2 515 704; 2 513 259
func TestMechSantosWindowAndRate(t *testing.T) {
	for _, c := range []struct {
		response string
		gaps     []engine.Time
	}{
		{"fimd", []engine.Time{2520615, 2466603, 2414870, 2365272}},
		{"lipd", []engine.Time{2520615, 2481230, 2442461, 2404298}},
		{"aimd", []engine.Time{2520615, 2518156, 2515704, 2513259}},
	} {
		t.Run(c.response, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase = engine.Millisecond
			cfg.CC.Scheme = params.SchemeSantos
			cfg.Santos.Response = c.response
			n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			h1 := hostPort(t, n, "H1")
			s1In := n.ports[h1].peer
			arrivals := 0
			var acks []engine.Time
			var marked []bool
			before := func(e engine.Event) {
				if e.Kind != evArrive {
					return
				}
				pk := &n.pkts[e.Arg]
				switch {
				case pk.kind == kindData && pk.flow == 0 && pk.inPort == s1In:
					if arrivals++; arrivals == 5 {
						pk.fecn = true
					}
				case pk.kind == kindCNP && pk.flow == 0 && pk.inPort == h1:
					acks = append(acks, n.sim.Now())
					marked = append(marked, pk.becn)
				}
			}
			after, startsP := startRecorder(n, 0)
			runHooked(n, 40*engine.Microsecond, before, after)
			starts := *startsP
			if len(starts) < 12 {
				t.Fatalf("F1 started %d packets in 40 µs", len(starts))
			}
			// Window of one: start, its ACK, the next start, its ACK, ...
			for i := 0; i+1 < len(starts); i++ {
				if i >= len(acks) || acks[i] <= starts[i] || acks[i] > starts[i+1] {
					t.Fatalf("packet %d started at %v and %d at %v; ACKs %v: a packet left before the previous one's ACK", i, starts[i], i+1, starts[i+1], acks[:min(len(acks), i+2)])
				}
			}
			for i := range marked[:8] {
				if marked[i] != (i == 4) {
					t.Fatalf("ACK marks %v, want only the 5th", marked[:8])
				}
			}
			const own = 1260308
			for i := 0; i < 4; i++ {
				if rtt := acks[i] - starts[i]; rtt <= own {
					t.Fatalf("round trip %v not longer than a packet's own time: the window does not bind", rtt)
				}
				if starts[i+1] != acks[i] {
					t.Errorf("packet %d at %v, the previous ACK at %v: at R_max it must start with the ACK", i+1, starts[i+1], acks[i])
				}
			}
			for j, want := range c.gaps {
				i := 4 + j
				if got := starts[i+1] - starts[i]; got != want {
					t.Errorf("packet %d: %d ps after packet %d, want %d (rate after ACK %d)", i+1, got, i, want, i+1)
				}
			}
		})
	}
}

// TestMechAIMDIncrease checks aimd's f_inc from its parameter's doc: each
// unmarked ACK at rate r adds a·R_min²/r, with R_min = 1/64, a = 1, by
// hand: r = 1/2 → 1/2 + 1/2048 = 0.50048828125; r = 1/64 → 1/32; r = 1/8
// → 1/8 + 1/512 = 0.126953125; and a = 4 at r = 1/4 → 1/4 + 4/1024.
func TestMechAIMDIncrease(t *testing.T) {
	for _, c := range []struct{ a, r, want float64 }{
		{1, 0.5, 0.50048828125},
		{1, 1.0 / 64, 1.0 / 32},
		{1, 0.125, 0.126953125},
		{4, 0.25, 0.25390625},
	} {
		rr := rateRule{resp: respAIMD, m: 2, rMin: 1.0 / 64, rMax: 1, step: c.a / 64} // step = a·R_min, as initSantos sets it
		if got := rr.next(c.r, false); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("a = %g: f_inc(%g) = %.12g, want %.12g", c.a, c.r, got, c.want)
		}
		if got := rr.next(c.r, true); math.Abs(got-max(c.r/2, 1.0/64)) > 1e-15 {
			t.Errorf("a = %g: f_dec(%g) = %g, want r/m = %g", c.a, c.r, got, c.r/2)
		}
	}
}

// santosBench is the testbed under santos with three-packet switch input
// buffers (99 credits) and flows that never start within a second, so a
// test can put packets into it by hand. It returns the network and a
// function sending one MTU packet of flow fi from its source's HCA now.
// Flows: 0 H6→H5, 1 H7→H4, 2 H1→H5, 3 H2→H5, 4 H3→H4, 5 H7→H5, 6 H1→H4.
func santosBench(t *testing.T, marking string, outThresh int) (*Network, func(fi int32)) {
	t.Helper()
	pairs := [][2]string{{"H6", "H5"}, {"H7", "H4"}, {"H1", "H5"}, {"H2", "H5"}, {"H3", "H4"}, {"H7", "H5"}, {"H1", "H4"}}
	sc := &workload.Scenario{Name: "santos-bench", Phases: 2, Build: testbed}
	for i, p := range pairs {
		sc.Flows = append(sc.Flows, workload.FlowSpec{Name: fmt.Sprint("F", i), Src: p[0], Dst: p[1], Role: workload.Contributor, StartPhase: 1})
	}
	cfg := params.DefaultConfig()
	cfg.SwitchBufferCredits = 99
	cfg.CC.Scheme = params.SchemeSantos
	cfg.Santos.Marking, cfg.Santos.OutputThreshold = marking, outThresh
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	send := func(fi int32) {
		f := &n.flows[fi]
		hp := n.hcas[f.src].port
		if n.ports[hp].linkFree > n.sim.Now() {
			t.Fatalf("F%d: H%d's link is busy", fi, f.src+1)
		}
		k := n.newPacket()
		n.pkts[k] = packet{flow: fi, src: f.src, dst: f.dst, dlid: f.dlid, payload: 2048, wire: 2074, credits: 33, vl: f.vl, kind: kindData}
		n.transmit(hp, k, -1)
	}
	return n, send
}

// markedAtDestination returns a before-hook counting, per flow, the data
// packets that reach their destination HCA with their congestion bit set.
func markedAtDestination(n *Network) (func(engine.Event), map[int32]int) {
	got := map[int32]int{}
	return func(e engine.Event) {
		if e.Kind != evArrive {
			return
		}
		if pk := &n.pkts[e.Arg]; pk.kind == kindData && n.ports[pk.inPort].host && pk.fecn {
			got[pk.flow]++
		}
	}, got
}

// TestMechSantosInputTriggeredMarking drives reference 001's switch
// marking at S2 (§1.3) with S2's ports to H4 (o4) and H5 (o5) holding no
// credits, so nothing leaves them:
//
//	0 µs: H6→H5 (F0) and H7→H4 (F1) wait in their inputs; H1→H5, H2→H5 and
//	      H3→H4 (F2, F3, F4) fill the S1 input (3 packets): trigger 1.
//	      Input-triggered: CNT_2 = CNT_1, o5: 3 (F0, F2, F3), o4: 2 (F1, F4).
//	6 µs, 9 µs: H7→H5 twice (F5); the second fills H7's input: trigger 2,
//	      reset (not add): CNT_2 = CNT_1, o5: 5, o4: 2.
//	12 µs: o4 and o5 get their credits back; all 7 packets leave marked.
//	40 µs, 43 µs: H1→H5 (F2), H1→H4 (F6): nothing left to mark, unmarked.
//
// Naive marking marks only the packets of the full buffers, at the
// triggers: all but F0, which waits in a buffer that never fills.
func TestMechSantosInputTriggeredMarking(t *testing.T) {
	for _, c := range []struct {
		marking string
		want    map[int32]int
	}{
		{"input", map[int32]int{0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 2}},
		{"naive", map[int32]int{1: 1, 2: 1, 3: 1, 4: 1, 5: 2}},
	} {
		t.Run(c.marking, func(t *testing.T) {
			n, send := santosBench(t, c.marking, 8)
			o4 := n.ports[hostPort(t, n, "H4")].peer
			o5 := n.ports[hostPort(t, n, "H5")].peer
			credits := n.lane(o5, 0).credits
			n.lane(o4, 0).credits, n.lane(o5, 0).credits = 0, 0
			hook, got := markedAtDestination(n)
			at := func(us int) { runHooked(n, engine.Time(us)*engine.Microsecond, hook, nil) }
			for _, fi := range []int32{0, 1, 2, 3, 4} {
				send(fi)
			}
			at(6)
			send(5)
			at(9)
			send(5)
			at(12)
			if n.ports[o5].queued != 5 || n.ports[o4].queued != 2 {
				t.Fatalf("before release: %d packets for H5, %d for H4; want 5, 2", n.ports[o5].queued, n.ports[o4].queued)
			}
			n.lane(o4, 0).credits, n.lane(o5, 0).credits = credits, credits
			n.trySwitch(o4)
			n.trySwitch(o5)
			at(40)
			send(2)
			at(43)
			send(6)
			at(80)
			if n.ports[o5].queued != 0 || n.ports[o4].queued != 0 {
				t.Fatal("packets still wait at S2")
			}
			total := 0
			for _, m := range c.want {
				total += m
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) || n.counters.FECN != int64(total) {
				t.Errorf("marked packets per flow %v (FECN %d), want %v", got, n.counters.FECN, c.want)
			}
		})
	}
}

// TestMechSantosOutputTrigger checks input_output marking's output
// trigger (reference 001 §1.3 (c), option (i)): with o5 (S2 to H5)
// holding no credits, H6, H7 and H1 each send one packet to H5 (2 µs
// apart), so CNT_1 of o5 reaches 3 with no input buffer full. Above the
// threshold (3 > 2) the 3 packets are marked as they leave; at it (3, not
// above 3) none are, nor under input-triggered marking alone. A packet
// sent after they left finds CNT_1 = 1 and no mark left to take.
func TestMechSantosOutputTrigger(t *testing.T) {
	for _, c := range []struct {
		marking string
		thresh  int
		want    int64
	}{
		{"input_output", 2, 3},
		{"input_output", 3, 0},
		{"input", 2, 0},
	} {
		t.Run(fmt.Sprint(c.marking, " ", c.thresh), func(t *testing.T) {
			n, send := santosBench(t, c.marking, c.thresh)
			o5 := n.ports[hostPort(t, n, "H5")].peer
			credits := n.lane(o5, 0).credits
			n.lane(o5, 0).credits = 0
			hook, got := markedAtDestination(n)
			at := func(us int) { runHooked(n, engine.Time(us)*engine.Microsecond, hook, nil) }
			send(0) // H6→H5
			at(2)
			send(5) // H7→H5
			at(4)
			send(2) // H1→H5
			at(8)
			if n.ports[o5].queued != 3 {
				t.Fatalf("%d packets wait for H5, want 3", n.ports[o5].queued)
			}
			n.lane(o5, 0).credits = credits
			n.trySwitch(o5)
			at(30)
			send(3) // H2→H5, late
			at(60)
			if n.counters.FECN != c.want || got[3] != 0 {
				t.Errorf("%d packets marked (the late one: %d), want %d and the late one unmarked", n.counters.FECN, got[3], c.want)
			}
		})
	}
}
