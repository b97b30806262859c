package sweep_test

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// millionGrid has 10^6 points: 1000 CCTI timers × 1000 marking rates.
const millionGrid = `
name = "big"
scenario = "testbed-s1"
[sweep]
ccti_timer = { from = "1us", to = "1000us", step = "1us" }
marking_rate = { from = 0, to = 999, step = 1 }
`

// peakHeap samples runtime.MemStats.HeapInuse every few milliseconds while
// f runs and returns the largest value seen, in MB, over what was in use
// before (after a collection).
func peakHeap(f func()) float64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	peak := base
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	wg.Wait()
	return float64(peak-base) / 1e6
}

// BenchmarkMillionPointMemory measures the peak heap of what `run --dry-run`
// does on a 10^6-point grid (parse, plan, ask the database what is missing,
// estimate the cost), of dealing it to shards, and of the first seconds of
// a real run with two workers. The hardening target is under 100 MB for
// each; before plans streamed, the dry run alone held about 550 MB.
func BenchmarkMillionPointMemory(b *testing.B) {
	ctx := context.Background()
	var g *grids.Grid
	parse := func(b *testing.B) {
		var err error
		if g, err = grids.Parse("big.toml", []byte(millionGrid)); err != nil {
			b.Fatal(err)
		}
	}
	open := func(b *testing.B) *store.DB {
		db, err := store.Open(filepath.Join(b.TempDir(), "big.db"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		return db
	}
	b.Run("dry-run", func(b *testing.B) {
		db := open(b)
		for range b.N {
			mb := peakHeap(func() {
				parse(b)
				plan, err := sweep.NewPlan(g, sweep.Shard{})
				if err != nil {
					b.Fatal(err)
				}
				missing, err := plan.Missing(ctx, db)
				if err != nil || len(missing) != 1_000_000 {
					b.Fatalf("Missing: %d points, %v", len(missing), err)
				}
				if _, err := sweep.Estimate(ctx, plan, slices.Values(missing)); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(mb, "peak-MB")
		}
	})
	b.Run("shard-2", func(b *testing.B) {
		parse(b)
		for range b.N {
			mb := peakHeap(func() {
				if _, err := sweep.NewPlan(g, sweep.Shard{Index: 1, Count: 2}); err != nil {
					b.Fatal(err)
				}
			})
			b.ReportMetric(mb, "peak-MB")
		}
	})
	b.Run("run-5s", func(b *testing.B) {
		parse(b)
		for range b.N {
			db := open(b)
			mb := peakHeap(func() {
				plan, err := sweep.NewPlan(g, sweep.Shard{})
				if err != nil {
					b.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
				defer cancel()
				if _, err := sweep.Run(ctx, plan, db, sweep.Options{Workers: 2}); !errors.Is(err, sweep.ErrInterrupted) {
					b.Fatalf("Run: %v, want interrupted", err)
				}
			})
			b.ReportMetric(mb, "peak-MB")
		}
	})
}
