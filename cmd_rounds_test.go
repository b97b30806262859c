package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// roundsGrid is a small testbed-s1 grid that refines victim throughput.
const roundsGrid = `
name     = "rounds"
scenario = "testbed-s1"
cc       = "on"
phase    = "3ms"
sample   = "1ms"

[sweep]
ccti_timer   = ["50us", "800us"]
marking_rate = [1, 64]
`

func TestRunRefineAddsPointsAndResumes(t *testing.T) {
	grid := writeGrid(t, roundsGrid)
	db := filepath.Join(filepath.Dir(grid), "r.db")
	out, stderr, code := ccsweep(t, "run", grid, "--db", db, "--refine", "6", "-j", "2", "--quiet", "--no-report")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	if !strings.Contains(out, "rounds: finished; 10 points planned in rounds 0..") || !strings.Contains(out, "6 of them added between the grid's points") {
		t.Errorf("run --refine 6 on 4 points:\n%s", out)
	}
	if n := doneCount(t, db); n != 10 {
		t.Errorf("%d points done, want 10", n)
	}
	// A rerun finds every round done.
	out, _, code = ccsweep(t, "run", grid, "--db", db, "--refine", "6", "--quiet", "--no-report")
	if code != 0 || !strings.Contains(out, "rounds: 10 points (shard all): 10 already done, 0 ran (0 failed)") {
		t.Errorf("rerun: exit %d\n%s", code, out)
	}
	out, _, code = ccsweep(t, "run", grid, "--db", db, "--refine", "6", "--dry-run")
	if code != 0 || !strings.Contains(out, "rounds: finished") {
		t.Errorf("dry run: exit %d\n%s", code, out)
	}
	// Summaries per point export.
	out, _, code = ccsweep(t, "export", db, "--summary")
	if code != 0 || strings.Count(out, "\n") != 11 || !strings.Contains(out, ",seeds,victim_gbps_mean,victim_gbps_sd,victim_gbps_ci95,") {
		t.Errorf("export --summary: exit %d\n%s", code, out)
	}
}

func TestRunRoundsBadInputExitsTwo(t *testing.T) {
	grid := writeGrid(t, roundsGrid)
	dir := filepath.Dir(grid)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", grid, "--refine", "0"}, "--refine: refine 0 points: want at least 1"},
		{[]string{"run", grid, "--refine", "4", "--refine-by", "victim"}, `unknown metric`},
		{[]string{"run", grid, "--refine-by", "var"}, "--refine-by needs --refine N"},
		{[]string{"run", grid, "--rounds-from", filepath.Join(dir, "x.db")}, "has no rounds"},
		{[]string{"run", grid, "--refine", "4", "--shard", "1/2"}, "give --rounds-from MERGED.db"},
		// A merged database that cannot be looked at is not an empty one:
		// the shard would run round 0 again.
		{[]string{"run", grid, "--refine", "4", "--shard", "1/2", "--rounds-from", filepath.Join(grid, "merged.db")}, "not a directory"},
	} {
		t.Run(strings.Join(tc.args[2:], " "), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "bad.db")
			_, stderr, code := ccsweep(t, append(tc.args, "--db", db, "--quiet", "--no-report")...)
			if code != exitUsage || !strings.Contains(stderr, tc.msg) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.msg)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("%s written despite bad input", db)
			}
		})
	}
}

func TestCalibrateCommand(t *testing.T) {
	dir := t.TempDir()
	measured, _, code := ccsweep(t, "sim", "--scenario", "testbed-s2", "--cc", "off", "--set", "host_io_gbps=11.5", "--phase", "3ms", "--sample", "1ms")
	if code != 0 {
		t.Fatal("sim failed")
	}
	if err := os.WriteFile(filepath.Join(dir, "fabric.csv"), []byte(measured), 0o644); err != nil {
		t.Fatal(err)
	}
	grid := filepath.Join(dir, "fit.toml")
	text := "name = \"fit\"\nscenario = \"testbed-s2\"\ncc = \"off\"\nphase = \"3ms\"\nsample = \"1ms\"\n" +
		"[sweep]\nhost_io_gbps = { from = 8, to = 16, count = 5 }\n[calibrate]\nmeasured = \"fabric.csv\"\nrounds = 6\n"
	if err := os.WriteFile(grid, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := ccsweep(t, "calibrate", grid, "-j", "2", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, stderr)
	}
	if !strings.Contains(out, "best fit: host_io_gbps=11.5\n") || !strings.Contains(out, "phase  flow  measured Gbit/s") {
		t.Errorf("calibrate output:\n%s", out)
	}
	base, err := os.ReadFile(filepath.Join(dir, "fit-fit.toml"))
	if err != nil || !strings.Contains(string(base), "host_io_gbps           = 11.5\n") {
		t.Errorf("grid base: %v\n%s", err, base)
	}
	again, _, code := ccsweep(t, "calibrate", grid, "--no-run")
	if code != 0 || !strings.Contains(again, "best fit: host_io_gbps=11.5\n") {
		t.Errorf("--no-run: exit %d\n%s", code, again)
	}
	checkCalibrateTable(t, again)
	if !strings.Contains(out, "grid base with the fit: "+filepath.Join(dir, "fit-fit.toml")+"\n") {
		t.Errorf("calibrate does not say where the fit went:\n%s", out)
	}
	if toStdout, _, code := ccsweep(t, "calibrate", grid, "--no-run", "-o", "-"); code != 0 ||
		!strings.Contains(toStdout, "host_io_gbps           = 11.5\n") || strings.Contains(toStdout, "grid base with the fit") {
		t.Errorf("-o -: exit %d\n%s", code, toStdout)
	}
	// A bad measurement names its file, line and column; nothing is written.
	if err := os.WriteFile(filepath.Join(dir, "fabric.csv"), []byte("time_s,flow,throughput_gbps\n0.001,F1,fast\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "fit-fit.toml"))
	out, stderr, code = ccsweep(t, "calibrate", grid, "--db", filepath.Join(dir, "new.db"))
	want := filepath.Join(dir, "fabric.csv") + `:2: throughput_gbps: "fast": want a throughput of 0 or more Gbit/s`
	if code != exitUsage || !strings.Contains(stderr, want) || out != "" {
		t.Errorf("bad measurement: exit %d, stdout %q, stderr %q; want 2 and %q", code, out, stderr, want)
	}
	for _, f := range []string{"new.db", "fit-fit.toml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s written despite bad input", f)
		}
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
