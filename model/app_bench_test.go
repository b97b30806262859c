package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// BenchmarkApps reports the cost of closed-loop apps: events per second of
// a 16-rank ring all-reduce on a 4-ary 2-tree against the same hosts
// sending greedily to their ring neighbours, and testbed-hpcc's wall time
// per run (docs/apps.md).
func BenchmarkApps(b *testing.B) {
	c := appConfig(10 * engine.Millisecond)
	app := workload.DefaultApp("ar", "allreduce")
	app.Size, app.Iterations = 1<<20, 6
	greedy := workload.TrafficSpec{Name: "ring", Pattern: "neighbour", Arrival: "saturate", MessageSize: 1 << 16}
	for _, tc := range []struct {
		name string
		spec workload.ScenarioSpec
	}{
		{"allreduce-app", workload.ScenarioSpec{Apps: []workload.AppSpec{app}}},
		{"neighbour-greedy", workload.ScenarioSpec{Traffic: []workload.TrafficSpec{greedy}}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			sp := tc.spec
			sp.Name, sp.Phases, sp.Topology, sp.Topo, sp.Routing = tc.name, 1, "fattree", fabric.TopoParams{K: 4, Levels: 2}, "ftree"
			sc, err := workload.ScenarioOf(tc.name, sp)
			if err != nil {
				b.Fatal(err)
			}
			var events uint64
			for b.Loop() {
				r, err := Run(sc, c, 1)
				if err != nil {
					b.Fatal(err)
				}
				events += r.Events
			}
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
	b.Run("testbed-hpcc", func(b *testing.B) {
		sc := workload.LookupScenario("testbed-hpcc")
		for b.Loop() {
			if _, err := Run(sc, sc.Config(), 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}
