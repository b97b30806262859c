package store_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/store"
)

func TestResultRoundTrip(t *testing.T) {
	d, _ := newDB(t)
	ctx := t.Context()
	runID, err := d.BeginRun(ctx, store.Run{Version: "v0.1.0", ModelVersion: "m1", Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	started := time.Date(2025, 3, 1, 12, 0, 0, 123456789, time.FixedZone("CET", 3600))
	in := store.Result{
		ID: "ab12", GridID: testGrid.ID, Point: store.Point{
			Scenario: "testbed-s1", Seed: 7,
			Params: []store.Param{{Name: "marking_rate", Value: "4"}, {Name: "ccti_timer", Value: "150us"}},
		},
		Status:       store.StatusDone,
		Started:      started,
		Finished:     started.Add(2500 * time.Millisecond),
		WallSeconds:  2.5,
		Events:       123456789012,
		ModelVersion: "m1",
		RunID:        runID,
		Metrics: map[string]float64{
			"contributors_gbps": 3.2, "fairness_jain": 0.999, "var": 0.25, "sd_gbps": 0.4,
			"fecn": 1200, "becn": 1100, "mean_ccti": 17.5,
			"victim_gbps": math.NaN(), // no victim: stored as NULL
		},
		Series: []store.Series{
			{Flow: "F2", Role: "contributor", SampleSeconds: 1e-3, Gbps: []float64{3.1, 3.3, 0.1}},
			{Flow: "F1", Role: "victim", SampleSeconds: 1e-3, Gbps: []float64{13, 12.9, 13.1}},
			{Flow: "F3", Role: "background", SampleSeconds: 1e-3},
		},
	}
	if err := d.SaveResults(ctx, []store.Result{in}); err != nil {
		t.Fatal(err)
	}

	rs, err := d.Results(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 {
		t.Fatalf("got %d results, want 1", len(rs))
	}
	got := rs[0]
	wantParams := []store.Param{{Name: "ccti_timer", Value: "150us"}, {Name: "marking_rate", Value: "4"}} // sorted by name
	if !reflect.DeepEqual(got.Point.Params, wantParams) {
		t.Errorf("params = %v, want %v", got.Point.Params, wantParams)
	}
	wantMetrics := maps.Clone(in.Metrics)
	delete(wantMetrics, "victim_gbps")
	if !maps.Equal(got.Metrics, wantMetrics) {
		t.Errorf("metrics = %v, want %v", got.Metrics, wantMetrics)
	}
	if !got.Started.Equal(in.Started) || !got.Finished.Equal(in.Finished) {
		t.Errorf("times = %v, %v; want %v, %v", got.Started, got.Finished, in.Started, in.Finished)
	}
	got.Point.Params, got.Metrics, got.Started, got.Finished = nil, nil, time.Time{}, time.Time{}
	want := in
	want.Point.Params, want.Metrics, want.Started, want.Finished, want.Series = nil, nil, time.Time{}, time.Time{}, nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("result = %+v\nwant %+v", got, want)
	}

	series, err := d.Series(ctx, "ab12")
	if err != nil {
		t.Fatal(err)
	}
	if len(series) != len(in.Series) {
		t.Fatalf("got %d series, want %d", len(series), len(in.Series))
	}
	for i, s := range series {
		w := in.Series[i] // in the order written
		if s.Flow != w.Flow || s.Role != w.Role || s.SampleSeconds != w.SampleSeconds || len(s.Gbps) != len(w.Gbps) {
			t.Errorf("series %d = %+v, want %+v", i, s, w)
			continue
		}
		for j, v := range w.Gbps {
			if s.Gbps[j] != float64(float32(v)) {
				t.Errorf("series %s sample %d = %v, want float32(%v)", s.Flow, j, s.Gbps[j], v)
			}
		}
	}
}

func TestResultStatusRules(t *testing.T) {
	d, _ := newDB(t)
	ctx := t.Context()
	failed := func(id string) store.Result {
		r := doneResult(id, testGrid.ID)
		r.Status, r.Err, r.Metrics = store.StatusFailed, "deadlock", nil
		return r
	}
	save := func(rs ...store.Result) {
		t.Helper()
		if err := d.SaveResults(ctx, rs); err != nil {
			t.Fatal(err)
		}
	}
	save(doneResult("a", testGrid.ID), failed("b"), failed("c"))
	save(failed("a"))                  // never replaces done
	save(doneResult("b", testGrid.ID)) // done replaces failed
	save(failed("c"))                  // failed replaces failed

	done, err := d.Done(ctx, []string{"a", "b", "c", "missing"})
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{"a": true, "b": true}; !maps.Equal(done, want) {
		t.Errorf("Done = %v, want %v (failed and missing points are not done)", done, want)
	}
	if d, f := counts(t, d); d != 2 || f != 1 {
		t.Errorf("Counts = %d done, %d failed; want 2, 1", d, f)
	}
	rs, err := d.Results(ctx, store.Filter{Status: store.StatusFailed})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 1 || rs[0].ID != "c" || rs[0].Err != "deadlock" {
		t.Errorf("failed results = %+v, want c with its error", rs)
	}
}

func TestDoneManyIDs(t *testing.T) {
	d, _ := newDB(t)
	ids := pointIDs(40000) // beyond SQLite's limit on bound parameters
	if err := d.SaveResults(t.Context(), []store.Result{doneResult(ids[39999], testGrid.ID)}); err != nil {
		t.Fatal(err)
	}
	done, err := d.Done(t.Context(), ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || !done[ids[39999]] {
		t.Errorf("Done = %v, want only %s", done, ids[39999])
	}
}

func TestCountsAndResultsByGrid(t *testing.T) {
	d, _ := newDB(t)
	ctx := t.Context()
	other := testGrid
	other.ID, other.Name = "grid-2", "other"
	if err := d.SaveGrid(ctx, other); err != nil {
		t.Fatal(err)
	}
	rs := []store.Result{doneResult("a", testGrid.ID), doneResult("b", other.ID), doneResult("c", other.ID)}
	if err := d.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		grid string
		want int
	}{{"", 3}, {testGrid.ID, 1}, {other.ID, 2}, {"nope", 0}} {
		done, _, err := d.Counts(ctx, tc.grid)
		if err != nil {
			t.Fatal(err)
		}
		got, err := d.Results(ctx, store.Filter{GridID: tc.grid})
		if err != nil {
			t.Fatal(err)
		}
		if done != tc.want || len(got) != tc.want {
			t.Errorf("grid %q: Counts %d, Results %d; want %d", tc.grid, done, len(got), tc.want)
		}
	}
}

func TestSaveGrid(t *testing.T) {
	d, _ := newDB(t) // saved testGrid once
	ctx := t.Context()
	if err := d.SaveGrid(ctx, testGrid); err != nil {
		t.Errorf("saving the same grid again: %v", err)
	}
	changed := testGrid
	changed.Canonical += "seeds = 2\n"
	if err := d.SaveGrid(ctx, changed); !errors.Is(err, store.ErrMismatch) {
		t.Errorf("saving a different grid under the same ID = %v, want ErrMismatch", err)
	}
	grids, err := d.Grids(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(grids) != 1 || grids[0].Canonical != testGrid.Canonical || grids[0].Created.IsZero() {
		t.Errorf("Grids = %+v, want testGrid once with a creation time", grids)
	}
}

func TestRuns(t *testing.T) {
	d, _ := newDB(t)
	ctx := t.Context()
	start := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	in := store.Run{
		Version: "v0.1.0", Commit: "abc123", ModelVersion: "m1", Host: "node7", PID: 42,
		Args: []string{"ccsweep", "run", "grid.toml", "-j", "2"}, Workers: 2, Started: start,
	}
	id1, err := d.BeginRun(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	id2, err := d.BeginRun(ctx, store.Run{Started: start.Add(time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.EndRun(ctx, id1, start.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := d.EndRun(ctx, 999, start); err == nil {
		t.Error("EndRun of an unknown run succeeded")
	}
	runs, err := d.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].ID != id1 || runs[1].ID != id2 {
		t.Fatalf("Runs = %+v, want runs %d and %d", runs, id1, id2)
	}
	got := runs[0]
	if got.UUID == "" || got.UUID == runs[1].UUID {
		t.Errorf("UUIDs %q and %q are not distinct", got.UUID, runs[1].UUID)
	}
	if !got.Finished.Equal(start.Add(time.Minute)) || !runs[1].Finished.IsZero() {
		t.Errorf("finished = %v, %v; want %v and zero", got.Finished, runs[1].Finished, start.Add(time.Minute))
	}
	want := in
	want.ID, want.UUID, want.Finished = got.ID, got.UUID, got.Finished
	if !reflect.DeepEqual(got, want) {
		t.Errorf("run = %+v\nwant %+v", got, want)
	}
	if runs[1].Host == "" || runs[1].PID == 0 || !slices.Equal(runs[1].Args, []string{}) {
		t.Errorf("defaults not filled in: %+v", runs[1])
	}
}

// A stored series whose very first sample is not finite, or whose sampling
// interval is 0, is refused as not a ccsweep database.
func TestSeriesWithANonFiniteFirstSampleIsRefused(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(1, time.Hour)
	r := doneResult("p1", testGrid.ID)
	r.Series = []store.Series{{Flow: "F1", SampleSeconds: 1e-3, Gbps: []float64{1, 2}}}
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for i, gbps := range [][]float64{{math.Inf(1), 2}, {1, math.NaN()}} {
		if _, err := store.SQLDB(d).Exec("UPDATE series SET gbps = ?", store.EncodeSamples(gbps)); err != nil {
			t.Fatal(err)
		}
		_, err := d.Series(context.Background(), "p1")
		want := fmt.Sprintf("sample %d is %v", i, gbps[i])
		if !errors.Is(err, store.ErrNotDatabase) || !strings.Contains(err.Error(), want) {
			t.Errorf("series %v: %v; want ErrNotDatabase saying %q", gbps, err, want)
		}
	}
	if _, err := store.SQLDB(d).Exec("UPDATE series SET gbps = ?, sample_seconds = 0", store.EncodeSamples([]float64{1, 2})); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Series(context.Background(), "p1"); !errors.Is(err, store.ErrNotDatabase) || !strings.Contains(err.Error(), "sampling interval 0 s") {
		t.Errorf("a sampling interval of 0: %v; want ErrNotDatabase saying so", err)
	}
}

// TestMutAppMetricNameRule checks IsAppMetricName's documented rule:
// lowercase letters, digits and '_', starting with a letter, at most 128
// bytes, not a run metric's name. Kills result.go's `len(name) > 128`
// turned into `>=` (a name of exactly 128 bytes refused).
func TestMutAppMetricNameRule(t *testing.T) {
	for name, want := range map[string]bool{
		"ar_latency_us":          true,
		"a":                      true,
		"x9_":                    true,
		strings.Repeat("a", 128): true,
		strings.Repeat("a", 129): false,
		"":                       false,
		"9lives":                 false,
		"_x":                     false,
		"Ar":                     false,
		"a-b":                    false,
		"a b":                    false,
		"victim_gbps":            false, // a run metric
	} {
		if got := store.IsAppMetricName(name); got != want {
			t.Errorf("IsAppMetricName(%.20q, %d bytes) = %v, want %v", name, len(name), got, want)
		}
	}
}
