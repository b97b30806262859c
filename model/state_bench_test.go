package model

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// BenchmarkScalingState breaks down the state of BenchmarkScaling's
// two-level fat trees (648, 2 592 and 10 368 hosts; uniform Poisson
// traffic at 40 % of each QDR host link, IB CC on) by what holds it, in
// MiB, after 200 µs of simulated time, and counts the packets in flight
// (allocated and not free; the mean of 20 instants): the state every
// event reaches into at random, which docs/scale.md weighs against the
// cache. It times nothing of interest (ns/op is the run):
//
//	go test -run '^$' -bench ScalingState -benchtime 1x ./model
func BenchmarkScalingState(b *testing.B) {
	for _, p := range []fabric.TopoParams{
		{Leaves: 36, HostsPerLeaf: 18, Spines: 18},
		{Leaves: 72, HostsPerLeaf: 36, Spines: 36},
		{Leaves: 144, HostsPerLeaf: 72, Spines: 72},
	} {
		p.HostGbps, p.SwitchGbps = 32, 32
		b.Run(fmt.Sprintf("hosts=%d", p.Leaves*p.HostsPerLeaf), func(b *testing.B) {
			sc := &workload.Scenario{Name: "state", Phases: 1, Routing: "ftree",
				Traffic: []workload.TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "poisson", Load: 0.4}},
				Build: func(c *params.Config) (*fabric.Topology, error) {
					return fabric.GenerateTopology("clos", p)
				}}
			cfg := params.DefaultConfig()
			for name, v := range map[string]string{"cc": "on", "host_io_gbps": "25", "fill_mode": "voq",
				"host_link_gbps": "32"} {
				if err := cfg.Set(name, v); err != nil {
					b.Fatal(err)
				}
			}
			cfg.Phase = 200 * engine.Microsecond
			cfg.Sample = cfg.Phase
			for i := 0; i < b.N; i++ {
				n, err := NewNetwork(sc, cfg, 1)
				if err != nil {
					b.Fatal(err)
				}
				var inFlight float64
				const steps = 20
				for s := 1; s <= steps; s++ {
					n.RunUntil(n.End() * engine.Time(s) / steps)
					inFlight += float64(len(n.pkts)-len(n.free)) / steps
				}
				var lft int
				for i := range n.sws {
					lft += len(n.sws[i].lft)
				}
				if ft := n.sws[0].ftree; ft != nil {
					lft += ft.Bytes()
				}
				mib := func(size uintptr, count int) float64 { return float64(size) * float64(count) / (1 << 20) }
				b.ReportMetric(mib(unsafe.Sizeof(port{}), len(n.ports)), "ports-MB")
				b.ReportMetric(mib(unsafe.Sizeof(lane{}), len(n.lanes)), "lanes-MB")
				b.ReportMetric(mib(unsafe.Sizeof(hcaState{}), len(n.hcas)), "hcas-MB")
				b.ReportMetric(mib(unsafe.Sizeof(flowState{}), len(n.flows)), "flows-MB")
				b.ReportMetric(mib(unsafe.Sizeof(voqSlot{}), len(n.voqs.slots)), "voqs-MB")
				b.ReportMetric(mib(1, lft), "lft-MB")
				b.ReportMetric(mib(unsafe.Sizeof(packet{}), len(n.pkts)), "packets-MB")
				b.ReportMetric(inFlight, "in-flight")
				b.ReportMetric(mib(unsafe.Sizeof(packet{}), int(inFlight)), "in-flight-MB")
			}
		})
	}
}
