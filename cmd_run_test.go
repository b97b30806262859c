package main

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/ccsweep/ccsweep/store"
)

const killGrid = `
name     = "kill"
scenario = "testbed-s1"
cc       = "on"
phase    = "6ms"
sample   = "1ms"

[sweep]
ccti_timer   = {from = "50us", to = "600us", step = "50us"}
marking_rate = [0, 1, 4]
`

func writeGrid(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "grid.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// ccsweepProcess starts the test binary as a ccsweep process.
func ccsweepProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "CCSWEEP_AS_MAIN=1")
	return cmd
}

func doneCount(t *testing.T, dbPath string) int {
	t.Helper()
	db, err := store.OpenReadOnly(dbPath)
	if err != nil {
		return 0
	}
	defer db.Close()
	done, _, err := db.Counts(context.Background(), "")
	if err != nil {
		return 0
	}
	return done
}

// checkDatabase asserts every point is stored exactly once and SQLite finds
// the file sound.
func checkDatabase(t *testing.T, dbPath string, want int) {
	t.Helper()
	raw, err := sql.Open("sqlite", "file:"+dbPath+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var ok string
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity_check: %q %v", ok, err)
	}
	var rows, distinct int
	raw.QueryRow("SELECT count(*), count(DISTINCT id) FROM points WHERE status = 'done'").Scan(&rows, &distinct)
	if rows != want || distinct != want {
		t.Fatalf("%d done rows (%d distinct), want %d", rows, distinct, want)
	}
	var series int
	raw.QueryRow("SELECT count(DISTINCT point_id) FROM series").Scan(&series)
	if series != want {
		t.Fatalf("series stored for %d points, want %d", series, want)
	}
}

func TestSweepKilledMidwayFinishesOnRerun(t *testing.T) {
	grid := writeGrid(t, killGrid)
	dbPath := filepath.Join(filepath.Dir(grid), "kill.db")
	cmd := ccsweepProcess(t, grid, "-j", "2", "--quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for doneCount(t, dbPath) < 5 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no progress before the deadline")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	before := doneCount(t, dbPath)
	if before >= 36 {
		t.Skip("the sweep finished before it could be killed")
	}
	out, err := ccsweepProcess(t, grid, "-j", "2", "--quiet").CombinedOutput()
	if err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(\d+) already done, (\d+) ran`).FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("rerun summary: %s", out)
	}
	already, ran := atoi(m[1]), atoi(m[2])
	if already < before || already+ran != 36 {
		t.Fatalf("rerun: %d already done (%d before), %d ran; want them to add up to 36", already, before, ran)
	}
	checkDatabase(t, dbPath, 36)
}

func TestTwoProcessesShareOneDatabase(t *testing.T) {
	grid := writeGrid(t, killGrid)
	dbPath := filepath.Join(filepath.Dir(grid), "shared.db")
	a := ccsweepProcess(t, grid, "--db", dbPath, "-j", "1", "--quiet")
	b := ccsweepProcess(t, grid, "--db", dbPath, "-j", "1", "--quiet")
	var outA, outB strings.Builder
	a.Stdout, b.Stdout = &outA, &outB
	a.Stderr, b.Stderr = &outA, &outB
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	if err := b.Start(); err != nil {
		t.Fatal(err)
	}
	errA, errB := a.Wait(), b.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("a: %v %s\nb: %v %s", errA, outA.String(), errB, outB.String())
	}
	ran := 0
	for _, out := range []string{outA.String(), outB.String()} {
		m := regexp.MustCompile(`(\d+) ran`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("summary: %s", out)
		}
		ran += atoi(m[1])
	}
	if ran != 36 {
		t.Fatalf("the two processes simulated %d points between them, want each of 36 exactly once\n%s\n%s", ran, outA.String(), outB.String())
	}
	checkDatabase(t, dbPath, 36)
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func TestRunBadGridExitsTwoAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("name = \"bad\"\nscenario = \"testbed-s1\"\n[sweep]\nthreshold = [3, 16]\n"), 0o644)
	_, stderr, code := ccsweep(t, bad)
	if code != 2 || !strings.Contains(stderr, "bad.toml:4: sweep.threshold") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = ccsweep(t, "run", filepath.Join(dir, "missing.toml"))
	if code != 2 || !strings.Contains(stderr, "missing.toml") {
		t.Fatalf("missing grid: exit %d, stderr %q", code, stderr)
	}
	corrupt := filepath.Join(dir, "corrupt.db")
	os.WriteFile(corrupt, []byte(strings.Repeat("not a database ", 100)), 0o644)
	good := writeGrid(t, killGrid)
	_, stderr, code = ccsweep(t, good, "--db", corrupt)
	if code != 2 || !strings.Contains(stderr, "corrupt.db") {
		t.Fatalf("corrupt db: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = ccsweep(t, "export", filepath.Join(dir, "none.db"))
	if code != 2 || !strings.Contains(stderr, "no such database") {
		t.Fatalf("export missing: exit %d, stderr %q", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if n := e.Name(); n != "bad.toml" && n != "corrupt.db" {
			t.Errorf("left behind: %s", n)
		}
	}
}

func TestRunThenExportCSV(t *testing.T) {
	grid := writeGrid(t, strings.Replace(killGrid, `{from = "50us", to = "600us", step = "50us"}`, `["100us", "200us"]`, 1))
	dbPath := filepath.Join(filepath.Dir(grid), "kill.db")
	out, stderr, code := ccsweep(t, "run", grid, "-j", "2", "--quiet")
	if code != 0 || !strings.Contains(out, "6 ran (0 failed)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	csv, _, code := ccsweep(t, "export", dbPath)
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if code != 0 || len(lines) != 7 {
		t.Fatalf("export: %d lines\n%s", len(lines), csv)
	}
	want := "cc,ccti_timer,marking_rate,phase,sample,seed,victim_gbps,contributors_gbps,fairness_jain,var,sd_gbps,fecn,becn,mean_ccti"
	if lines[0] != want {
		t.Fatalf("header %q\nwant   %q", lines[0], want)
	}
	js, _, code := ccsweep(t, "export", dbPath, "--format", "json")
	if code != 0 || !strings.Contains(js, `"victim_gbps"`) {
		t.Fatalf("json export: %s", js)
	}
	dry, _, code := ccsweep(t, grid, "--dry-run")
	if code != 0 || !strings.Contains(dry, "6 already done") || !strings.Contains(dry, "0 to run") {
		t.Fatalf("dry run: %s", dry)
	}
}
