package model_test

import (
	"slices"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/model"
)

// BenchmarkTestbedS1 runs the full testbed-s1 scenario (five 1 s phases) per
// iteration and reports simulated seconds per wall second (above 1 is faster
// than real time) and events per second. Run it on one core with
// GOMAXPROCS=1 go test -run '^$' -bench TestbedS1 -benchtime 3x ./model
func BenchmarkTestbedS1(b *testing.B) {
	for _, cc := range []string{"off", "on"} {
		b.Run("cc="+cc, func(b *testing.B) {
			cfg := model.DefaultConfig()
			if err := cfg.Set("cc", cc); err != nil {
				b.Fatal(err)
			}
			sc := model.LookupScenario("testbed-s1")
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
			sc := model.LookupScenario(name)
			off, on := model.DefaultConfig(), model.DefaultConfig()
			on.CC.Scheme = model.SchemeIB
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
	sc := &model.Scenario{Name: "clos648", Phases: 1, Routing: "ftree",
		Traffic: []model.TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "poisson", Load: 0.5}},
		Build: func(c *model.Config) (*model.Topology, error) {
			return model.GenerateTopology("clos", model.TopoParams{Preset: "648", HostGbps: 32, SwitchGbps: 32})
		}}
	cfg := model.DefaultConfig()
	cfg.CC.Scheme = model.SchemeIB
	for b.Loop() {
		if _, err := model.NewNetwork(sc, cfg, 1); err != nil {
			b.Fatal(err)
		}
	}
}
