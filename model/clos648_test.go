package model

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestClos648HotspotLayout checks the hot-spot scenario's flows against
// its description: every host sends, eight hot nodes on distinct leaves and
// spines, twelve contributors each from distinct leaves, and each victim
// sharing its leaf's uplink to the hot node's spine with a contributor
// while heading to a cold host.
func TestClos648HotspotLayout(t *testing.T) {
	sc := workload.LookupScenario("clos648-hotspot")
	cfg := sc.Config()
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.hcas) != 648 || len(n.sws) != 54 {
		t.Fatalf("%d hosts, %d switches; want 648, 54", len(n.hcas), len(n.sws))
	}
	senders := map[int32]bool{}
	roles := map[workload.Role]int{}
	hot := map[int32][]int32{} // hot HCA -> contributor HCAs
	for _, f := range n.flows {
		senders[f.src] = true
		roles[f.spec.Role]++
		if f.spec.Role == workload.Contributor {
			hot[f.dst] = append(hot[f.dst], f.src)
		}
	}
	if len(senders) != 648 {
		t.Errorf("%d hosts send; want all 648", len(senders))
	}
	if roles[workload.Contributor] != 96 || roles[workload.Victim] != 32 || roles[workload.Background] != 520 {
		t.Errorf("roles %v; want 96 contributors, 32 victims, 520 background", roles)
	}
	leaf := func(h int32) int32 { return h / 18 }
	// upPort is the port leaf l of host src sends dst's packets up.
	upPort := func(src, dst int32) int32 {
		return n.sws[leaf(src)].out(int32(n.routes.LID(int(dst), 0)))
	}
	hotLeaves, hotSpines := map[int32]bool{}, map[int32]bool{}
	for h, cs := range hot {
		hotLeaves[leaf(h)], hotSpines[h%18] = true, true
		if len(cs) != 12 {
			t.Errorf("hot node H%d has %d contributors; want 12", h+1, len(cs))
		}
		from := map[int32]bool{}
		for _, c := range cs {
			from[leaf(c)] = true
		}
		if len(from) != 12 || from[leaf(h)] {
			t.Errorf("hot node H%d: contributors from %d leaves (own leaf %v); want 12 others", h+1, len(from), from[leaf(h)])
		}
	}
	if len(hot) != 8 || len(hotLeaves) != 8 || len(hotSpines) != 8 {
		t.Fatalf("%d hot nodes on %d leaves via %d spines; want 8, 8, 8", len(hot), len(hotLeaves), len(hotSpines))
	}
	for _, f := range n.flows {
		if f.spec.Role != workload.Victim {
			continue
		}
		if _, isHot := hot[f.dst]; isHot {
			t.Errorf("victim %s sends to a hot node", f.spec.Name)
		}
		shared := false
		for h, cs := range hot {
			for _, c := range cs {
				if leaf(c) == leaf(f.src) && upPort(c, h) == upPort(f.src, f.dst) {
					shared = true
				}
			}
		}
		if !shared {
			t.Errorf("victim %s (%s->%s) shares no uplink with a contributor", f.spec.Name, f.spec.Src, f.spec.Dst)
		}
	}
}

// TestClos648ConservesAndRepeats runs both 648-port scenarios with short
// phases, stopping at odd instants to check bytes and credits, and then
// checks that a second run gives identical results.
func TestClos648ConservesAndRepeats(t *testing.T) {
	for _, name := range []string{"clos648-hotspot", "clos648-uniform"} {
		t.Run(name, func(t *testing.T) {
			sc := workload.LookupScenario(name)
			cfg := sc.Config()
			cfg.Phase = 2 * engine.Millisecond
			n, err := NewNetwork(sc, cfg, 7)
			if err != nil {
				t.Fatal(err)
			}
			runConserving(t, n, 777*engine.Microsecond+13)
			// Printed, so that NaN (no victims in the uniform run) equals NaN.
			a, b := n.Result(), mustRun(t, sc, cfg, 7)
			if !reflect.DeepEqual(a.Flows, b.Flows) || fmt.Sprint(a.Stats, a.Metrics()) != fmt.Sprint(b.Stats, b.Metrics()) ||
				a.Counters != b.Counters || a.Events != b.Events {
				t.Errorf("two runs of seed 7 differ: %d vs %d events", a.Events, b.Events)
			}
			if a.Counters.Packets < 100_000 {
				t.Errorf("only %d packets: the check saw too little", a.Counters.Packets)
			}
		})
	}
}

func mustRun(t *testing.T, sc *workload.Scenario, cfg params.Config, seed uint64) *Result {
	t.Helper()
	r, err := Run(sc, cfg, seed)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestClos648HotspotShowsWhatCCIsFor is the hot spot scaled down for CI:
// 10 ms phases instead of 125 ms, so IB CC gets eight times the CCTI per
// BECN to throttle the contributors within the second phase. With CC the
// victims must get at least three times their throughput without, and the
// contributors an even share (Jain >= 0.9). docs/scale.md gives the full-length
// figures with the testbed's parameters.
func TestClos648HotspotShowsWhatCCIsFor(t *testing.T) {
	sc := workload.LookupScenario("clos648-hotspot")
	var m [2]Metrics
	for i, cc := range []string{"off", "on"} {
		cfg := sc.Config()
		cfg.Phase = 10 * engine.Millisecond
		for name, v := range map[string]string{"cc": cc, "ccti_increase": "8"} {
			if err := cfg.Set(name, v); err != nil {
				t.Fatal(err)
			}
		}
		m[i] = mustRun(t, sc, cfg, 1).Metrics()
	}
	off, on := m[0], m[1]
	t.Logf("victims %.2f -> %.2f Gbit/s, contributors' Jain %.3f", off.VictimGbps, on.VictimGbps, on.FairnessJain)
	if !(on.VictimGbps >= 3*off.VictimGbps) || off.VictimGbps <= 0 {
		t.Errorf("victims get %.2f Gbit/s with CC, %.2f without: want at least 3x", on.VictimGbps, off.VictimGbps)
	}
	if !(on.FairnessJain >= 0.9) {
		t.Errorf("contributors' Jain index %.3f with CC; want >= 0.9", on.FairnessJain)
	}
}
