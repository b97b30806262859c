package report_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// fakeDB writes a database holding the grids of the named files in
// testdata/golden with made-up results (fakeResult) under fixed IDs, so
// that what the report draws depends neither on the model nor on its
// version. Some points are failed or left out (see fakeFate).
func fakeDB(t testing.TB, names ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	runID, err := db.BeginRun(ctx, store.Run{Version: "test", Commit: "0123456789abcdef", ModelVersion: "test",
		Host: "testhost", PID: 42, Args: []string{"ccsweep", "run", "golden.toml"}, Workers: 2,
		Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		g := loadGrid(t, filepath.Join("testdata", "golden", name+".toml"))
		gridID := name + "-grid"
		if err := db.SaveGrid(ctx, store.GridRecord{ID: gridID, Name: g.Name, Scenario: g.Scenario,
			ModelVersion: "test", Canonical: g.Canonical()}); err != nil {
			t.Fatal(err)
		}
		var rs []store.Result
		for i, pt := range g.Points() {
			r := fakeResult(pt, fmt.Sprintf("%s-%03d", name, i), gridID, runID)
			switch fakeFate(pt) {
			case "missing":
				continue
			case "failed":
				r.Status, r.Err, r.Metrics, r.Series = store.StatusFailed, "injected failure", nil, nil
			}
			rs = append(rs, r)
		}
		if err := db.SaveResults(ctx, rs); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.EndRun(ctx, runID, time.Date(2025, 1, 2, 3, 5, 6, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	return path
}

func loadGrid(t testing.TB, path string) *grids.Grid {
	t.Helper()
	g, err := grids.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// param returns a point's value of name as a number (durations in µs),
// or def if the point does not set it.
func param(pt grids.Point, name string, def float64) float64 {
	v, ok := pt.Value(name)
	if !ok {
		return def
	}
	if d, err := time.ParseDuration(v); err == nil {
		return float64(d) / float64(time.Microsecond)
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return def
	}
	return x
}

// fakeFate says what happens to a point of the golden grids: in golden,
// threshold=15 ccti_timer=400us marking_rate=2 fails (both seeds),
// threshold=7 ccti_timer=400us marking_rate=1 is never stored, and seed 2
// of threshold=7 ccti_timer=100us marking_rate=0 is not stored either.
func fakeFate(pt grids.Point) string {
	th, tm, mr := param(pt, "threshold", -1), param(pt, "ccti_timer", -1), param(pt, "marking_rate", -1)
	switch {
	case th == 15 && tm == 400 && mr == 2:
		return "failed"
	case th == 7 && tm == 400 && mr == 1, th == 7 && tm == 100 && mr == 0 && pt.Seed == 2:
		return "missing"
	}
	return "done"
}

// fakeResult makes up a done result whose metrics are simple functions of
// the point's parameters and seed, and five flows of 20 samples.
func fakeResult(pt grids.Point, id, gridID string, runID int64) store.Result {
	timer, rate, th := param(pt, "ccti_timer", 150), param(pt, "marking_rate", 1), param(pt, "threshold", 15)
	size := param(pt, "message_size", 65536)
	s := float64(pt.Seed)
	cc, _ := pt.Value("cc")
	m := map[string]float64{
		"victim_gbps":       10 + timer/100 - rate + th/15 + 0.1*s + math.Log2(size/256)/8,
		"contributors_gbps": 3 + 0.1*rate + 0.01*s,
		"fairness_jain":     0.9 + 0.01*rate,
		"var":               0.05*timer/100 + 0.01*rate + 0.001*s,
		"sd_gbps":           0.2,
		"fecn":              1000 * rate,
		"becn":              900 * rate,
		"mean_ccti":         timer / 10,
	}
	if cc == "off" {
		m = map[string]float64{"victim_gbps": 2.17 + 0.01*s, "contributors_gbps": 3.25, "fairness_jain": 0.9,
			"var": 0.5, "sd_gbps": 0.1, "fecn": 0, "becn": 0, "mean_ccti": 0}
	}
	r := store.Result{
		ID: id, GridID: gridID, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
		Status: store.StatusDone, WallSeconds: 0.5, Events: 1000, ModelVersion: "test", RunID: runID, Metrics: m,
	}
	r.Point.Params = append(r.Point.Params, pt.Params...)
	for f := 1; f <= 5; f++ {
		role := "contributor"
		if f == 1 {
			role = "victim"
		}
		gbps := make([]float64, 20)
		for i := range gbps {
			if i >= 4*(f-1) { // flow f joins in phase f-1, four samples a phase
				gbps[i] = float64(f) + 0.25*float64(i%4) + 0.5*s
			}
		}
		r.Series = append(r.Series, store.Series{Flow: "F" + strconv.Itoa(f), Role: role, SampleSeconds: 0.001, Gbps: gbps})
	}
	return r
}

// sweepDB runs testdata/sweep.toml with the real model into a new
// database, leaving out one parameter combination (both seeds) and storing
// another as failed, so that the report has something to mark.
func sweepDB(t testing.TB) string {
	t.Helper()
	g := loadGrid(t, filepath.Join("testdata", "sweep.toml"))
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "small.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	is := func(pt grids.Point, timer, rate string) bool {
		v1, _ := pt.Value("ccti_timer")
		v2, _ := pt.Value("marking_rate")
		return v1 == timer && v2 == rate
	}
	var failed []store.Result
	for k, pt := range plan.All() {
		if !is(pt, "100us", "8") {
			continue
		}
		r := store.Result{ID: plan.ID(k), GridID: plan.GridID, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
			Status: store.StatusFailed, Err: "simulation panicked: injected by the test", ModelVersion: "test"}
		r.Point.Params = append(r.Point.Params, pt.Params...)
		failed = append(failed, r)
	}
	// Run the others but the missing ones.
	plan = plan.Only(func(pt grids.Point) bool { return !is(pt, "600us", "2") && !is(pt, "100us", "8") })
	if _, err := sweep.Run(context.Background(), plan, db, sweep.Options{Workers: 2, Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveResults(context.Background(), failed); err != nil {
		t.Fatal(err)
	}
	return path
}
