package model

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of a gremlins run on cc.go
// (docs/testing.md, "Mutation testing"): the edges of what the cct and
// victim_mask parameters accept, and the mean CCTI at the window's start.

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
