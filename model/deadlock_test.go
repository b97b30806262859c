package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// ringScenario is a ring of 4 routers (a 1-D torus) with 2 hosts each,
// every host saturating uniform random destinations at up to 100 Gbit/s,
// routed by the given algorithm: minhop's shortest paths around a ring
// close a cycle of channels (R1 -> R4 -> R3 -> R2 -> R1 on port 2), which
// the buffers fill at this load.
func ringScenario(t *testing.T, routing string, allow bool) *workload.Scenario {
	t.Helper()
	sc, err := workload.NewScenario(workload.ScenarioSpec{Name: "ring-" + routing, Phases: 4, Topology: "torus",
		Topo: fabric.TopoParams{Dims: []int{4}, HostsPerRouter: 2}, Routing: routing, AllowDeadlock: allow,
		Traffic: []workload.TrafficSpec{{Name: "t1", Pattern: "uniform", Arrival: "saturate", SizeDist: "fixed", Burst: 10 * engine.Microsecond, HotspotMode: "hosts"}},
		Source:  []byte("deadlock test " + routing + map[bool]string{true: " allow"}[allow])})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func ringConfig() params.Config {
	cfg := params.DefaultConfig()
	cfg.Phase = engine.Millisecond
	cfg.HostIOGbps = 100
	cfg.SwitchBufferCredits = 128 // small buffers: the cycle fills within a few ms
	return cfg
}

// TestDeadlockEndsTheRun: minhop on a ring is refused (a channel cycle);
// with allow_deadlock it runs, really deadlocks (seeds 0-3), and the run
// ends with an error wrapping ErrDeadlock that names a stuck flow, not with
// a series of zeros for the stuck flows. dor on the same ring (deadlock-free: its dateline VLs) runs to the
// end under the same watch, with payload delivered.
func TestDeadlockEndsTheRun(t *testing.T) {
	if _, err := NewNetwork(ringScenario(t, "minhop", false), ringConfig(), 1); err == nil || !strings.Contains(err.Error(), "deadlock possible: channel cycle") {
		t.Fatalf("minhop on a ring without allow_deadlock: %v, want the cycle refused", err)
	}
	for seed := range uint64(4) {
		_, err := Run(ringScenario(t, "minhop", true), ringConfig(), seed)
		if !errors.Is(err, ErrDeadlock) || !strings.Contains(err.Error(), "flow t1:H") || !strings.Contains(err.Error(), "none reached") {
			t.Fatalf("minhop on a ring with allow_deadlock, seed %d: %v, want a deadlock naming a flow", seed, err)
		}
	}
	cfg := ringConfig()
	cfg.VLs = 2
	res, err := Run(ringScenario(t, "dor", true), cfg, 1)
	if err != nil {
		t.Fatalf("dor on the ring: %v", err)
	}
	var total float64
	for i := range res.Flows {
		total += res.MeanGbps(i, 3*engine.Millisecond, 4*engine.Millisecond)
	}
	if total <= 0 {
		t.Errorf("dor on the ring delivered nothing in the last phase")
	}
}
