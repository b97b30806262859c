package model

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestMutMetricsOfAOneSampleWindow checks ComputeMetrics over a window
// holding exactly one sample: sample i covers (i·Sample, (i+1)·Sample], so
// [1 µs, 2 µs] at 1 µs holds sample 1 only, and every throughput metric is
// that sample's value (a window with none is NaN).
func TestMutMetricsOfAOneSampleWindow(t *testing.T) {
	r := &Result{
		Sample: engine.Microsecond,
		Flows: []FlowResult{
			{Role: workload.Victim, Gbps: []float64{1, 2, 3, 4}},
			{Role: workload.Contributor, Gbps: []float64{5, 6, 7, 8}},
			{Role: workload.Contributor, Gbps: []float64{7, 8, 9, 10}},
		},
		Stats: RunStats{SenderGbps: 10, OfferedGbps: 10},
	}
	m := r.ComputeMetrics(engine.Microsecond, 2*engine.Microsecond)
	want := map[string][2]float64{
		"VictimGbps":       {m.VictimGbps, 2},
		"ContributorsGbps": {m.ContributorsGbps, 7},
		"FairnessJain":     {m.FairnessJain, 14 * 14 / (2 * (36 + 64.0))},
		"AcceptedLoad":     {m.AcceptedLoad, 1.6},
		"SDGbps":           {m.SDGbps, 0},
		"Var":              {m.Var, 0},
	}
	for name, v := range want {
		if !(math.Abs(v[0]-v[1]) <= 1e-12) { // NaN fails too
			t.Errorf("%s over one sample = %v, want %v", name, v[0], v[1])
		}
	}
	if m := r.ComputeMetrics(engine.Microsecond+1, 2*engine.Microsecond); !math.IsNaN(m.VictimGbps) {
		t.Errorf("a window holding no whole sample: VictimGbps %v, want NaN", m.VictimGbps)
	}
}
