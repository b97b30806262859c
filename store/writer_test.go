package store_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/store"
)

// waitDone waits until the database holds want done points.
func waitDone(t *testing.T, d *store.DB, want int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		done, _ := counts(t, d)
		if done == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d points done, want %d", done, want)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestWriterCommitsFullBatches(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(3, time.Hour)
	for _, id := range pointIDs(7) {
		if err := w.Write(doneResult(id, testGrid.ID)); err != nil {
			t.Fatal(err)
		}
	}
	waitDone(t, d, 6) // two full batches
	time.Sleep(50 * time.Millisecond)
	if done, _ := counts(t, d); done != 6 {
		t.Fatalf("%d points done before Close, want 6: the partial batch was committed", done)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if done, _ := counts(t, d); done != 7 {
		t.Errorf("%d points done after Close, want 7", done)
	}
}

func TestWriterCommitsAfterFlushEvery(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(100, 10*time.Millisecond)
	defer w.Close()
	if err := w.Write(doneResult("p1", testGrid.ID)); err != nil {
		t.Fatal(err)
	}
	waitDone(t, d, 1)
}

func TestWriterFlush(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(100, time.Hour)
	defer w.Close()
	for _, id := range pointIDs(3) {
		if err := w.Write(doneResult(id, testGrid.ID)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if done, _ := counts(t, d); done != 3 {
		t.Errorf("%d points done after Flush, want 3", done)
	}
}

func TestWriterRejectsInvalidResults(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(1, time.Hour)
	defer w.Close()
	for _, tc := range []struct {
		name string
		edit func(r *store.Result)
	}{
		{"no point ID", func(r *store.Result) { r.ID = "" }},
		{"no grid ID", func(r *store.Result) { r.GridID = "" }},
		{"unknown status", func(r *store.Result) { r.Status = "running" }},
		{"seed too large", func(r *store.Result) { r.Point.Seed = 1 << 63 }},
		{"repeated param", func(r *store.Result) {
			r.Point.Params = []store.Param{{Name: "a", Value: "1"}, {Name: "a", Value: "2"}}
		}},
		{"empty param name", func(r *store.Result) { r.Point.Params = []store.Param{{Name: "", Value: "1"}} }},
		{"unknown metric", func(r *store.Result) { r.Metrics = map[string]float64{"Victim Gbps": 1} }},
		{"repeated flow", func(r *store.Result) {
			r.Series = []store.Series{{Flow: "F1", SampleSeconds: 1e-3}, {Flow: "F1", SampleSeconds: 1e-3}}
		}},
		{"no sample interval", func(r *store.Result) {
			r.Series = []store.Series{{Flow: "F1", Gbps: []float64{1}}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := doneResult("p1", testGrid.ID)
			tc.edit(&r)
			if err := w.Write(r); err == nil {
				t.Error("Write accepted an invalid result")
			}
		})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if done, failed := counts(t, d); done+failed != 0 {
		t.Errorf("%d results stored, want 0", done+failed)
	}
}

func TestWriterAfterClose(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(1, time.Hour)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(doneResult("p1", testGrid.ID)); !errors.Is(err, store.ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

func TestWriterStopsOnCommitError(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(10, time.Hour)
	if err := w.Write(doneResult("p1", testGrid.ID)); err != nil {
		t.Fatal(err)
	}
	// A grid that was never saved violates the foreign key.
	if err := w.Write(doneResult("p2", "unsaved-grid")); err != nil {
		t.Fatal(err)
	}
	err := w.Flush()
	if err == nil {
		t.Fatal("Flush committed a result of an unsaved grid")
	}
	if err := w.Write(doneResult("p3", testGrid.ID)); err == nil {
		t.Error("Write after a failed commit succeeded")
	}
	if cerr := w.Close(); cerr == nil || cerr.Error() != err.Error() {
		t.Errorf("Close = %v, want %v", cerr, err)
	}
	if done, _ := counts(t, d); done != 0 {
		t.Errorf("%d points done, want 0: the failed batch is all or nothing", done)
	}
}

func TestWriterConcurrentWrites(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(16, 5*time.Millisecond)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				if err := w.Write(doneResult(fmt.Sprintf("g%d-%d", g, i), testGrid.ID)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if done, _ := counts(t, d); done != 400 {
		t.Errorf("%d points done, want 400", done)
	}
	integrityCheck(t, d)
}

// BenchmarkCommit measures what committing each point on its own costs
// against batches of 64, for points of five flows of 5000 samples (a 5 s
// testbed run sampled every millisecond).
func BenchmarkCommit(b *testing.B) {
	for _, batch := range []int{1, 64} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			d, err := store.Open(filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			if err := d.SaveGrid(b.Context(), testGrid); err != nil {
				b.Fatal(err)
			}
			series := make([]store.Series, 5)
			for i := range series {
				series[i] = store.Series{Flow: fmt.Sprintf("F%d", i+1), Role: "contributor", SampleSeconds: 1e-3, Gbps: noise(5000, uint64(i))}
			}
			b.ReportAllocs()
			var pending []store.Result
			for i := 0; b.Loop(); i++ {
				r := doneResult(fmt.Sprintf("p%d", i), testGrid.ID)
				r.Series = series
				if pending = append(pending, r); len(pending) == batch {
					if err := d.SaveResults(b.Context(), pending); err != nil {
						b.Fatal(err)
					}
					pending = pending[:0]
				}
			}
			if len(pending) > 0 {
				if err := d.SaveResults(b.Context(), pending); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A flow's series without samples needs no sample interval (a run shorter
// than one sample has none): such a result is valid and stored, where a
// series with samples and no interval is refused (TestWriterRejectsInvalidResults).
func TestWriterAcceptsASeriesWithoutSamples(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(1, time.Hour)
	defer w.Close()
	r := doneResult("p1", testGrid.ID)
	r.Series = []store.Series{{Flow: "F1"}}
	if err := w.Write(r); err != nil {
		t.Fatalf("a series without samples: %v", err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if done, _ := counts(t, d); done != 1 {
		t.Errorf("%d results done, want 1", done)
	}
}

// TestWriterBatchOfOneCommitsEachResult: a batch of 1 is a batch (only
// below 1 means 64): each Write commits, with no flush due for an hour.
func TestWriterBatchOfOneCommitsEachResult(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(1, time.Hour)
	defer w.Close()
	if err := w.Write(doneResult("p1", testGrid.ID)); err != nil {
		t.Fatal(err)
	}
	waitDone(t, d, 1)
}

// TestWriterZeroFlushEveryMeansOneSecond: flushEvery 0 means one second, so
// a lone result is committed within waitDone's five seconds without Flush.
func TestWriterZeroFlushEveryMeansOneSecond(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(100, 0)
	defer w.Close()
	start := time.Now()
	if err := w.Write(doneResult("p1", testGrid.ID)); err != nil {
		t.Fatal(err)
	}
	waitDone(t, d, 1)
	if el := time.Since(start); el < 500*time.Millisecond {
		t.Errorf("committed after %v, before the default second's flush was due", el)
	}
}
