package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
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
	want := "grid,grid_id,scenario,cc,ccti_timer,marking_rate,phase,sample,seed," + strings.Join(model.MetricNames, ",")
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

// finishedResults runs a small grid and returns the directory holding
// its database, tiny.db (3 points), with nothing else in it.
func finishedResults(t *testing.T) string {
	t.Helper()
	grid := writeGrid(t, strings.Replace(killGrid, `{from = "50us", to = "600us", step = "50us"}`, `["100us"]`, 1))
	dir := t.TempDir()
	db := filepath.Join(dir, "tiny.db")
	if out, stderr, code := ccsweep(t, grid, "--db", db, "-j", "2", "--quiet", "--no-report"); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
	}
	os.Remove(grid)
	return dir
}

// roView returns a read-only bind mount of dir; without the privilege to
// mount it skips, unless CI=true.
func roView(t *testing.T, dir string) string {
	t.Helper()
	mnt := t.TempDir()
	for _, args := range [][]string{{"--bind", dir, mnt}, {"-o", "remount,bind,ro", mnt}} {
		if out, err := exec.Command("mount", args...).CombinedOutput(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("mount: %v %s", err, out)
			}
			t.Skipf("cannot mount here: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	}
	return mnt
}

// snapshot returns the names and contents of the files in dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := make(map[string]string)
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		files[e.Name()] = string(b)
	}
	return files
}

func TestDatabasesThatCannotBeWritten(t *testing.T) {
	grid := writeGrid(t, killGrid)
	for _, tc := range []struct {
		name string
		// setup returns the command line and the directory that must be
		// left as it was.
		setup  func(t *testing.T) (args []string, dir string)
		code   int
		stderr string // the one line of stderr, in part
		stdout string // in part
	}{
		{"export from a read-only mount", func(t *testing.T) ([]string, string) {
			dir := finishedResults(t)
			return []string{"export", filepath.Join(roView(t, dir), "tiny.db")}, dir
		}, 0, "", "victim_gbps"},
		{"export of a directory", func(t *testing.T) ([]string, string) {
			dir := t.TempDir()
			return []string{"export", dir}, dir
		}, 2, "it is a directory", ""},
		{"report from a read-only mount to stdout", func(t *testing.T) ([]string, string) {
			dir := finishedResults(t)
			return []string{"report", filepath.Join(roView(t, dir), "tiny.db"), "-o", "-"}, dir
		}, 0, "", "<html"},
		{"status from a read-only mount", func(t *testing.T) ([]string, string) {
			dir := finishedResults(t)
			return []string{"status", filepath.Join(roView(t, dir), "tiny.db")}, dir
		}, 0, "", "3 points done"},
		{"dry run from a read-only mount", func(t *testing.T) ([]string, string) {
			dir := finishedResults(t)
			return []string{"run", grid, "--dry-run", "--db", filepath.Join(roView(t, dir), "tiny.db")}, dir
		}, 0, "", "3 already done"},
		{"dry run on an empty file", func(t *testing.T) ([]string, string) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "empty.db"), nil, 0o644)
			return []string{"run", grid, "--dry-run", "--db", filepath.Join(dir, "empty.db")}, dir
		}, 0, "", "0 already done"},
		{"merge of an input on a read-only mount", func(t *testing.T) ([]string, string) {
			dir := finishedResults(t)
			return []string{"merge", filepath.Join(t.TempDir(), "out.db"), filepath.Join(roView(t, dir), "tiny.db")}, dir
		}, 0, "", "3 points done"},
		{"run into a database on a read-only mount", func(t *testing.T) ([]string, string) {
			dir := finishedResults(t)
			return []string{"run", grid, "--quiet", "--db", filepath.Join(roView(t, dir), "tiny.db")}, dir
		}, 2, "is read-only", ""},
		{"run into a directory", func(t *testing.T) ([]string, string) {
			dir := t.TempDir()
			return []string{"run", grid, "--quiet", "--db", dir}, dir
		}, 2, "it is a directory", ""},
		{"run into a missing directory", func(t *testing.T) ([]string, string) {
			dir := t.TempDir()
			return []string{"run", grid, "--quiet", "--db", filepath.Join(dir, "none", "x.db")}, dir
		}, 2, "does not exist", ""},
		{"run on a full disk", func(t *testing.T) ([]string, string) {
			dir := t.TempDir()
			if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", dir).CombinedOutput(); err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatalf("mount: %v %s", err, out)
				}
				t.Skipf("cannot mount here: %v %s", err, out)
			}
			t.Cleanup(func() { exec.Command("umount", dir).Run() })
			f, _ := os.Create(filepath.Join(dir, "filler"))
			for _, err := f.Write(make([]byte, 4096)); err == nil; _, err = f.Write(make([]byte, 4096)) {
			}
			f.Close()
			return []string{"run", grid, "--quiet", "--db", filepath.Join(dir, "x.db")}, dir
		}, 1, "no space left on device: ", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args, dir := tc.setup(t)
			before := snapshot(t, dir)
			out, stderr, code := ccsweep(t, args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) || strings.Count(stderr, "\n") > 1 ||
				!strings.Contains(out, tc.stdout) {
				t.Errorf("exit %d, want %d\nstderr %q, want one line with %q\nstdout %.200q, want %q", code, tc.code, stderr, tc.stderr, out, tc.stdout)
			}
			for _, bad := range []string{"(14)", "(1544)", "(4874)", "(13)"} {
				if strings.Contains(stderr, bad) {
					t.Errorf("stderr carries an SQLite code: %q", stderr)
				}
			}
			if fields := strings.Fields(stderr); len(fields) > 2 && strings.Count(stderr, fields[1]) > 1 && strings.HasPrefix(fields[1], "/") {
				t.Errorf("stderr names the file twice: %q", stderr)
			}
			if after := snapshot(t, dir); !maps.Equal(before, after) {
				t.Errorf("%s changed: %v before, %v after", dir, slices.Sorted(maps.Keys(before)), slices.Sorted(maps.Keys(after)))
			}
		})
	}
}

func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"usage", usagef("bad"), 2},
		{"store sentinel through usagef", usagef("x: %w", store.ErrSchemaTooNew), 2},
		{"not a database", fmt.Errorf("open x: %w", store.ErrNotDatabase), 2},
		{"no such database", fmt.Errorf("x: %w", store.ErrNoDatabase), 2},
		{"unwritable", fmt.Errorf("open x: %w", store.ErrUnwritable), 2},
		{"mismatch", fmt.Errorf("merge: %w", store.ErrMismatch), 2},
		{"points undone", fmt.Errorf("%w (3 of 8)", sweep.ErrIncomplete), 3},
		{"disk full", fmt.Errorf("save: %w", store.ErrNoSpace), 1},
		{"a failed run", errors.New("2 of 8 points failed"), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitStatus(tc.err); got != tc.want {
				t.Errorf("exitStatus(%v) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}

func TestRunReportWithAssetsFromTheEnvironment(t *testing.T) {
	assets := t.TempDir()
	os.WriteFile(filepath.Join(assets, "echarts.min.js"), []byte(`/*inlined*/ version="5.6.0"`), 0o644)
	os.WriteFile(filepath.Join(assets, "echarts-gl.min.js"), []byte(`/*gl*/ "echarts-gl"`), 0o644)
	grid := writeGrid(t, strings.Replace(killGrid, `{from = "50us", to = "600us", step = "50us"}`, `["100us"]`, 1))
	for _, tc := range []struct {
		name string
		args []string
		env  bool
	}{
		{"run --assets", []string{grid, "--quiet", "--assets", assets}, false},
		{"run with CCSWEEP_ASSETS", []string{grid, "--quiet"}, true},
		{"report with CCSWEEP_ASSETS", []string{"report", filepath.Join(filepath.Dir(grid), "kill.db")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env {
				t.Setenv("CCSWEEP_ASSETS", assets)
			}
			html := filepath.Join(filepath.Dir(grid), "kill.html")
			os.Remove(html)
			if out, stderr, code := ccsweep(t, tc.args...); code != 0 {
				t.Fatalf("exit %d\n%s%s", code, out, stderr)
			}
			b, err := os.ReadFile(html)
			if err != nil || !strings.Contains(string(b), "/*inlined*/") || strings.Contains(string(b), `src="https://cdn.jsdelivr.net`) {
				t.Errorf("the report does not inline the assets (%v)", err)
			}
		})
	}
}

func TestExportKeepsGridsApartAndFillsDefaults(t *testing.T) {
	small := strings.Replace(killGrid, `{from = "50us", to = "600us", step = "50us"}`, `["1ms", "200us"]`, 1)
	small = strings.Replace(small, "marking_rate = [0, 1, 4]", "marking_rate = [0]", 1)
	a := writeGrid(t, small)
	b := writeGrid(t, strings.Replace(small, `name     = "kill"`, "name = \"eight\"\nthreshold = 8", 1))
	db := filepath.Join(t.TempDir(), "both.db")
	for _, grid := range []string{a, b} {
		if out, stderr, code := ccsweep(t, grid, "--db", db, "--quiet", "--no-report"); code != 0 {
			t.Fatalf("run %s: exit %d\n%s%s", grid, code, out, stderr)
		}
	}
	csv, stderr, code := ccsweep(t, "export", db)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(csv), "\n")[1:] {
		f := strings.Split(line, ",")
		// grid, scenario, ccti_timer, threshold
		rows = append(rows, strings.Join([]string{f[0], f[2], f[4], f[8]}, " "))
	}
	slices.Sort(rows)
	want := []string{
		"eight testbed-s1 1ms 8", "eight testbed-s1 200us 8",
		"kill testbed-s1 1ms 15", "kill testbed-s1 200us 15",
	}
	if !slices.Equal(rows, want) {
		t.Errorf("export rows (grid scenario ccti_timer threshold):\n%v\nwant\n%v\n%s", rows, want, csv)
	}
	// Within a grid, 200us comes before 1ms.
	if i, j := strings.Index(csv, "kill,"), strings.Index(csv, ",1ms,"); i < 0 || !strings.Contains(csv[i:], ",200us,") ||
		strings.Index(csv[i:], ",200us,") > strings.Index(csv[i:], ",1ms,") || j < 0 {
		t.Errorf("durations out of order:\n%s", csv)
	}
}

// TestRunRefusesPointsOverMaxEvents: a point whose estimated work exceeds
// --max-events is recorded as failed with the reason instead of running for
// hours, the others run, and a rerun with the limit lifted runs it.
func TestRunRefusesPointsOverMaxEvents(t *testing.T) {
	grid := writeGrid(t, `name = "work"
scenario = "testbed-s2"
phase = "1ms"
[sweep]
message_size = [65536, 64]
`)
	db := filepath.Join(t.TempDir(), "w.db")
	_, stderr, code := ccsweep(t, "run", grid, "--db", db, "-j", "1", "--no-report", "-q", "--max-events", "1e6")
	if code != 1 || !strings.Contains(stderr, "1 of 2 points failed") {
		t.Fatalf("exit %d, stderr %q; want exit 1 with one failed point", code, stderr)
	}
	sdb, err := store.OpenReadOnly(db)
	if err != nil {
		t.Fatal(err)
	}
	failed, err := sdb.Results(context.Background(), store.Filter{Status: store.StatusFailed})
	sdb.Close()
	if err != nil || len(failed) != 1 || !strings.Contains(failed[0].Err, "over the limit of 1e+06") {
		t.Fatalf("failed results %+v (%v): want one whose error gives the limit", failed, err)
	}
	_, stderr, code = ccsweep(t, "run", grid, "--db", db, "-j", "1", "--no-report", "-q", "--max-events", "0")
	if code != 0 || doneCount(t, db) != 2 {
		t.Fatalf("rerun without a limit: exit %d, stderr %q, %d done; want 0 and both points done", code, stderr, doneCount(t, db))
	}
}

// TestScenarioFileCommands: sim and run take a scenario file; a bad one is
// named with its line, exit status 2, and nothing is written; a good one
// runs a grid that sweeps its fields, and the export has their columns.
func TestScenarioFileCommands(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "ft.toml")
	os.WriteFile(scen, []byte(`[topology]
kind = "fattree"
k = 2
levels = 2
[[traffic]]
name = "bg"
pattern = "uniform"
arrival = "poisson"
load = 0.3
message_size = 2048
`), 0o644)
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[topology]\nkind = \"fattree\"\nk = 2\n[[traffic]]\npattern = \"spiral\"\n"), 0o644)
	_, stderr, code := ccsweep(t, "sim", "--scenario", bad)
	if code != 2 || !strings.Contains(stderr, "bad.toml:5: traffic[0].pattern") {
		t.Fatalf("sim bad scenario: exit %d, stderr %q", code, stderr)
	}
	grid := filepath.Join(dir, "g.toml")
	os.WriteFile(grid, []byte("name = \"g\"\nscenario = \"bad.toml\"\nphase = \"1ms\"\n"), 0o644)
	_, stderr, code = ccsweep(t, grid)
	if code != 2 || !strings.Contains(stderr, "bad.toml:5: traffic[0].pattern") {
		t.Fatalf("run with a bad scenario: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "g.db")); err == nil {
		t.Fatal("a database was written for a bad scenario")
	}
	out, stderr, code := ccsweep(t, "sim", "--scenario", scen, "--phase", "2ms", "--set", "bg.load=0.2", "--format", "json")
	if code != 0 || !strings.Contains(out, `"accepted_load"`) {
		t.Fatalf("sim: exit %d, %s", code, stderr)
	}
	os.WriteFile(grid, []byte("name = \"g\"\nscenario = \"ft.toml\"\nphase = \"2ms\"\n[sweep]\nload = [0.1, 0.4]\n"), 0o644)
	if _, stderr, code := ccsweep(t, grid, "-j", "2"); code != 0 {
		t.Fatalf("run: exit %d, %s", code, stderr)
	}
	csv, _, code := ccsweep(t, "export", filepath.Join(dir, "g.db"))
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if code != 0 || len(lines) != 3 || !strings.Contains(lines[0], ",load,") || !strings.Contains(lines[0], "latency_p99_us") {
		t.Fatalf("export:\n%s", csv)
	}
}

// TestSchemesGridReportsSideBySide: a grid sweeping cc over schemes runs,
// and its report compares them side by side.
func TestSchemesGridReportsSideBySide(t *testing.T) {
	grid := writeGrid(t, `name = "schemes"
scenario = "testbed-s1"
phase = "2ms"
[sweep]
cc = ["off", "ib", "santos", "nicrate"]
switch_buffer_credits = [99, 1024]
`)
	dir := filepath.Dir(grid)
	out, stderr, code := ccsweep(t, "run", grid, "-j", "2", "--quiet", "--db", filepath.Join(dir, "s.db"), "--report", filepath.Join(dir, "s.html"))
	if code != 0 || !strings.Contains(out, "8 ran (0 failed)") {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	html, err := os.ReadFile(filepath.Join(dir, "s.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Schemes side by side", "<td>ib</td>", "<td>santos</td>", "<td>nicrate</td>"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report lacks %q", want)
		}
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
