package model

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of a gremlins run on santos.go
// (docs/testing.md, "Mutation testing").

// TestMutSantosRMaxDefault checks santos.r_max's default as docs/schemes.md
// gives it: the lower of host_io_gbps and the host link's payload rate.
// With the testbed's 16 Gbit/s host links and 2048-byte MTUs in 2074 bytes
// on the wire, the payload rate is 16·2048/2074 = 15.7994... Gbit/s: it is
// R_max when host_io_gbps is 100, and 13 when host_io_gbps is 13; R_min
// is R_max/64 either way.
func TestMutSantosRMaxDefault(t *testing.T) {
	for _, c := range []struct{ io, want float64 }{
		{100, 16.0 * 2048 / 2074},
		{13, 13},
	} {
		cfg := params.DefaultConfig()
		cfg.CC.Scheme = params.SchemeSantos
		cfg.HostIOGbps = c.io
		if cfg.MTU != 2048 || cfg.MTU+cfg.HeaderBytes != 2074 || cfg.HostLinkGbps != 16 {
			t.Fatalf("the testbed's defaults changed (MTU %d, header %d, link %g): rework this test", cfg.MTU, cfg.HeaderBytes, cfg.HostLinkGbps)
		}
		n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		rr := n.santos.rule
		if math.Abs(rr.rMax-c.want) > 1e-12 || math.Abs(rr.rMin-c.want/64) > 1e-12 {
			t.Errorf("host_io_gbps %g: R_max %.6f, R_min %.6f; want %.6f, %.6f", c.io, rr.rMax, rr.rMin, c.want, c.want/64)
		}
		if r := n.santos.flows[0].rateGbps; r != rr.rMax {
			t.Errorf("host_io_gbps %g: a flow starts at %g, want R_max %g", c.io, r, rr.rMax)
		}
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
