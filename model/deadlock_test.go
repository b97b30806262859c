package model

import (
	"errors"
	"fmt"
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

// TestMutDeadlockWindowPastOneMillisecond checks the deadlock watch's
// window where its formula exceeds its 1 ms floor: twice the time the
// slowest link or adapter takes to pass one MTU-sized packet (MTU + 64
// bytes) of every flow, 2 × flows × (MTU + 64) × 8 / Gbit/s ns, in whole
// ns. Rates of 0.125 Gbit/s (the slowest the parameters allow, 0.1, would
// not divide exactly) make it long enough with a handful of flows; by hand:
//
//	5 flows, MTU 2048, switch links at 0.125: 2·5·2112·8/0.125 = 1 351 680 ns
//	the same with adapters at 0.125 (host_io_gbps):             1 351 680 ns
//	5 flows, MTU 4096, switch links at 0.125: 2·5·4160·8/0.125 = 2 662 400 ns
//	2 flows, MTU 4096, switch links at 0.125: 2·2·4160·8/0.125 = 1 064 960 ns
//	2 flows, MTU 2048, switch links at 0.125: 540 672 ns, so 1 ms
//	5 flows, the testbed's rates (16, 16, 13): 12 997 ns, so 1 ms
func TestMutDeadlockWindowPastOneMillisecond(t *testing.T) {
	two := &workload.Scenario{Name: "two-flows", Phases: 1, Build: testbed, Flows: []workload.FlowSpec{
		{Name: "A", Src: "H1", Dst: "H4", Role: workload.Contributor},
		{Name: "B", Src: "H2", Dst: "H5", Role: workload.Contributor},
	}}
	five := workload.LookupScenario("testbed-s1")
	for _, c := range []struct {
		name       string
		sc         *workload.Scenario
		mtu        int
		switchGbps float64
		ioGbps     float64
		want       engine.Time
	}{
		{"5 flows, slow switch links", five, 2048, 0.125, 0, 1_351_680 * engine.Nanosecond},
		{"5 flows, slow adapters", five, 2048, 0, 0.125, 1_351_680 * engine.Nanosecond},
		{"5 flows, MTU 4096", five, 4096, 0.125, 0, 2_662_400 * engine.Nanosecond},
		{"2 flows, MTU 4096", two, 4096, 0.125, 0, 1_064_960 * engine.Nanosecond},
		{"2 flows, MTU 2048", two, 2048, 0.125, 0, engine.Millisecond},
		{"testbed rates", five, 2048, 0, 0, engine.Millisecond},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.MTU = c.mtu
			if c.switchGbps > 0 {
				cfg.SwitchLinkGbps = c.switchGbps
			}
			if c.ioGbps > 0 {
				cfg.HostIOGbps = c.ioGbps
			}
			n, err := NewNetwork(c.sc, cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			if got := n.deadlockWindow(); got != c.want {
				t.Errorf("window %v (%d ps), want %v (%d ps)", got, int64(got), c.want, int64(c.want))
			}
		})
	}
}

// TestMutDeadlockDeclaredAtExactlyTheWindow checks the watch's rule as
// deadlockWindow's comment states it: a flow with payload in the network
// none of which reached the destination for the window is deadlocked;
// for one picosecond less it is not. The run's clock stays at 0; the
// flow's last progress is set at -window and -window+1 ps.
// The error names the payload still in the network: sent less delivered.
// Kills deadlock.go:80 `now-w.since[i] >= n.deadlockWindow()` turned
// into `>`, and deadlock.go:82's `f.sent-b` turned into `+`.
func TestMutDeadlockDeclaredAtExactlyTheWindow(t *testing.T) {
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), params.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	n.allowDeadlock = true
	n.flows[0].sent, n.flows[0].delivered = 3072, 1024 // 2048 B in the network, none of it delivered since
	window := n.deadlockWindow()
	for _, c := range []struct {
		since engine.Time
		dead  bool
	}{{-window + 1, false}, {-window, true}} {
		w := &progressWatch{reached: make([]int64, len(n.flows)), since: make([]engine.Time, len(n.flows))}
		w.reached[0], w.since[0] = 1024, c.since
		err := n.deadlocked(w)
		if got := errors.Is(err, ErrDeadlock); got != c.dead {
			t.Errorf("no delivery for %v of a %v window: deadlocked %v (%v), want %v", -c.since, window, got, err, c.dead)
		}
		if c.dead && !strings.Contains(fmt.Sprint(err), " has 2048 payload bytes in the network and none reached ") {
			t.Errorf("err = %v, want it to name the 2048 payload bytes in the network", err)
		}
	}
}
