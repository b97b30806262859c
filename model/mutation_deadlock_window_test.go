package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

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
