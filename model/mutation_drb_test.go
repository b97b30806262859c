package model

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of gremlins runs on model's CC files
// (docs/testing.md, "Mutation testing"): drb.go.

// TestMutDRBPathsOpenMeanByHand checks paths_open_mean (docs/schemes.md,
// "DRB": the time-average number of open paths per pair in use over the
// window, each pair from its first use) on pairs driven by hand, the
// window from 10 µs, at 40 µs, a 1 ms timer (no expiry):
//
//	pair A, in use from 0: one path to 20 µs, then two (a BECN with
//	open_after 1): in the window 1·10 + 2·20 = 50 path·µs over 30 µs;
//	pair B, in use from 30 µs: one path, 1·10 over 10 µs;
//
// the mean is (50 + 10) / (30 + 10) = 1.5. Before the window and at its
// start nothing is measured: NaN.
func TestMutDRBPathsOpenMeanByHand(t *testing.T) {
	us := engine.Microsecond
	flow := workload.FlowSpec{Name: "F", Src: "H1", Dst: "H11", Role: workload.Contributor, StartPhase: 1}
	cfg := drbConfig(2)
	cfg.DRB.Timer = engine.Millisecond
	n, err := NewNetwork(drbScenario("torus", torus(4, 4), "dor", 1, []workload.FlowSpec{flow}, nil), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	d := &n.drb
	d.window = 10 * us // the flow is idle until 500 µs: only the pairs below exist
	if d.openAt != 1 {
		t.Fatalf("open_after %d, want the default 1", d.openAt)
	}
	order := drbOrder{0, 1}
	d.pairs = append(d.pairs, newDRBPair(order, 0))
	if m := n.drbPathsOpenMean(); !math.IsNaN(m) {
		t.Errorf("paths_open_mean before the window: %v, want NaN", m)
	}
	n.RunUntil(10 * us)
	if m := n.drbPathsOpenMean(); !math.IsNaN(m) {
		t.Errorf("paths_open_mean at the window's start: %v, want NaN", m)
	}
	n.RunUntil(20 * us)
	d.pairs[0].notify(n.sim.Now(), 0, d)
	if d.pairs[0].open != 2 {
		t.Fatalf("a BECN at 20 µs left %d paths open, want 2", d.pairs[0].open)
	}
	n.RunUntil(30 * us)
	d.pairs = append(d.pairs, newDRBPair(order, n.sim.Now()))
	n.RunUntil(40 * us)
	if n.sim.Now() != 40*us || len(d.pairs) != 2 {
		t.Fatalf("at %v with %d pairs: the flow must stay idle", n.sim.Now(), len(d.pairs))
	}
	if m := n.drbPathsOpenMean(); math.Abs(m-1.5) > 1e-12 {
		t.Errorf("paths_open_mean %v, want (50 + 10) / (30 + 10) = 1.5", m)
	}
}
