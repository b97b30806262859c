package model

import (
	"fmt"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// checkConservation verifies, at any instant, that no byte and no credit was
// created or lost: every port-VL's credits plus what its peer's buffer holds
// plus the credits on their way back equal the buffer size; counters stay in
// range; every payload byte injected was delivered or is in a packet that
// still exists.
func (n *Network) checkConservation() error {
	if n.violations > 0 {
		return fmt.Errorf("%d credit counters left their range", n.violations)
	}
	for i := range n.ports {
		p := &n.ports[i]
		if p.peer < 0 {
			continue
		}
		peer := &n.ports[p.peer]
		for v := 0; v < n.nVL; v++ {
			in := n.lane(int32(i), VL(v))
			held := in.credits
			if held < 0 || held > peer.bufCap {
				return fmt.Errorf("port %d VL %d holds %d credits of %d", i, v, held, peer.bufCap)
			}
			if sum := held + in.used + in.returning; sum != peer.bufCap {
				return fmt.Errorf("port %d VL %d: credits %d + used %d + returning %d = %d, buffer %d",
					i, v, held, in.used, in.returning, sum, peer.bufCap)
			}
		}
	}
	live := make([]bool, len(n.pkts))
	for i := range live {
		live[i] = true
	}
	for _, k := range n.free {
		live[k] = false
	}
	var inFlight int64
	for k, ok := range live {
		if ok && n.pkts[k].kind == kindData {
			inFlight += int64(n.pkts[k].payload)
		}
	}
	n.settleDeliveries()
	for _, hc := range n.hcas {
		for _, d := range hc.arrived {
			inFlight += int64(d.bytes) // in the receive DMA
		}
	}
	var sent, delivered int64
	for _, f := range n.flows {
		sent += f.sent
		delivered += f.delivered
	}
	if sent != delivered+inFlight {
		return fmt.Errorf("sent %d bytes, delivered %d, in flight %d: %d lost", sent, delivered, inFlight, sent-delivered-inFlight)
	}
	return nil
}

// runConserving runs n to its end, stopping every step (an odd interval,
// so mid-packet and mid-credit-update) to check bytes and credits.
func runConserving(t *testing.T, n *Network, step engine.Time) {
	t.Helper()
	for t0 := engine.Time(0); t0 < n.End(); t0 += step {
		n.RunUntil(t0)
		if err := n.checkConservation(); err != nil {
			t.Fatalf("at %v: %v", t0, err)
		}
	}
	n.RunUntil(n.End())
	if err := n.checkConservation(); err != nil {
		t.Fatalf("at the end: %v", err)
	}
}

func TestBytesAndCreditsAreConserved(t *testing.T) {
	// santos with three-packet switch buffers, which fill and mark.
	for _, cc := range []string{params.SchemeOff, params.SchemeIB, params.SchemeSantos, params.SchemeNICRate, "santos/99"} {
		for _, name := range []string{"testbed-s1", "testbed-s2"} {
			t.Run(fmt.Sprintf("%s cc=%v", name, cc), func(t *testing.T) {
				cfg := params.DefaultConfig()
				cfg.Phase = 5 * engine.Millisecond
				cfg.CC.Scheme = cc
				if cc == "santos/99" {
					cfg.CC.Scheme, cfg.SwitchBufferCredits = params.SchemeSantos, 99
				}
				n, err := NewNetwork(workload.LookupScenario(name), cfg, 1)
				if err != nil {
					t.Fatal(err)
				}
				runConserving(t, n, 777*engine.Microsecond+13)
				if n.counters.Packets == 0 {
					t.Fatal("nothing was sent")
				}
			})
		}
	}
}

func TestSwitchBuffersFillButNeverOverflow(t *testing.T) {
	// CC off, three flows into H5: the S1-S2 input buffer of S2 fills to the
	// brim (that is the HOL blocking) and no further.
	cfg := params.DefaultConfig()
	cfg.Phase = 5 * engine.Millisecond
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	topo, _ := workload.LookupScenario("testbed-s1").Build(&cfg)
	s2 := topo.Lookup("S2")
	var inter int32 = -1
	for i := range n.ports {
		p := &n.ports[i]
		if p.node == s2 && p.peer >= 0 && !n.ports[p.peer].host {
			inter = int32(i)
		}
	}
	peak := int32(0)
	for t0 := 3 * cfg.Phase; t0 < 4*cfg.Phase; t0 += 10 * engine.Microsecond {
		n.RunUntil(t0)
		peak = max(peak, n.lane(n.ports[inter].peer, 0).used)
	}
	if cap := n.ports[inter].bufCap; peak > cap || peak < cap-2*33 {
		t.Fatalf("S2's buffer from S1 peaked at %d credits of %d: want it full (HOL) but never over", peak, cap)
	}
}

func TestStoppingAndResumingChangesNothing(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase = 5 * engine.Millisecond
	cfg.CC.Scheme = params.SchemeIB
	sc := workload.LookupScenario("testbed-s1")
	whole, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	whole.RunUntil(whole.End())
	chunked, err := Run(sc, cfg, 1) // stops every simulated millisecond
	if err != nil {
		t.Fatal(err)
	}
	a := whole.Result()
	if a.Events != chunked.Events || a.Counters != chunked.Counters {
		t.Fatalf("whole run: %d events %+v; chunked: %d events %+v", a.Events, a.Counters, chunked.Events, chunked.Counters)
	}
	for i := range a.Flows {
		for j, g := range a.Flows[i].Gbps {
			if g != chunked.Flows[i].Gbps[j] {
				t.Fatalf("%s sample %d: %v vs %v", a.Flows[i].Name, j, g, chunked.Flows[i].Gbps[j])
			}
		}
	}
}

// TestCreditImbalanceIsCaughtByTheRun breaks credit conservation on a busy
// link and wants the run itself to notice at the next credit return.
func TestCreditImbalanceIsCaughtByTheRun(t *testing.T) {
	cases := []struct {
		name    string
		corrupt func(n *Network, p int32)
	}{
		{"phantom credit at the sender", func(n *Network, p int32) { n.lane(p, 0).credits++ }},
		{"credit lost at the sender", func(n *Network, p int32) { n.lane(p, 0).credits-- }},
		{"credit lost on its way back", func(n *Network, p int32) { n.lane(p, 0).returning-- }},
		{"nothing broken", func(n *Network, p int32) {}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase = 5 * engine.Millisecond
			n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			n.RunUntil(2 * engine.Millisecond)
			if n.violations != 0 {
				t.Fatalf("%d violations before anything was broken", n.violations)
			}
			c.corrupt(n, n.hcas[n.flows[0].src].port) // F1 sends all the time
			n.RunUntil(3 * engine.Millisecond)
			if broken := c.name != "nothing broken"; broken != (n.violations > 0) {
				t.Errorf("%d violations", n.violations)
			}
		})
	}
}
