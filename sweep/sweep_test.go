package sweep_test

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
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

func runGrid(t *testing.T, g *grids.Grid, db *store.DB, opt sweep.Options) sweep.Outcome {
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
	if err := db.ExportCSV(context.Background(), &b, store.ExportOptions{Effective: sweep.EffectiveParams}); err != nil {
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
	// The simulation of every point with victim_mask none fails (a valid
	// grid whose runs fail, as a model bug or a run-time limit would make them).
	sweep.SetSimulate(t.Cleanup, func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
		if cfg.CC.VictimMask == "none" {
			return nil, errors.New("victim_mask none: simulated failure")
		}
		return model.RunContext(ctx, sc, cfg, seed)
	})
	g := parse(t, smallGrid+`victim_mask = ["host", "none"]`+"\n")
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
	// The error names the failure (not only that points are left), and
	// the points left are those neither run nor failed: 16 − Ran.
	if !strings.Contains(err.Error(), "failed: victim_mask none: simulated failure") || s2.Undone != 16-s2.Ran {
		t.Errorf("fail-fast: err %q, %d undone of 16 with %d run; want the point's failure and %d undone", err, s2.Undone, s2.Ran, 16-s2.Ran)
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
	if !errors.Is(err, sweep.ErrInterrupted) || !errors.Is(err, sweep.ErrIncomplete) {
		t.Fatalf("err %v, want ErrInterrupted and ErrIncomplete", err)
	}
	done, _, _ := db.Counts(context.Background(), "")
	if done != sum.Ran || done < 3 || done >= 8 || sum.Undone != 8-done {
		t.Fatalf("interrupted after 3: %d done in the database, %d reported, %d undone", done, sum.Ran, sum.Undone)
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
		plan, err := sweep.NewPlan(g, sweep.Shard{Index: i, Count: 4})
		if err != nil {
			t.Fatal(err)
		}
		var load float64
		for _, p := range plan.All() {
			seen[grids.PointID(p, "x")]++
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
		t.Run("ParseShard "+bad, func(t *testing.T) {
			if _, err := sweep.ParseShard(bad); err == nil {
				t.Errorf("ParseShard(%q) accepted", bad)
			}
		})
	}
}

// claimer plays another process on the same file while the sweep runs: at
// the first finished point it waits until the sweep has renewed its lease on
// point 1 (claimed with point 0, and waiting for the one worker) to end at
// least two leases after the lease it first had, has seen two renewals in a
// row at most half a lease apart (every third of one, unless the machine
// stalls) and sees the lease just renewed (more than half a lease left: a
// renewal gives a whole one); then it tries to claim every point for
// "intruder". A trial counts only if it ended before the lease it saw ran
// out: a stall longer than the rest of the lease (a loaded machine) makes it
// try again after the next renewal. So a loaded machine only makes it wait,
// and a lease that is never renewed, renewed for less than half its length or
// less often than every half lease fails after 20 s.
type claimer struct {
	db    *store.DB
	raw   *sql.DB // reads the claims table
	ids   []string
	ttl   time.Duration
	got   []string
	err   error
	tried bool
	done  int
}

func (c *claimer) Start(int) {}
func (c *claimer) Done(grids.Point, bool) {
	c.done++
	if c.done == 1 {
		c.got, c.err = c.intrude(context.Background())
		c.tried = true
	}
}
func (c *claimer) Finish() {}

// expires returns when the sweep's claim on point id ends, or the zero time
// when it has none.
func (c *claimer) expires(ctx context.Context, id string) (time.Time, error) {
	var s string
	err := c.raw.QueryRowContext(ctx, `SELECT expires FROM claims WHERE point_id = ? AND owner != 'intruder'`, id).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	return time.Parse(time.RFC3339Nano, s)
}

func (c *claimer) intrude(ctx context.Context) ([]string, error) {
	first, err := c.expires(ctx, c.ids[1])
	if err != nil || first.IsZero() {
		return nil, fmt.Errorf("the sweep holds no lease on point 1 (%v)", err)
	}
	prev, quick := first, false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(c.ttl / 10) {
		e, err := c.expires(ctx, c.ids[1])
		if err != nil {
			return nil, err
		}
		if !e.IsZero() && !e.Equal(prev) {
			// Two renewals seen in a row, as close as every third of a
			// lease makes them (a missed one only widens the step).
			quick = quick || e.Sub(prev) <= c.ttl/2
			prev = e
		}
		if !quick || e.Before(first.Add(2*c.ttl)) || time.Until(e) < c.ttl/2 {
			continue // not renewed that far or that often yet, or not just renewed
		}
		got, err := c.db.Claim(ctx, c.ids, "intruder", time.Hour)
		ended := time.Now()
		// Let go, or the sweep would wait for the intruder's points.
		if rerr := c.db.Release(ctx, "intruder"); err == nil {
			err = rerr
		}
		if err != nil || ended.Before(e) {
			return got, err
		}
	}
	return nil, errors.New("within 20 s the sweep's lease on point 1 was not seen renewed two leases past its first, twice within half a lease and just renewed with more than half a lease left")
}

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
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	plan, _ := sweep.NewPlan(g, sweep.Shard{})
	// Leases of 300 ms, renewed every 100 ms.
	c := &claimer{db: other, raw: raw, ids: planIDs(plan), ttl: 300 * time.Millisecond}
	if _, err := sweep.Run(context.Background(), plan, db, sweep.Options{Workers: 1, Lease: c.ttl, Progress: c}); err != nil {
		t.Fatal(err)
	}
	if !c.tried || c.err != nil {
		t.Fatalf("the intruder's claim did not run (tried %v) or failed: %v", c.tried, c.err)
	}
	// With one worker and batches of two, the sweep held points 0 and 1
	// (point 0 had just finished, its claim gone with its result) and none
	// of the later ones: the intruder gets exactly those.
	if want := planIDs(plan)[2*1:]; !slices.Equal(c.got, want) {
		t.Errorf("the intruder got %d points %v, want the %d the sweep had not claimed %v", len(c.got), c.got, len(want), want)
	}
}

// helperEnv makes this test binary, run with -test.run=TestHelperProcess, a
// second process on a shared database instead of running tests.
const helperEnv = "SWEEP_TEST_HELPER"

// startHelper starts this test binary as a helper of the given kind on the
// database at path and returns its first line of output.
func startHelper(t *testing.T, kind, path string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+kind, "SWEEP_TEST_DB="+path), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	sc := bufio.NewScanner(out)
	sc.Scan()
	return cmd, sc.Text()
}

// TestHelperProcess is not a test: it is the helper process of startHelper.
//   - hold: claims the first SWEEP_TEST_N points of smallGrid, says
//     "claimed N" and waits to be killed;
//   - die: runs smallGrid with one worker and kills itself with SIGKILL as
//     soon as SWEEP_TEST_N points have finished.
func TestHelperProcess(t *testing.T) {
	kind := os.Getenv(helperEnv)
	if kind == "" {
		t.Skip("only a helper process")
	}
	n, _ := strconv.Atoi(os.Getenv("SWEEP_TEST_N"))
	db, err := store.Open(os.Getenv("SWEEP_TEST_DB"))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := sweep.NewPlan(parse(t, smallGrid), sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	switch kind {
	case "hold":
		got, err := db.Claim(context.Background(), planIDs(plan)[:n], "peer", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		os.Stdout.WriteString("claimed " + strconv.Itoa(len(got)) + "\n")
		select {}
	case "dieapps":
		helperDieApps(t, db, n)
	case "die":
		os.Stdout.WriteString("running\n")
		sweep.Run(context.Background(), plan, db, sweep.Options{Workers: 1, Progress: &killAfter{n: n}})
		t.Fatal("the sweep ended before it was killed")
	}
}

// killAfter kills its own process with SIGKILL when n points have finished.
type killAfter struct{ n int }

func (k *killAfter) Start(int) {}
func (k *killAfter) Done(grids.Point, bool) {
	if k.n--; k.n == 0 {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
}
func (k *killAfter) Finish() {}

func TestKilledRightAfterPointsFinishKeepsThem(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kill.db")
	cmd, _ := startHelper(t, "die", path, "SWEEP_TEST_N=3")
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper ended with %v, want killed by SIGKILL", err)
	}
	db := openExisting(t, path)
	if done, _, _ := db.Counts(context.Background(), ""); done != 3 {
		t.Fatalf("%d points stored, want the 3 that finished before the kill", done)
	}
}

func openExisting(t *testing.T, path string) *store.DB {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestPointsOfAKilledPeerAreTakenOver(t *testing.T) {
	path := filepath.Join(t.TempDir(), "peer.db")
	db := openExisting(t, path)
	peer, said := startHelper(t, "hold", path, "SWEEP_TEST_N=3")
	if said != "claimed 3" {
		t.Fatalf("peer said %q, want claimed 3", said)
	}
	// Reaped at once: a zombie would still count as alive.
	time.AfterFunc(300*time.Millisecond, func() { peer.Process.Kill(); peer.Wait() })
	plan, _ := sweep.NewPlan(parse(t, smallGrid), sweep.Shard{})
	sum, err := sweep.Run(context.Background(), plan, db, sweep.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Ran != 8 || sum.Undone != 0 || sum.Elsewhere != 0 {
		t.Errorf("ran %d, %d undone, %d done elsewhere; want all 8 run here after the peer died", sum.Ran, sum.Undone, sum.Elsewhere)
	}
	if done, _, _ := db.Counts(context.Background(), ""); done != 8 {
		t.Errorf("%d points done, want 8", done)
	}
}

func TestAPointListedTwiceRunsOnce(t *testing.T) {
	// Both sub-grids hold marking_rate 4 with ccti_timer 300us.
	g := parse(t, `
name     = "twice"
scenario = "testbed-s1"
cc       = "on"
phase    = "4ms"
sample   = "1ms"
ccti_timer = "300us"

[[grid]]
[grid.sweep]
marking_rate = [0, 4]

[[grid]]
[grid.sweep]
marking_rate = [4, 8]
`)
	if n := len(g.Points()); n != 4 {
		t.Fatalf("the grid lists %d points, want 4 (one of them twice)", n)
	}
	db := openDB(t, "twice.db")
	sum := runGrid(t, g, db, sweep.Options{Workers: 2})
	if sum.Points != 3 || sum.Ran != 3 || sum.Elsewhere != 0 || sum.Undone != 0 {
		t.Errorf("summary %+v: want 3 points, 3 ran, none elsewhere or undone", sum)
	}
	for n := 1; n <= 3; n++ {
		var total int
		for i := 1; i <= n; i++ {
			plan, err := sweep.NewPlan(g, sweep.Shard{Index: i, Count: n})
			if err != nil {
				t.Fatal(err)
			}
			total += plan.Len()
		}
		if total != 3 {
			t.Errorf("%d shards hold %d points between them, want 3", n, total)
		}
	}
}

// TestSweepWaitsForAPointHeldAcrossPolls: a point another process holds is
// waited for, poll after poll, until it is done there (docs/sweeps.md:
// "a run waits for the points others hold"). The peer holds point 0 of
// defaultGrid through the sweep of points 1 and 2 and for half a second
// after (five polls of leases of 300 ms), then stores it done: the sweep
// ends without error, having run 1 and 2 and counted 0 done elsewhere.
// (Kills sweep.go's `err != nil` after the poll's takeAll turned into `==`,
// which ends the wait after the first poll.)
func TestSweepWaitsForAPointHeldAcrossPolls(t *testing.T) {
	plan, db, ids := planWithPointZeroHeld(t, "held.db")
	p := &peerHolds{t: t, db: db, plan: plan, ids: ids, hold: 500 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sum, err := sweep.Run(ctx, plan, db, sweep.Options{Workers: 1, Lease: 300 * time.Millisecond, Progress: p, Simulate: fakeVictimRun})
	p.wg.Wait() // the peer has finished (a sweep that stopped waiting has ended before)
	if err != nil || ctx.Err() != nil {
		t.Fatalf("%v (context: %v); want the sweep to end by itself without error", err, ctx.Err())
	}
	if sum.Ran != 2 || sum.Elsewhere != 1 || sum.Undone != 0 {
		t.Errorf("ran %d, %d done elsewhere, %d undone; want 2, 1, 0", sum.Ran, sum.Elsewhere, sum.Undone)
	}
}

// planWithPointZeroHeld returns defaultGrid's plan, a new database file
// name in the test's directory and the points' IDs, point 0 claimed for an
// hour by another process, "peer".
func planWithPointZeroHeld(t *testing.T, name string) (*sweep.Plan, *store.DB, []string) {
	t.Helper()
	plan, err := sweep.NewPlan(parse(t, defaultGrid), sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, name)
	ids := planIDs(plan)
	if got, err := db.Claim(context.Background(), ids[:1], "peer", time.Hour); err != nil || len(got) != 1 {
		t.Fatalf("the peer claimed %v, %v; want point 0", got, err)
	}
	return plan, db, ids
}

// fakeVictimRun is a Simulate that returns at once: a victim at 5 Gbit/s.
func fakeVictimRun(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
	return &model.Result{Scenario: sc.Name, Seed: seed, Config: cfg, Sample: cfg.Phase, End: 2 * cfg.Phase,
		Flows: []model.FlowResult{{Name: "F1", Role: workload.Victim, Gbps: []float64{5, 5}}}}, nil
}

// peerHolds is the Progress of TestSweepWaitsForAPointHeldAcrossPolls: when
// the sweep has done its two points the peer, hold later, stores point 0
// done and lets go.
type peerHolds struct {
	t    *testing.T
	db   *store.DB
	plan *sweep.Plan
	ids  []string
	hold time.Duration
	mu   sync.Mutex
	done int
	wg   sync.WaitGroup
}

func (p *peerHolds) Start(int) {}

func (p *peerHolds) Finish() {}

func (p *peerHolds) Done(grids.Point, bool) {
	p.mu.Lock()
	p.done++
	n := p.done
	p.mu.Unlock()
	if n != 2 {
		return
	}
	p.wg.Go(func() {
		time.Sleep(p.hold)
		bg := context.Background()
		r := store.Result{ID: p.ids[0], GridID: p.plan.GridID, Point: p.plan.Point(0), Status: store.StatusDone,
			ModelVersion: model.Version, Metrics: map[string]float64{"victim_gbps": 5}}
		if err := p.db.SaveResults(bg, []store.Result{r}); err != nil {
			p.t.Error(err)
		}
		if err := p.db.Release(bg, "peer"); err != nil {
			p.t.Error(err)
		}
	})
}

// TestInterruptedSweepCountsUndoneAtOnce: a stopped sweep counts its undone
// points at once, without reading them back (sweep.Run: a point another
// process finished unseen counts as undone; the count is high, never low).
// A peer holds point 0 of defaultGrid; when the sweep has run points 1 and
// 2, it is stopped and the peer then stores point 0 done, before the sweep
// counts. The sweep reports 1 of 3 undone although the database has all
// three done; a rerun runs nothing. (Kills sweep.go's `ctx.Err() != nil`
// before the count turned into `==`, which reads the points back when
// stopped.)
func TestInterruptedSweepCountsUndoneAtOnce(t *testing.T) {
	plan, db, ids := planWithPointZeroHeld(t, "stopped.db")
	bg := context.Background()
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	p := &peerFinishesAfterStop{t: t, db: db, plan: plan, ids: ids, stop: cancel}
	sum, err := sweep.Run(ctx, plan, db, sweep.Options{Workers: 1, Lease: time.Hour, Progress: p, Simulate: fakeVictimRun})
	if !errors.Is(err, sweep.ErrInterrupted) || !errors.Is(err, sweep.ErrIncomplete) {
		t.Fatalf("%v; want the sweep interrupted and incomplete", err)
	}
	if sum.Ran != 2 || sum.Elsewhere != 0 || sum.Undone != 1 {
		t.Errorf("ran %d, %d done elsewhere, %d undone; want 2, 0, 1 (point 0 finished unseen)", sum.Ran, sum.Elsewhere, sum.Undone)
	}
	again, err := sweep.Run(bg, plan, db, sweep.Options{Workers: 1, Simulate: fakeVictimRun})
	if err != nil || again.Ran != 0 || again.Undone != 0 {
		t.Errorf("rerun: ran %d, %d undone, %v; want nothing to run (all three done)", again.Ran, again.Undone, err)
	}
}

// peerFinishesAfterStop is the Progress of TestInterruptedSweepCountsUndoneAtOnce:
// when the sweep has done its two points it stops the sweep, then stores
// point 0 done as the peer that holds it, before the sweep's workers return.
type peerFinishesAfterStop struct {
	t    *testing.T
	db   *store.DB
	plan *sweep.Plan
	ids  []string
	stop context.CancelFunc
	mu   sync.Mutex
	done int
}

func (p *peerFinishesAfterStop) Start(int) {}

func (p *peerFinishesAfterStop) Finish() {}

func (p *peerFinishesAfterStop) Done(grids.Point, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done++; p.done != 2 {
		return
	}
	p.stop()
	r := store.Result{ID: p.ids[0], GridID: p.plan.GridID, Point: p.plan.Point(0), Status: store.StatusDone,
		ModelVersion: model.Version, Metrics: map[string]float64{"victim_gbps": 5}}
	if err := p.db.SaveResults(context.Background(), []store.Result{r}); err != nil {
		p.t.Error(err)
	}
}

// TestEfficiencyIsBusyOverWorkersTime checks Outcome.Efficiency, the
// fraction of the workers' time spent simulating: 3 s of simulations by 2
// workers in 2 s is 0.75; no wall time or no workers is 0, not a division
// by zero.
func TestEfficiencyIsBusyOverWorkersTime(t *testing.T) {
	for _, tt := range []struct {
		s    sweep.Outcome
		want float64
	}{
		{sweep.Outcome{Busy: 3 * time.Second, Wall: 2 * time.Second, Workers: 2}, 0.75},
		{sweep.Outcome{Busy: 4 * time.Second, Wall: 4 * time.Second, Workers: 1}, 1},
		{sweep.Outcome{Busy: 3 * time.Second, Wall: 0, Workers: 2}, 0},
		{sweep.Outcome{Busy: 3 * time.Second, Wall: 2 * time.Second, Workers: 0}, 0},
	} {
		if got := tt.s.Efficiency(); got != tt.want {
			t.Errorf("busy %v, wall %v, %d workers: efficiency %g, want %g", tt.s.Busy, tt.s.Wall, tt.s.Workers, got, tt.want)
		}
	}
}

// TestZeroWorkersMeansEveryCore checks Options.Workers' default: 0 runs as
// many simulations at once as there are cores (runtime.NumCPU), and runs
// every point. A minute's deadline turns a sweep that never starts a
// worker into an error instead of a hung test.
func TestZeroWorkersMeansEveryCore(t *testing.T) {
	g := parse(t, strings.Replace(defaultGrid, "[0, 1, 2]\n\n[[grid]]\n", "[0, 2]\n", 1))
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sum, err := sweep.Run(ctx, plan, openDB(t, "w.db"), sweep.Options{})
	if err != nil || sum.Workers != runtime.NumCPU() || sum.Ran != 2 {
		t.Errorf("Workers 0: %d workers ran %d points, %v; want %d (NumCPU) running both", sum.Workers, sum.Ran, err, runtime.NumCPU())
	}
}

// TestInterruptedSweepDoesNotCountPointsDoneElsewhereAsUndone checks an
// interrupted sweep's Undone when another process finished some of its
// points while it waited for them: Undone is the missing points neither run
// here nor seen done elsewhere, 3 − 2 − 1 = 0, and the error says only
// interrupted, not incomplete.
//
// The other process is played by the test, with no timing in it: before the
// sweep starts, "peer" claims points 0 and 1 (held by a live process, this
// one, for an hour), so the sweep runs point 2 and waits for the others. When
// point 2 is done the peer stores point 0 as done and releases point 1; the
// sweep's next poll counts point 0 done elsewhere, claims point 1 and runs
// it, and the context is cancelled as soon as point 1 is done, before the
// sweep could end on its own.
func TestInterruptedSweepDoesNotCountPointsDoneElsewhereAsUndone(t *testing.T) {
	plan, err := sweep.NewPlan(parse(t, defaultGrid), sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Len() != 3 {
		t.Fatalf("the plan has %d points, want 3", plan.Len())
	}
	db := openDB(t, "elsewhere.db")
	ids := planIDs(plan)
	bg := context.Background()
	if got, err := db.Claim(bg, ids[:2], "peer", time.Hour); err != nil || len(got) != 2 {
		t.Fatalf("the peer claimed %v, %v; want points 0 and 1", got, err)
	}
	ctx, cancel := context.WithTimeout(bg, time.Minute)
	defer cancel()
	p := &peerFinishes{t: t, db: db, plan: plan, ids: ids, cancel: cancel}
	// Leases of 300 ms: the sweep polls the peer's points every 100 ms.
	sum, err := sweep.Run(ctx, plan, db, sweep.Options{Workers: 1, Lease: 300 * time.Millisecond, Progress: p})
	if !errors.Is(err, sweep.ErrInterrupted) || errors.Is(err, sweep.ErrIncomplete) {
		t.Errorf("error %v; want interrupted and nothing incomplete", err)
	}
	if p.order != "2,1" {
		t.Errorf("the sweep ran points %s, want 2,1 (0 was done elsewhere)", p.order)
	}
	if sum.Ran != 2 || sum.Elsewhere != 1 || sum.Undone != 0 {
		t.Errorf("ran %d, %d done elsewhere, %d undone; want 2, 1, 0", sum.Ran, sum.Elsewhere, sum.Undone)
	}
}

// peerFinishes is the Progress of TestInterruptedSweepDoesNotCountPointsDoneElsewhereAsUndone.
type peerFinishes struct {
	t      *testing.T
	db     *store.DB
	plan   *sweep.Plan
	ids    []string
	cancel context.CancelFunc
	order  string
}

func (p *peerFinishes) Start(int) {}

func (p *peerFinishes) Done(pt grids.Point, failed bool) {
	k := -1
	for i := range p.ids {
		if p.ids[i] == grids.PointID(pt, model.Version) {
			k = i
		}
	}
	if p.order != "" {
		p.order += ","
	}
	p.order += string(rune('0' + k))
	switch k {
	case 2: // the peer finishes point 0 and gives point 1 up
		bg := context.Background()
		r := store.Result{ID: p.ids[0], GridID: p.plan.GridID, Point: p.plan.Point(0), Status: store.StatusDone,
			ModelVersion: model.Version}
		if err := p.db.SaveResults(bg, []store.Result{r}); err != nil {
			p.t.Error(err)
		}
		if err := p.db.Release(bg, "peer"); err != nil {
			p.t.Error(err)
		}
	case 1:
		p.cancel()
	}
}

func (p *peerFinishes) Finish() {}
