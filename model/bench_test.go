package model_test

import (
	"testing"

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
