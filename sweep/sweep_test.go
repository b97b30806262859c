package sweep_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// smallGrid is a grid of short CC runs with random marking, so that seeds
// matter and results differ from point to point.
const smallGrid = `
name     = "small"
scenario = "testbed-s1"
cc       = "on"
phase    = "4ms"
sample   = "1ms"
seeds    = 2

[base]
marking_mode = "random"

[sweep]
ccti_timer   = ["50us", "300us"]
marking_rate = [0, 4]
`

func parse(t *testing.T, text string) *grids.Grid {
	t.Helper()
	g, err := grids.Parse("grid.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func openDB(t *testing.T, name string) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func runGrid(t *testing.T, g *grids.Grid, db *store.DB, opt sweep.Options) sweep.Summary {
	t.Helper()
	plan, err := sweep.NewPlan(g, opt.Shard)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := sweep.Run(context.Background(), plan, db, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

func export(t *testing.T, db *store.DB) string {
	t.Helper()
	var b bytes.Buffer
	if err := db.ExportCSV(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWorkerCountDoesNotChangeResults(t *testing.T) {
	g := parse(t, smallGrid)
	one, four := openDB(t, "one.db"), openDB(t, "four.db")
	s1 := runGrid(t, g, one, sweep.Options{Workers: 1})
	s4 := runGrid(t, g, four, sweep.Options{Workers: 4})
	if s1.Ran != 8 || s4.Ran != 8 {
		t.Fatalf("ran %d and %d points, want 8 each", s1.Ran, s4.Ran)
	}
	a, b := export(t, one), export(t, four)
	if a != b {
		t.Fatalf("-j 1 and -j 4 differ:\n%s\n%s", a, b)
	}
	if lines := strings.Count(a, "\n"); lines != 9 {
		t.Fatalf("export has %d lines, want header + 8", lines)
	}
	// Seeds 1 and 2 of the same parameters must differ (random marking).
	rows := strings.Split(a, "\n")
	if rows[1][strings.Index(rows[1], ",1,"):] == rows[2][strings.Index(rows[2], ",2,"):] {
		t.Errorf("seeds 1 and 2 gave identical metrics: %q %q", rows[1], rows[2])
	}
}

func TestRerunAndOverlappingGridRunOnlyWhatIsMissing(t *testing.T) {
	g := parse(t, smallGrid)
	db := openDB(t, "r.db")
	first := runGrid(t, g, db, sweep.Options{Workers: 2})
	again := runGrid(t, g, db, sweep.Options{Workers: 2})
	if first.Ran != 8 || again.Ran != 0 || again.AlreadyDone != 8 {
		t.Fatalf("first ran %d; rerun ran %d with %d done", first.Ran, again.Ran, again.AlreadyDone)
	}
	// One more timer value: only its 4 points are new.
	wider := parse(t, strings.Replace(smallGrid, `["50us", "300us"]`, `["50us", "300us", "1ms"]`, 1))
	more := runGrid(t, wider, db, sweep.Options{Workers: 2})
	if more.Ran != 4 || more.AlreadyDone != 8 {
		t.Fatalf("overlapping grid ran %d with %d done, want 4 and 8", more.Ran, more.AlreadyDone)
	}
	if done, failed, _ := db.Counts(context.Background(), ""); done != 12 || failed != 0 {
		t.Fatalf("database holds %d done, %d failed; want 12, 0", done, failed)
	}
}

func TestFailedPointIsRecordedAndTheSweepGoesOn(t *testing.T) {
	// victim_mask names a port the testbed does not have: the grid is valid,
	// the simulation of those points is not.
	g := parse(t, smallGrid+`victim_mask = ["host", "S9:1"]`+"\n")
	db := openDB(t, "f.db")
	sum := runGrid(t, g, db, sweep.Options{Workers: 2})
	if sum.Ran != 16 || sum.Failed != 8 {
		t.Fatalf("ran %d, failed %d; want 16 and 8", sum.Ran, sum.Failed)
	}
	failed, err := db.Results(context.Background(), store.Filter{Status: store.StatusFailed})
	if err != nil || len(failed) != 8 || !strings.Contains(failed[0].Err, "victim_mask") {
		t.Fatalf("failed results %d (%v): %+v", len(failed), err, failed)
	}
	// Fail-fast stops at the first failure.
	db2 := openDB(t, "ff.db")
	plan, _ := sweep.NewPlan(g, sweep.Shard{})
	s2, err := sweep.Run(context.Background(), plan, db2, sweep.Options{Workers: 1, FailFast: true})
	if err == nil || s2.Failed != 1 || s2.Ran >= 16 {
		t.Fatalf("fail-fast: err %v, ran %d, failed %d", err, s2.Ran, s2.Failed)
	}
}

type cancelAfter struct {
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Start(int) {}
func (c *cancelAfter) Done(grids.Point, bool) {
	if c.n--; c.n == 0 {
		c.cancel()
	}
}
func (c *cancelAfter) Finish() {}

func TestInterruptKeepsWhatFinished(t *testing.T) {
	g := parse(t, smallGrid)
	db := openDB(t, "i.db")
	plan, _ := sweep.NewPlan(g, sweep.Shard{})
	ctx, cancel := context.WithCancel(context.Background())
	sum, err := sweep.Run(ctx, plan, db, sweep.Options{Workers: 1, Progress: &cancelAfter{n: 3, cancel: cancel}})
	if err != sweep.ErrInterrupted {
		t.Fatalf("err %v, want ErrInterrupted", err)
	}
	done, _, _ := db.Counts(context.Background(), "")
	if done != sum.Ran || done < 3 || done >= 8 {
		t.Fatalf("interrupted after 3: %d done in the database, %d reported", done, sum.Ran)
	}
	rest := runGrid(t, g, db, sweep.Options{Workers: 2})
	if rest.Ran != 8-done {
		t.Fatalf("rerun ran %d, want %d", rest.Ran, 8-done)
	}
}

func TestShardsPartitionTheGridAndBalanceCost(t *testing.T) {
	g := parse(t, `
name = "sh"
scenario = "testbed-s1"
[sweep]
phase = ["10ms", "20ms", "40ms"]
ccti_timer = {from = "50us", to = "500us", step = "50us"}
`)
	all := g.Points()
	seen := map[string]int{}
	var loads []float64
	for i := 1; i <= 4; i++ {
		sh := sweep.Shard{Index: i, Count: 4}
		var load float64
		for _, p := range sh.Select(all) {
			seen[p.ID("x")]++
			load += sweep.SimulatedTime(p).Seconds()
		}
		loads = append(loads, load)
	}
	if len(seen) != len(all) {
		t.Fatalf("shards cover %d of %d points", len(seen), len(all))
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("point %s in %d shards", id, n)
		}
	}
	lo, hi := loads[0], loads[0]
	for _, l := range loads {
		lo, hi = min(lo, l), max(hi, l)
	}
	if hi-lo > 0.2*5 { // at most one of the costliest points' worth (5 phases of 40 ms)
		t.Errorf("shard loads %v are unbalanced", loads)
	}
	for _, bad := range []string{"0/4", "5/4", "x", "1/0", "2"} {
		if _, err := sweep.ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}

// claimer tries, while the sweep runs, to claim every point for another
// owner through a second handle on the same file.
type claimer struct {
	db   *store.DB
	ids  []string
	got  []string
	done int
}

func (c *claimer) Start(int) {}
func (c *claimer) Done(grids.Point, bool) {
	c.done++
	if c.done == 1 {
		time.Sleep(400 * time.Millisecond) // several leases long
		got, _ := c.db.Claim(context.Background(), c.ids, "intruder", time.Hour)
		c.got = append(c.got, got...)
	}
}
func (c *claimer) Finish() {}

func TestLeasesOfUnfinishedPointsAreRenewed(t *testing.T) {
	g := parse(t, smallGrid)
	path := filepath.Join(t.TempDir(), "lease.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	plan, _ := sweep.NewPlan(g, sweep.Shard{})
	c := &claimer{db: other, ids: plan.IDs}
	// Leases of 120 ms, renewed every 40 ms: while the first finished point's
	// progress call sleeps 400 ms, the other claimed points stay leased.
	if _, err := sweep.Run(context.Background(), plan, db, sweep.Options{Workers: 1, Lease: 120 * time.Millisecond, Progress: c}); err != nil {
		t.Fatal(err)
	}
	for _, id := range c.got {
		for i, pid := range plan.IDs {
			if pid == id && i < 2 {
				t.Errorf("point %d was claimed by another owner while this sweep held it", i)
			}
		}
	}
}
