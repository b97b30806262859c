package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

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
