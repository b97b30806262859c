package model_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// BenchmarkTestbedS1 runs the full testbed-s1 scenario (five 1 s phases) per
// iteration and reports simulated seconds per wall second (above 1 is faster
// than real time) and events per second. Run it on one core with
// GOMAXPROCS=1 go test -run '^$' -bench TestbedS1 -benchtime 3x ./model
func BenchmarkTestbedS1(b *testing.B) {
	for _, cc := range []string{"off", "on"} {
		b.Run("cc="+cc, func(b *testing.B) {
			cfg := params.DefaultConfig()
			if err := cfg.Set("cc", cc); err != nil {
				b.Fatal(err)
			}
			sc := workload.LookupScenario("testbed-s1")
			b.ReportAllocs()
			var events uint64
			var simulated float64
			for i := 0; i < b.N; i++ {
				r, err := model.Run(sc, cfg, 1)
				if err != nil {
					b.Fatal(err)
				}
				events += r.Events
				simulated += r.End.Seconds()
			}
			b.ReportMetric(simulated/b.Elapsed().Seconds(), "sim-s/s")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkCCCost runs each testbed scenario with CC off and then on, b.N
// times each, interleaved so that both see the same machine, and reports the
// median wall time of each and the median of the per-pair ratio on/off:
// GOMAXPROCS=1 go test -run '^$' -bench CCCost -benchtime 5x ./model
func BenchmarkCCCost(b *testing.B) {
	for _, name := range []string{"testbed-s1", "testbed-s2"} {
		b.Run(name, func(b *testing.B) {
			sc := workload.LookupScenario(name)
			off, on := params.DefaultConfig(), params.DefaultConfig()
			on.CC.Scheme = params.SchemeIB
			var offs, ons, ratios []float64
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := model.Run(sc, off, 1); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := model.Run(sc, on, 1); err != nil {
					b.Fatal(err)
				}
				a, c := t1.Sub(t0).Seconds(), time.Since(t1).Seconds()
				offs, ons, ratios = append(offs, a), append(ons, c), append(ratios, c/a)
			}
			b.ReportMetric(median(offs), "off-s")
			b.ReportMetric(median(ons), "on-s")
			b.ReportMetric(median(ratios), "on/off")
		})
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchmarkBuildClos648 builds a run on the 648-port director switch
// (generation, ftree routing with its deadlock check, ports, VoQs,
// 648 uniform sources): the issue asks for well under a second.
func BenchmarkBuildClos648(b *testing.B) {
	sc := &workload.Scenario{Name: "clos648", Phases: 1, Routing: "ftree",
		Traffic: []workload.TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "poisson", Load: 0.5}},
		Build: func(c *params.Config) (*fabric.Topology, error) {
			return fabric.GenerateTopology("clos", fabric.TopoParams{Preset: "648", HostGbps: 32, SwitchGbps: 32})
		}}
	cfg := params.DefaultConfig()
	cfg.CC.Scheme = params.SchemeIB
	for b.Loop() {
		if _, err := model.NewNetwork(sc, cfg, 1); err != nil {
			b.Fatal(err)
		}
	}
}

var clos648Phase = flag.Duration("clos648.phase", 0, "BenchmarkClos648's phase (0: the scenarios' 125ms, 0.5 s in all)")

// BenchmarkClos648 runs each 648-port scenario (clos648-hotspot and
// clos648-uniform, CC on, four phases: 0.5 s simulated) once per iteration
// and reports simulated seconds per wall second, events per second and
// the peak heap (HeapSys: heap memory taken from the OS, which never
// shrinks, so it bounds the peak from above). Run one at a time on one core:
//
//	GOMAXPROCS=1 go test -run '^$' -bench 'Clos648/hotspot' -benchtime 1x ./model
//
// -clos648.phase 10ms shortens the runs for profiling.
func BenchmarkClos648(b *testing.B) {
	for _, name := range []string{"hotspot", "uniform"} {
		b.Run(name, func(b *testing.B) {
			sc := workload.LookupScenario("clos648-" + name)
			cfg := sc.Config()
			if *clos648Phase > 0 {
				cfg.Phase = engine.Time(clos648Phase.Nanoseconds()) * engine.Nanosecond
				cfg.Sample = min(cfg.Sample, cfg.Phase)
			}
			var events uint64
			var simulated, bytes float64
			for b.Loop() {
				r, err := model.Run(sc, cfg, 1)
				if err != nil {
					b.Fatal(err)
				}
				events += r.Events
				simulated += r.End.Seconds()
				for _, f := range r.Flows {
					for _, g := range f.Gbps {
						bytes += g * 1e9 / 8 * r.Sample.Seconds()
					}
				}
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(simulated/b.Elapsed().Seconds(), "sim-s/s")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(events)/float64(b.N), "events/op")
			b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-MB")
			b.ReportMetric(bytes/1e9/float64(b.N), "GB/op")
		})
	}
}

var clos10368Phase = flag.Duration("clos10368.phase", 2500*time.Microsecond, "BenchmarkClos10368's phase (four phases)")

// BenchmarkClos10368 runs clos10368-hotspot (10 368 hosts, 216 switches,
// CC on) once per iteration with phases of -clos10368.phase (2.5 ms: 10 ms
// simulated) and reports what BenchmarkClos648 does, and the process's
// peak RSS where the system tells it:
//
//	GOMAXPROCS=1 go test -run '^$' -bench 'Clos10368' -benchtime 1x ./model
func BenchmarkClos10368(b *testing.B) {
	sc := workload.LookupScenario("clos10368-hotspot")
	cfg := sc.Config()
	cfg.Phase = engine.Time(clos10368Phase.Nanoseconds()) * engine.Nanosecond
	cfg.Sample = min(cfg.Sample, cfg.Phase)
	var events uint64
	var simulated float64
	for b.Loop() {
		r, err := model.Run(sc, cfg, 1)
		if err != nil {
			b.Fatal(err)
		}
		events += r.Events
		simulated += r.End.Seconds()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(simulated/b.Elapsed().Seconds(), "sim-s/s")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-MB")
}

// BenchmarkBuildClos10368 builds clos10368-hotspot's run (generation,
// ftree routing and its check, ports, flows): the issue asks for seconds.
func BenchmarkBuildClos10368(b *testing.B) {
	sc := workload.LookupScenario("clos10368-hotspot")
	cfg := sc.Config()
	for b.Loop() {
		if _, err := model.NewNetwork(sc, cfg, 1); err != nil {
			b.Fatal(err)
		}
	}
}

var scalingPhase = flag.Duration("scaling.phase", 0, "BenchmarkScaling's simulated time (0: 4ms)")

// BenchmarkScaling runs fat trees under the same per-host load: two-level
// (folded Clos, full bisection) of 16, 128 and 648 hosts, a three-level
// 13-ary tree of 2197 hosts on 26-port switches (how IB builds fabrics past
// a director switch: switch chips have 36 to 64 ports), and two-level ones
// of 2592 and 10368 hosts on 72- and 144-port switches (648, 2592 and
// 10368 hosts: the radix doubles, the hosts quadruple): every host
// sends Poisson traffic of 64 KiB messages to uniform random destinations
// at 40 % of its QDR link, IB CC on, 4 ms simulated (window: the whole
// run). It reports wall time per simulated second, the cost of an event,
// events per host and simulated second, and the run's state (the live heap
// of the built network: ports, lanes, VoQs, forwarding tables, flows,
// packets), so that the per-event cost can be read against the network's
// size and against BenchmarkMemoryLatency at that working set. Beside the
// wall time it reports the CPU time per event (cpu-ns/event), which on a
// machine shared with other loads varies less, and the event queue's mean
// depth (pending-events, read at 20 instants of the run), so that the
// queue's cost can be told from the state's:
//
//	GOMAXPROCS=1 go test -run '^$' -bench 'Scaling|MemoryLatency' -benchtime 1x ./model
//
// -scaling.phase 2ms shortens the runs for interleaved comparisons.
func BenchmarkScaling(b *testing.B) {
	for _, s := range []struct {
		name string
		kind string
		p    fabric.TopoParams
	}{
		{"hosts=16", "clos", fabric.TopoParams{Leaves: 4, HostsPerLeaf: 4, Spines: 4}},
		{"hosts=128", "clos", fabric.TopoParams{Leaves: 8, HostsPerLeaf: 16, Spines: 16}},
		{"hosts=648", "clos", fabric.TopoParams{Leaves: 36, HostsPerLeaf: 18, Spines: 18}},
		{"hosts=2197/3-level", "fattree", fabric.TopoParams{K: 13, Levels: 3}},
		{"hosts=2592/radix-72", "clos", fabric.TopoParams{Leaves: 72, HostsPerLeaf: 36, Spines: 36}},
		{"hosts=10368/radix-144", "clos", fabric.TopoParams{Leaves: 144, HostsPerLeaf: 72, Spines: 72}},
	} {
		b.Run(s.name, func(b *testing.B) {
			p := s.p
			p.HostGbps, p.SwitchGbps = 32, 32
			t, err := fabric.GenerateTopology(s.kind, p)
			if err != nil {
				b.Fatal(err)
			}
			hosts := len(t.Hosts())
			sc := &workload.Scenario{Name: s.name, Phases: 1, Routing: "ftree",
				Traffic: []workload.TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "poisson", Load: 0.4}},
				Build: func(c *params.Config) (*fabric.Topology, error) {
					return fabric.GenerateTopology(s.kind, p)
				}}
			cfg := params.DefaultConfig()
			for name, v := range map[string]string{"cc": "on", "host_io_gbps": "25", "fill_mode": "voq",
				"phase": "4ms", "sample": "1ms", "host_link_gbps": "32"} {
				if err := cfg.Set(name, v); err != nil {
					b.Fatal(err)
				}
			}
			if *scalingPhase > 0 {
				cfg.Phase = engine.Time(scalingPhase.Nanoseconds()) * engine.Nanosecond
				cfg.Sample = min(cfg.Sample, cfg.Phase)
			}
			// Building the network is not timed: it is run once per run
			// (BenchmarkBuildClos648 measures it).
			var events uint64
			var simulated, state, cpu, pending float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				n, err := model.NewNetwork(sc, cfg, 1)
				if err != nil {
					b.Fatal(err)
				}
				state = liveHeapMB()
				b.StartTimer()
				c0 := cpuSeconds()
				// In steps, to read the event queue's depth as it goes
				// (the same events in the same order as one step).
				const steps = 20
				for s := 1; s <= steps; s++ {
					n.RunUntil(n.End() * engine.Time(s) / steps)
					pending += float64(n.Pending()) / steps
				}
				cpu += cpuSeconds() - c0
				events += n.Events()
				simulated += n.End().Seconds()
			}
			wall := b.Elapsed().Seconds()
			b.ReportMetric(wall/simulated, "wall-s/sim-s")
			b.ReportMetric(wall/float64(events)*1e9, "ns/event")
			b.ReportMetric(cpu/float64(events)*1e9, "cpu-ns/event")
			b.ReportMetric(float64(events)/simulated/float64(hosts), "events/host/sim-s")
			b.ReportMetric(state, "state-MB")
			b.ReportMetric(state*(1<<20)/float64(hosts), "state-B/host")
			b.ReportMetric(pending/float64(b.N), "pending-events")
		})
	}
}

// liveHeapMB returns the heap in use after a collection, in MiB.
func liveHeapMB() float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapAlloc) / (1 << 20)
}

// BenchmarkMemoryLatency measures this machine's memory as the simulator
// meets it: a chain of dependent loads, each to a random cache line of a
// working set of the given size, the access pattern of events touching the
// state of random ports and switches. It reports nanoseconds per load. Read
// beside BenchmarkScaling from the same run, it shows at which state size
// an event's reads stop hitting the cache; on a shared machine that size
// moves with the other tenants' use of the last-level cache.
func BenchmarkMemoryLatency(b *testing.B) {
	for _, mb := range []int{1, 2, 4, 8, 16, 32} {
		b.Run(fmt.Sprintf("MB=%d", mb), func(b *testing.B) {
			const line = 8 // int64s per 64-byte cache line
			lines := mb << 20 / 64
			next := make([]int64, lines*line)
			order := rand.New(rand.NewPCG(1, 2)).Perm(lines)
			for i, l := range order { // one cycle through every line
				next[l*line] = int64(order[(i+1)%lines] * line)
			}
			const loads = 1 << 22
			p := int64(0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for range loads {
					p = next[p]
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*loads), "ns/load")
			if p < 0 {
				b.Fatal("unreachable")
			}
		})
	}
}
