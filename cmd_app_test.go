package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A flag that takes a value, given last without one, is a usage error.
func TestFlagWithoutItsValueLast(t *testing.T) {
	_, stderr, code := ccsweep(t, "run", filepath.Join("examples", "quick.toml"), "--dry-run", "-j")
	if code != exitUsage || !strings.Contains(stderr, "-j") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
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
