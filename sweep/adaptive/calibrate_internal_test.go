package adaptive

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
)

// TestBestFitIsTheLeastMeanOverSeeds checks the best fit of a calibration
// with two seeds a point: the point whose error, averaged over its seeds,
// is least, and that mean (CalibrateStepper.best: "the least error, mean
// over its seeds, and that error"). The errors are set in the stepper's cache, so
// no series is read: 8 has 3 and 3 (mean 3), 12 has 1 and 3 (mean 2), 16
// has 2.5 and 2.5 (mean 2.5). The best is 12, error 2: neither the first
// planned point, nor the least single error's alone (1), nor a sum.
func TestBestFitIsTheLeastMeanOverSeeds(t *testing.T) {
	errs := map[string][2]float64{"8": {3, 3}, "12": {1, 3}, "16": {2.5, 2.5}}
	cs := NewCalibrateStepper(&grids.Calibrate{})
	var planned []Planned
	for seed := uint64(1); seed <= 2; seed++ {
		for _, v := range []string{"8", "12", "16"} {
			p := grids.Point{Scenario: "testbed-s2", Params: []grids.Param{{Name: "host_io_gbps", Value: v}}, Seed: seed}
			cs.errs[grids.PointID(p, model.Version)] = errs[v][seed-1]
			planned = append(planned, Planned{Point: p})
		}
	}
	best, e, err := cs.best(context.Background(), nil, planned)
	if err != nil || best == nil {
		t.Fatal(best, err)
	}
	if v, _ := best.Value("host_io_gbps"); v != "12" || best.Seed != 1 || math.Abs(e-2) > 1e-12 {
		t.Errorf("best fit host_io_gbps %s seed %d, error %g; want 12 (seed 1, its first planned), mean error 2", v, best.Seed, e)
	}
	// The same with the best planned first: it stays the best.
	planned = append(planned[1:2], append(planned[:1:1], planned[2:]...)...)
	if best, e, _ = cs.best(context.Background(), nil, planned); best == nil || math.Abs(e-2) > 1e-12 {
		t.Fatalf("best %v, error %g; want 12, error 2", best, e)
	}
	if v, _ := best.Value("host_io_gbps"); v != "12" {
		t.Errorf("with 12 planned first the best fit is %s, want 12", v)
	}
}

// TestCalibrationReadsTheLegacyIDsSeries checks that the error of a
// point reads the series a database holds under the point's legacy ID
// (grids.LegacyPointID) when there is none under its ID, and the one
// under its ID when both are there: docs/guarantees.md, "Databases
// written before keep their points" (calibration looks points up the same
// way).
func TestCalibrationReadsTheLegacyIDsSeries(t *testing.T) {
	ctx := context.Background()
	// marking_rate = 1 is the testbed's own value: the point's ID leaves it
	// out, its legacy ID does not.
	p := grids.Point{Scenario: "testbed-s1", Params: []grids.Param{{Name: "marking_rate", Value: "1"}}, Seed: 1}
	id, legacy := grids.PointID(p, model.Version), grids.LegacyPointID(p, model.Version)
	if legacy == "" || legacy == id {
		t.Fatalf("legacy ID %q, ID %q: nothing to test", legacy, id)
	}
	save := func(db *store.DB, id string, gbps float64) {
		t.Helper()
		if err := db.SaveGrid(ctx, store.GridRecord{ID: "g", Name: "g", Scenario: p.Scenario, ModelVersion: model.Version, Canonical: "g"}); err != nil {
			t.Fatal(err)
		}
		r := store.Result{ID: id, GridID: "g", Point: p,
			Status: store.StatusDone, ModelVersion: model.Version,
			Series: []store.Series{{Flow: "F1", Role: "victim", SampleSeconds: 1e-3, Gbps: []float64{gbps, gbps}}}}
		if err := db.SaveResults(ctx, []store.Result{r}); err != nil {
			t.Fatal(err)
		}
	}
	open := func(name string) *store.DB {
		db, err := store.Open(filepath.Join(t.TempDir(), name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	gbpsOf := func(db *store.DB) []float64 {
		t.Helper()
		s, err := seriesOf(ctx, db, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) != 1 {
			t.Fatalf("%d series, want 1", len(s))
		}
		return s[0].Gbps
	}
	old := open("old.db")
	save(old, legacy, 4)
	if got := gbpsOf(old); !slices.Equal(got, []float64{4, 4}) {
		t.Errorf("stored under the legacy ID only: series %v, want [4 4]", got)
	}
	both := open("both.db")
	save(both, legacy, 4)
	save(both, id, 8)
	if got := gbpsOf(both); !slices.Equal(got, []float64{8, 8}) {
		t.Errorf("stored under both IDs: series %v, want the ID's, [8 8]", got)
	}
	none := open("none.db")
	if s, err := seriesOf(ctx, none, p); err != nil || len(s) != 0 {
		t.Errorf("empty database: series %v, %v; want none, no error", s, err)
	}
}

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
