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
	"slices"
	"strconv"
	"strings"
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
