package sweep_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// appsScenario has two closed-loop apps beside a greedy incast on a
// 2-ary fat tree: a 3-rank all-reduce (4 iterations, whose times are
// stored) and a random ring, whose rings the seed draws, so that seeds
// give different metrics.
const appsScenario = `phases = 1
[topology]
kind = "fattree"
k = 2

[[app]]
name = "ar"
program = "allreduce"
ranks = 3
size = 65536
iterations = 4
compute = "5us"

[[app]]
name = "rr"
program = "ring"
order = "random"
patterns = 2
hosts = ["H1", "H2", "H3", "H4"]
size = 4096
iterations = 2

[[traffic]]
name = "storage"
pattern = "incast"
hot = ["H3"]
sources = ["H4"]
`

// appsGrid sweeps appsScenario: 8 points of about 0.1 s each.
const appsGrid = `name = "apps"
scenario = "s.toml"
phase = "1ms"
sample = "100us"
cc = "on"
seeds = 2
[base]
marking_mode = "random"
[sweep]
"ar.size" = [16384, 65536]
ccti_timer = ["50us", "300us"]
`

// writeAppsGrid writes appsScenario and appsGrid into dir and returns the
// grid's path.
func writeAppsGrid(t *testing.T, dir string) string {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "s.toml"), []byte(appsScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "grid.toml")
	if err := os.WriteFile(path, []byte(appsGrid), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func parseFile(t *testing.T, path string) *grids.Grid {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	g, err := grids.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// exportApps returns db's export and its iterations export.
func exportApps(t *testing.T, db *store.DB) (points, iterations string) {
	t.Helper()
	var b bytes.Buffer
	if err := db.ExportIterationsCSV(context.Background(), &b, store.ExportOptions{Effective: sweep.EffectiveParams}); err != nil {
		t.Fatal(err)
	}
	return export(t, db), b.String()
}

// TestAppsSameWithAnyWorkerCount: a grid with apps gives bit-identical app
// metrics and iteration times with -j 1 and -j 4; each point stores its
// all-reduce's 4 iteration times, whose mean is the stored
// ar_iteration_mean_us, and the random ring's seeds differ.
func TestAppsSameWithAnyWorkerCount(t *testing.T) {
	g := parseFile(t, writeAppsGrid(t, t.TempDir()))
	one, four := openDB(t, "one.db"), openDB(t, "four.db")
	if s := runGrid(t, g, one, sweep.Options{Workers: 1}); s.Ran != 8 || s.Failed != 0 {
		t.Fatalf("-j 1 ran %d points (%d failed), want 8", s.Ran, s.Failed)
	}
	if s := runGrid(t, g, four, sweep.Options{Workers: 4}); s.Ran != 8 || s.Failed != 0 {
		t.Fatalf("-j 4 ran %d points (%d failed), want 8", s.Ran, s.Failed)
	}
	p1, i1 := exportApps(t, one)
	p4, i4 := exportApps(t, four)
	if p1 != p4 || i1 != i4 {
		t.Fatalf("-j 1 and -j 4 differ:\n%s\n%s\n%s\n%s", p1, p4, i1, i4)
	}
	if !strings.Contains(strings.SplitN(p1, "\n", 2)[0], ",ar_iteration_mean_us,") {
		t.Fatalf("export has no app metrics:\n%s", p1)
	}
	checkIterations(t, one, 8)
}

// checkIterations checks that every done point of db has its all-reduce's
// 4 iteration times, whose mean is its ar_iteration_mean_us, and that the
// two seeds of a parameter combination differ in rr_latency_us.
func checkIterations(t *testing.T, db *store.DB, points int) {
	t.Helper()
	ctx := context.Background()
	rs, err := db.Results(ctx, store.Filter{Status: store.StatusDone})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != points {
		t.Fatalf("%d done points, want %d", len(rs), points)
	}
	for _, r := range rs {
		its, err := db.Iterations(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(its) != 1 || its[0].App != "ar" || len(its[0].Us) != 4 {
			t.Fatalf("point %s: iterations %v, want ar's 4", r.ID, its)
		}
		sum := 0.0
		for _, v := range its[0].Us {
			sum += v
		}
		if want := r.Metrics["ar_iteration_mean_us"]; math.Abs(sum/4-want) > 1e-9*want {
			t.Errorf("point %s: iterations %v average %g, ar_iteration_mean_us is %g", r.ID, its[0].Us, sum/4, want)
		}
	}
	for i := 0; i+1 < len(rs); i += 2 {
		if rs[i].Point.Seed == rs[i+1].Point.Seed || rs[i].Metrics["rr_latency_us"] == rs[i+1].Metrics["rr_latency_us"] {
			t.Errorf("points %s and %s (seeds %d, %d): rr_latency_us %g both: the seed does not reach the random ring",
				rs[i].ID, rs[i+1].ID, rs[i].Point.Seed, rs[i+1].Point.Seed, rs[i].Metrics["rr_latency_us"])
		}
	}
}

// TestAppsSweepKilledResumes: a sweep of a grid with apps killed with
// SIGKILL after 3 points resumes, runs only the 5 others, and ends with
// the metrics and iteration times of an uninterrupted run.
func TestAppsSweepKilledResumes(t *testing.T) {
	dir := t.TempDir()
	gridPath := writeAppsGrid(t, dir)
	path := filepath.Join(dir, "kill.db")
	cmd, _ := startHelper(t, "dieapps", path, "SWEEP_TEST_N=3", "SWEEP_TEST_GRID="+gridPath)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("helper ended with %v, want killed by SIGKILL", err)
	}
	db := openExisting(t, path)
	if done, _, _ := db.Counts(context.Background(), ""); done != 3 {
		t.Fatalf("%d points stored before the kill, want 3", done)
	}
	g := parseFile(t, gridPath)
	if s := runGrid(t, g, db, sweep.Options{Workers: 2}); s.Ran != 5 || s.AlreadyDone != 3 || s.Undone != 0 {
		t.Fatalf("resumed sweep ran %d with %d already done, %d undone; want 5, 3, 0", s.Ran, s.AlreadyDone, s.Undone)
	}
	whole := openDB(t, "whole.db")
	runGrid(t, g, whole, sweep.Options{Workers: 1})
	pk, ik := exportApps(t, db)
	pw, iw := exportApps(t, whole)
	if pk != pw || ik != iw {
		t.Fatalf("killed and resumed differs from one run:\n%s\n%s\n%s\n%s", pk, pw, ik, iw)
	}
	checkIterations(t, db, 8)
}

// helperDieApps is TestHelperProcess's "dieapps": it runs the grid at
// SWEEP_TEST_GRID with one worker and kills itself with SIGKILL when n
// points have finished.
func helperDieApps(t *testing.T, db *store.DB, n int) {
	plan, err := sweep.NewPlan(parseFile(t, os.Getenv("SWEEP_TEST_GRID")), sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("running " + strconv.Itoa(plan.Len()) + "\n")
	sweep.Run(context.Background(), plan, db, sweep.Options{Workers: 1, Progress: &killAfter{n: n}})
	t.Fatal("the sweep ended before it was killed")
}
