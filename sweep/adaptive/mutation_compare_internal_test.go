package adaptive

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
)

// TestCompareRowsByHand lines a two-flow measurement up with a series by
// hand: per flow and phase, the means of the measured and the model's
// samples and the root mean square of their difference, over the measured
// samples only, rows in phase order; a measurement longer than the series
// and one sampled at another interval are errors.
func TestCompareRowsByHand(t *testing.T) {
	ms := engine.Millisecond
	m := &grids.Measurement{Flows: []string{"F1", "F2"}, Sample: ms, Gbps: map[string]map[int]float64{
		// F1: samples 0, 1 (phase 0) and 2, 3 (phase 1); F2 only sample 3.
		"F1": {0: 10, 1: 12, 2: 4, 3: 6},
		"F2": {3: 1},
	}}
	series := []store.Series{
		{Flow: "F2", SampleSeconds: 1e-3, Gbps: []float64{9, 9, 9, 4}},
		{Flow: "F1", SampleSeconds: 1e-3, Gbps: []float64{11, 15, 1, 6}},
	}
	rows, err := compare(m, series, 2*ms)
	if err != nil {
		t.Fatal(err)
	}
	// F1 phase 0: measured (10+12)/2 = 11, model (11+15)/2 = 13, RMSE
	// sqrt((1+9)/2); phase 1: measured 5, model 3.5, RMSE sqrt((9+0)/2).
	// F2 phase 1: measured 1, model 4, RMSE 3.
	want := []FitRow{
		{Flow: "F1", Phase: 0, Measured: 11, Model: 13, RMSE: math.Sqrt(5), N: 2},
		{Flow: "F1", Phase: 1, Measured: 5, Model: 3.5, RMSE: math.Sqrt(4.5), N: 2},
		{Flow: "F2", Phase: 1, Measured: 1, Model: 4, RMSE: 3, N: 1},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v, want %+v", rows, want)
	}
	for i, w := range want {
		r := rows[i]
		if r.Flow != w.Flow || r.Phase != w.Phase || r.N != w.N ||
			math.Abs(r.Measured-w.Measured) > 1e-12 || math.Abs(r.Model-w.Model) > 1e-12 || math.Abs(r.RMSE-w.RMSE) > 1e-12 {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
	}
	// Not split by phase: one row per flow, phase -1.
	rows, err = compare(m, series, 0)
	if err != nil || len(rows) != 2 || rows[0].Phase != -1 || rows[0].N != 4 || rows[0].Measured != 8 || rows[0].Model != 8.25 {
		t.Errorf("unsplit rows %+v, %v; want F1 over 4 samples: measured 8, model 8.25, phase -1", rows, err)
	}
	// The measurement goes on past the model's last sample.
	m.Gbps["F1"][4] = 1
	if _, err := compare(m, series, 2*ms); err == nil {
		t.Error("a measurement longer than the series was accepted")
	}
	delete(m.Gbps["F1"], 4)
	// Sampled at another interval (within 1e-9 of it is the same).
	series[1].SampleSeconds = 1e-3 * (1 + 1e-6)
	if _, err := compare(m, series, 2*ms); err == nil {
		t.Error("a series sampled every 1.000001 ms was compared with a 1 ms measurement")
	}
	series[1].SampleSeconds = 1e-3 * (1 + 1e-12)
	if _, err := compare(m, series, 2*ms); err != nil {
		t.Errorf("a series sampled within 1e-12 of the measurement's interval: %v", err)
	}
}
