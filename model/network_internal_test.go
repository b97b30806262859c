package model

import (
	"maps"
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestMutVictimMaskPortNumbers checks victim_mask's SWITCH:PORT items on the
// testbed, whose switches have 8 ports counted from 1: S2:1 and S2:8 are
// ports of S2 (its first, toward H4, and its last), S2:0 and S2:9 are not,
// and S2:1 sets the victim mask of S2's port toward H4 only.
func TestMutVictimMaskPortNumbers(t *testing.T) {
	cfg := params.DefaultConfig()
	sc := workload.LookupScenario("testbed-s1")
	topo, err := sc.Build(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	for spec, ok := range map[string]bool{"S2:1": true, "S2:8": true, "S1:1,S2:8": true, "S2:0": false, "S2:9": false, "S1:9": false} {
		_, err := victimPorts(topo, spec)
		if (err == nil) != ok {
			t.Errorf("victim_mask %q: error %v, want accepted %v", spec, err, ok)
		}
	}
	n := ccNetwork(t, map[string]any{"victim_mask": "S2:1"})
	toH4 := n.ports[hostPort(t, n, "H4")].peer
	toH5 := n.ports[hostPort(t, n, "H5")].peer
	if !n.ports[toH4].victimMask || n.ports[toH5].victimMask {
		t.Errorf("victim_mask S2:1: S2's port to H4 masked %v (want true), to H5 %v (want false)",
			n.ports[toH4].victimMask, n.ports[toH5].victimMask)
	}
}

// TestMutMeanCCTIAtTheWindowsStart checks the mean CCTI of a run stopped
// exactly where its measurement window begins: no time measured, so 0 (not
// 0/0), whatever the CCTIs; a microsecond into the window at CCTI 6 on every
// slot the mean is 6.
func TestMutMeanCCTIAtTheWindowsStart(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase = 20 * engine.Microsecond
	cfg.Sample = 10 * engine.Microsecond
	cfg.CC.Scheme = params.SchemeIB
	cfg.CC.Threshold = 0                       // no marks: no BECN moves a CCTI
	cfg.CC.CCTITimer = 10 * engine.Millisecond // no expiry within the run
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	n.RunUntil(n.cc.window)
	if n.sim.Now() != n.cc.window {
		t.Fatalf("stopped at %v, want the window's start %v", n.sim.Now(), n.cc.window)
	}
	for s := range n.cc.ccti {
		n.setCCTI(int32(s), 6)
	}
	if got := n.meanCCTI(); got != 0 {
		t.Errorf("mean CCTI at the window's start: %v, want 0", got)
	}
	n.RunUntil(n.cc.window + engine.Microsecond)
	if got := n.meanCCTI(); math.Abs(got-6) > 1e-9 {
		t.Errorf("mean CCTI 1 µs into the window, every slot at 6: %v, want 6", got)
	}
}

// TestMutNICRateExactFitIsAdmitted checks docs/schemes.md's admission rule
// at its edge: requests are admitted if every resource "stays within
// capacity", so requests that fill a resource exactly are admitted. On the
// testbed an adapter's receiving side holds 13 Gbit/s (host_io_gbps, below
// the 16 Gbit/s link's payload rate): 13 from H1 to H4 alone, and 6.5 + 6.5
// from H2 and H3 to H5, are all admitted; 6.5 more to H5 is refused.
func TestMutNICRateExactFitIsAdmitted(t *testing.T) {
	n := nicNetwork(t,
		workload.FlowSpec{Name: "A", Src: "H1", Dst: "H4", RateGbps: 13},
		workload.FlowSpec{Name: "B", Src: "H2", Dst: "H5", RateGbps: 6.5},
		workload.FlowSpec{Name: "C", Src: "H3", Dst: "H5", RateGbps: 6.5},
		workload.FlowSpec{Name: "D", Src: "H6", Dst: "H5", RateGbps: 6.5})
	for i, want := range []float64{13, 6.5, 6.5, 0} {
		if got := n.nic.admittedGbps[i]; math.Abs(got-want) > 1e-12 {
			t.Errorf("flow %d admitted at %g Gbit/s, want %g", i, got, want)
		}
	}
}

// TestMutMixedRateSwitchHasNoOneRate checks that a switch whose links run
// at different rates has no single link rate (rateMbps 0: cut-through is
// then timed from each output link, link.go), including when the odd
// link is the one to the fabric's first port (node 0, host H1, at
// 8 Gbit/s; H2 and H3 at 16), and that a switch whose links share one
// rate has it.
// Kills network.go's `p.peer < 0` turned into `<= 0` (the switch's port
// facing global port 0 left out of the comparison).
func TestMutMixedRateSwitchHasNoOneRate(t *testing.T) {
	for _, c := range []struct {
		h1Gbps float64
		want   int64
	}{{8, 0}, {16, 16000}} {
		sc := &workload.Scenario{Name: "mixed", Phases: 1, Flows: []workload.FlowSpec{{Name: "F", Src: "H2", Dst: "H1"}},
			Build: func(*params.Config) (*fabric.Topology, error) {
				tp := &fabric.Topology{}
				h1 := tp.AddHost("H1")
				s := tp.AddSwitch("S1", 3)
				if err := tp.Connect(h1, s, c.h1Gbps); err != nil {
					return nil, err
				}
				for _, h := range []string{"H2", "H3"} {
					if err := tp.Connect(tp.AddHost(h), s, 16); err != nil {
						return nil, err
					}
				}
				return tp, nil
			}}
		n, err := NewNetwork(sc, params.DefaultConfig(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := n.sws[0].rateMbps; got != c.want {
			t.Errorf("H1 at %g Gbit/s, the others at 16: the switch's one rate %d Mbit/s, want %d", c.h1Gbps, got, c.want)
		}
	}
}

// TestMutFixedDestinationNamed checks the flows a fixed-destination
// pattern makes name their destination host, host 0 too: shift on a star
// of 4 hosts sends H3 to H1.
// Kills network.go's `s.dst >= 0` turned into `>` (host 0 named "*", a
// random destination).
func TestMutFixedDestinationNamed(t *testing.T) {
	sc := starScenario("shift-named", 4)
	sc.Traffic = []workload.TrafficSpec{{Name: "s", Pattern: "shift", Arrival: "saturate"}}
	n, err := NewNetwork(sc, params.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	dst := map[string]string{}
	for i := range n.flows {
		dst[n.flows[i].spec.Src] = n.flows[i].spec.Dst
	}
	want := map[string]string{"H1": "H3", "H2": "H4", "H3": "H1", "H4": "H2"}
	if !maps.Equal(dst, want) {
		t.Errorf("destinations %v, want %v", dst, want)
	}
}

// TestMutSantosTriggerFindsTheVoQInSlot0 checks that reference 001's input
// trigger finds a VoQ wherever it sits in the VoQ table, slot 0 included.
// The table's hash is fixed (Fibonacci hashing of voqKey): on the testbed,
// whose table has 64 slots, the VoQ of S2's input from H4 to S2's port to
// H7 on VL 4 hashes to slot 0 (checked below, since the test depends on
// it), so H4 sends to H7 on SL 4 with 5 VLs. With three-packet input
// buffers and S2's port to H7 holding no credits on VL 4, H4's three
// packets fill S2's input from H4 (the trigger) and wait in that VoQ.
// Input-triggered marking sets the port's CNT_2 to its CNT_1, 3, so all
// three leave S2 marked and reach H7 marked.
func TestMutSantosTriggerFindsTheVoQInSlot0(t *testing.T) {
	sc := &workload.Scenario{Name: "santos-slot-0", Phases: 2, Build: testbed, Flows: []workload.FlowSpec{
		{Name: "A", Src: "H4", Dst: "H7", Role: workload.Contributor, StartPhase: 1, SL: 4},
	}}
	cfg := params.DefaultConfig()
	cfg.SwitchBufferCredits = 99
	cfg.VLs = 5
	cfg.CC.Scheme = params.SchemeSantos
	cfg.Santos.Marking = "input"
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	f := &n.flows[0]
	if f.vl != 4 {
		t.Fatalf("the flow is on VL %d, want 4", f.vl)
	}
	send := func() {
		k := n.newPacket()
		n.pkts[k] = packet{flow: 0, src: f.src, dst: f.dst, dlid: f.dlid, payload: 2048, wire: 2074, credits: 33, vl: f.vl, kind: kindData}
		n.transmit(n.hcas[f.src].port, k, -1)
	}
	hook, got := markedAtDestination(n)
	at := func(us int) { runHooked(n, engine.Time(us)*engine.Microsecond, hook, nil) }
	s2in := n.ports[hostPort(t, n, "H4")].peer  // S2's input from H4
	s2out := n.ports[hostPort(t, n, "H7")].peer // S2's port to H7
	c := n.lane(s2out, f.vl).credits
	n.lane(s2out, f.vl).credits = 0
	for _, us := range []int{0, 2, 4} {
		at(us)
		send()
	}
	at(10)
	if q := n.ports[s2out].queued; q != 3 {
		t.Fatalf("%d packets wait at S2 for H7, want 3", q)
	}
	if slot := n.voqs.find(voqKey(s2out, f.vl, n.ports[s2in].local)); slot != 0 {
		t.Fatalf("the VoQ from H4 to H7 is in slot %d of %d, not 0: the table's hash or the testbed's ports changed; find another VoQ", slot, len(n.voqs.slots))
	}
	n.lane(s2out, f.vl).credits = c
	n.trySwitch(s2out)
	at(60)
	if got[0] != 3 || n.counters.FECN != 3 {
		t.Errorf("%d of H4's 3 packets reached H7 marked (FECN %d); want 3", got[0], n.counters.FECN)
	}
}

// TestMutSantosRoomForOneMoreIsNotFull checks reference 001's trigger, a
// full input buffer being one with no room for another MTU packet: with
// three-packet input buffers (99 credits, 33 a packet), two packets of H6
// to H5 waiting in S2's input from H6 (66 credits, room for a third) do
// not trigger, so naive marking marks neither; a third fills it and all
// three are marked. Each marked packet's ACK carries the mark back: as
// many marked ACKs (counted as CNPs) as marked packets, once all are in.
func TestMutSantosRoomForOneMoreIsNotFull(t *testing.T) {
	for _, c := range []struct {
		packets int
		want    int64
	}{{2, 0}, {3, 3}} {
		n, send := santosBench(t, "naive", 8)
		o5 := n.ports[hostPort(t, n, "H5")].peer
		credits := n.lane(o5, 0).credits
		n.lane(o5, 0).credits = 0
		at := func(us int) { runHooked(n, engine.Time(us)*engine.Microsecond, nil, nil) }
		for i := range c.packets {
			at(2 * i)
			send(0) // H6→H5
		}
		at(10)
		if q := n.ports[o5].queued; q != int32(c.packets) {
			t.Fatalf("%d packets wait for H5, want %d", q, c.packets)
		}
		n.lane(o5, 0).credits = credits
		n.trySwitch(o5)
		at(60)
		if n.counters.FECN != c.want || n.counters.CNPs != c.want || n.counters.BECNs != c.want {
			t.Errorf("%d packets in a 3-packet buffer: %d marked, %d marked ACKs sent, %d received; want %d each",
				c.packets, n.counters.FECN, n.counters.CNPs, n.counters.BECNs, c.want)
		}
	}
}

// TestMutSantosTriggerStaysInItsSwitch checks that reference 001's input
// trigger acts on the outputs of the switch whose input buffer is full,
// and on no other switch's. With three-packet input buffers, S1's link to
// S2 and S2's port to H4 holding no credits, H6 sends one packet to H4 (it
// waits at S2) and H3 three (they fill S1's input from H3: the trigger).
// Input-triggered marking marks the three as they leave S1 for S2 (S1's
// output holds them: CNT_1 = 3); H6's packet, in S2, leaves unmarked.
func TestMutSantosTriggerStaysInItsSwitch(t *testing.T) {
	sc := &workload.Scenario{Name: "santos-two-switches", Phases: 2, Build: testbed, Flows: []workload.FlowSpec{
		{Name: "A", Src: "H3", Dst: "H4", Role: workload.Contributor, StartPhase: 1},
		{Name: "B", Src: "H6", Dst: "H4", Role: workload.Contributor, StartPhase: 1},
	}}
	cfg := params.DefaultConfig()
	cfg.SwitchBufferCredits = 99
	cfg.CC.Scheme = params.SchemeSantos
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	send := func(fi int32) {
		f := &n.flows[fi]
		k := n.newPacket()
		n.pkts[k] = packet{flow: fi, src: f.src, dst: f.dst, dlid: f.dlid, payload: 2048, wire: 2074, credits: 33, vl: f.vl, kind: kindData}
		n.transmit(n.hcas[f.src].port, k, -1)
	}
	hook, got := markedAtDestination(n)
	at := func(us int) { runHooked(n, engine.Time(us)*engine.Microsecond, hook, nil) }
	o4 := n.ports[hostPort(t, n, "H4")].peer
	s1in := n.ports[hostPort(t, n, "H3")].peer // S1's input from H3
	s1out := int32(-1)                         // S1's port to S2
	sw := &n.sws[n.ports[s1in].owner]
	for p := sw.firstPort; p < sw.firstPort+sw.nPorts; p++ {
		if q := n.ports[p].peer; q >= 0 && !n.ports[q].host {
			s1out = p
		}
	}
	c4, c1 := n.lane(o4, 0).credits, n.lane(s1out, 0).credits
	n.lane(o4, 0).credits, n.lane(s1out, 0).credits = 0, 0
	send(1)
	for _, us := range []int{0, 2, 4} {
		at(us)
		send(0)
	}
	at(10)
	if n.ports[s1out].queued != 3 || n.ports[o4].queued != 1 {
		t.Fatalf("%d packets wait at S1 for S2, %d at S2 for H4; want 3, 1", n.ports[s1out].queued, n.ports[o4].queued)
	}
	n.lane(o4, 0).credits, n.lane(s1out, 0).credits = c4, c1
	n.trySwitch(o4)
	n.trySwitch(s1out)
	at(60)
	if got[0] != 3 || got[1] != 0 || n.counters.FECN != 3 {
		t.Errorf("marked at H4: %d of H3's 3, %d of H6's 1 (FECN %d); want 3, 0", got[0], got[1], n.counters.FECN)
	}
}
