package adaptive

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

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
