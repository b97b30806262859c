package main

// Tests written for the survivors of session 15's mutation sample of the
// command line (50 mutants, seed 158; docs/testing.md).

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
)

// A cgroup limit is read from the first file that sets one; "max" and
// v1's "no limit" (2^63 - 4096) set none, and neither does 2^60.
func TestCgroupLimitOf(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	v2max, v1none := file("v2max", "max\n"), file("v1none", "9223372036854771712\n")
	edge, set := file("edge", strconv.FormatInt(1<<60, 10)+"\n"), file("set", "8589934592\n")
	for _, tt := range []struct {
		files []string
		want  int64
	}{
		{[]string{v2max, set}, 8589934592},
		{[]string{filepath.Join(dir, "absent"), set}, 8589934592},
		{[]string{v2max, v1none}, 0},
		{[]string{edge}, 0},
		{[]string{file("zero", "0\n"), set}, 8589934592},
	} {
		if got := cgroupLimitOf(tt.files...); got != tt.want {
			t.Errorf("cgroupLimitOf(%v) = %d, want %d", tt.files, got, tt.want)
		}
	}
}

// Without a terminal, progress is a line every ten seconds and one at the
// end, with the time left at the rate so far.
func TestProgressLines(t *testing.T) {
	var w bytes.Buffer
	p := newProgress(&w)
	p.Start(3)
	p.Done(grids.Point{}, false)
	if w.Len() != 0 {
		t.Fatalf("a line before ten seconds: %q", w.String())
	}
	// Ten seconds pass with one of three points done: 0.1 points/s, so the
	// other two take 20 s.
	p.start, p.last = p.start.Add(-10*time.Second), p.last.Add(-10*time.Second)
	p.Done(grids.Point{}, true)
	if !strings.HasPrefix(w.String(), "2/3 points (67%), 1 failed, 0.20 points/s, elapsed 10s, ETA 5s\n") {
		t.Fatalf("line %q", w.String())
	}
	w.Reset()
	p.Done(grids.Point{}, false)
	if !strings.HasPrefix(w.String(), "3/3 points (100%), 1 failed,") || !strings.HasSuffix(w.String(), "ETA 0s\n") {
		t.Fatalf("last line %q", w.String())
	}
}

// The scenario list shows a scenario's first eight flows and counts the rest.
func TestScenariosListElidesManyFlows(t *testing.T) {
	out, _, code := ccsweep(t, "scenarios")
	if code != 0 || !strings.Contains(out, "    ... and 504 more flows\n") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if strings.Contains(out, " C1.9 ") {
		t.Error("listed a ninth contributor")
	}
}

// A flag that takes a value, given last without one, is a usage error.
func TestFlagWithoutItsValueLast(t *testing.T) {
	_, stderr, code := ccsweep(t, "run", filepath.Join("examples", "quick.toml"), "--dry-run", "-j")
	if code != exitUsage || !strings.Contains(stderr, "-j") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// A grid that runs in rounds may run as the one shard of one.
func TestRoundsInOneShard(t *testing.T) {
	grid := writeGrid(t, roundsGrid)
	db := filepath.Join(filepath.Dir(grid), "r.db")
	out, stderr, code := ccsweep(t, "run", grid, "--db", db, "--refine", "2", "--shard", "1/1", "-j", "2", "--quiet", "--no-report")
	if code != 0 || doneCount(t, db) != 6 {
		t.Fatalf("exit %d, %d points done: %s%s", code, doneCount(t, db), out, stderr)
	}
}

// calibTable matches a row of calibrate's table: phase, flow, measured,
// model, difference.
var calibTable = regexp.MustCompile(`(?m)^(\d+)\s+(\S+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+([+-][\d.]+)\s`)

// checkCalibrateTable checks that every row's difference is the model's
// throughput less the measured one.
func checkCalibrateTable(t *testing.T, out string) {
	t.Helper()
	rows := calibTable.FindAllStringSubmatch(out, -1)
	if len(rows) == 0 {
		t.Fatalf("no table rows:\n%s", out)
	}
	for _, r := range rows {
		measured, _ := strconv.ParseFloat(r[3], 64)
		model, _ := strconv.ParseFloat(r[4], 64)
		diff, _ := strconv.ParseFloat(r[5], 64)
		if d := model - measured - diff; d > 0.0015 || d < -0.0015 {
			t.Errorf("row %q: difference %g, want %g", r[0], diff, model-measured)
		}
	}
}

// The survivors of a second sample (seed 165).

// A run's progress on a terminal says nothing until the simulation has
// moved: at simulated time 0 there is no rate to tell.
func TestSimProgressWaitsForSimulatedTime(t *testing.T) {
	var w bytes.Buffer
	p := newSimProgress(&w)
	p.start = p.start.Add(-3 * time.Second)
	p.Update(0, engine.Second)
	if w.Len() != 0 {
		t.Fatalf("at time 0: %q", w.String())
	}
	p.Update(engine.Second/4, engine.Second)
	if !strings.Contains(w.String(), "(25%)") || !strings.Contains(w.String(), "ETA 9s") {
		t.Fatalf("a quarter done after 3 s: %q", w.String())
	}
}

// smallRun runs roundsGrid (4 points of 15 ms) into a new database and
// returns its path and the run's standard output.
func smallRun(t *testing.T) (string, string) {
	t.Helper()
	grid := writeGrid(t, roundsGrid)
	db := filepath.Join(filepath.Dir(grid), "r.db")
	out, stderr, code := ccsweep(t, "run", grid, "--db", db, "-j", "2", "--quiet", "--no-report")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	return db, out
}

// A run's summary counts undone points only when there are some; report
// and best take a ranking query, and refuse a tolerance outside (0, 1).
func TestRunSummaryReportAndBestQuery(t *testing.T) {
	db, out := smallRun(t)
	if !strings.Contains(out, "rounds: 4 points (shard all): 0 already done, 4 ran (0 failed), 0 done by another process; wall") {
		t.Errorf("summary %q", out)
	}
	html := filepath.Join(filepath.Dir(db), "r.html")
	if _, stderr, code := ccsweep(t, "report", db, "-o", html, "--maximize", "victim_gbps"); code != 0 {
		t.Fatalf("report --maximize: exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(html); err != nil || !strings.Contains(string(b), "Recommended: ") {
		t.Fatalf("report --maximize wrote no recommendation: %v", err)
	}
	for _, cmd := range []string{"report", "best"} {
		for _, tol := range []string{"1", "0"} {
			args := []string{cmd, db, "--maximize", "victim_gbps", "--tolerance", tol}
			if cmd == "report" {
				args = append(args, "-o", filepath.Join(filepath.Dir(db), "bad.html"))
			}
			if _, stderr, code := ccsweep(t, args...); code != exitUsage || !strings.Contains(stderr, "--tolerance "+tol+": want a fraction between 0 and 1") {
				t.Errorf("%s --tolerance %s: exit %d, %q", cmd, tol, code, stderr)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(db), "bad.html")); err == nil {
		t.Error("report wrote a page despite the bad tolerance")
	}
}

// The dry run's estimate of the wall time is the cost shared by the workers.
func TestDryRunEstimateSharesTheCost(t *testing.T) {
	out, stderr, code := ccsweep(t, "run", filepath.Join("examples", "quick.toml"), "--dry-run", "-j", "2", "--db", filepath.Join(t.TempDir(), "q.db"))
	m := regexp.MustCompile(`estimated cost: (\d+) core-seconds, about (\S+) on 2 workers`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	cost, _ := strconv.ParseFloat(m[1], 64)
	wall, err := time.ParseDuration(m[2])
	if err != nil || cost < 4 || math.Abs(wall.Seconds()-cost/2) > 1 {
		t.Fatalf("cost %g core-s, wall %s (%v): want about %g s", cost, m[2], err, cost/2)
	}
}

// The survivors of a third sample (seed 167).

// An output that would overwrite the grid file is refused naming it as the
// grid file.
func TestRunRefusesToWriteOverTheGridFile(t *testing.T) {
	grid := writeGrid(t, roundsGrid)
	_, stderr, code := ccsweep(t, "run", grid, "--report", grid, "--quiet")
	if code != exitUsage || !strings.Contains(stderr, "-o "+grid+" is the grid file "+grid+": writing it would destroy it") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if b, err := os.ReadFile(grid); err != nil || string(b) != roundsGrid {
		t.Fatalf("grid file changed: %v", err)
	}
}
