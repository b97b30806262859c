package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDatabaseFlagIsTheArgument checks that every command that takes a
// database as its argument takes it as --db FILE (or --db=FILE) too, with
// the same output, and that naming it both ways is two databases.
func TestDatabaseFlagIsTheArgument(t *testing.T) {
	db := handMadeDB(t)
	dir := t.TempDir()
	cases := []struct {
		name         string
		positional   []string
		flag         []string
		wantCode     int
		wantInStdout string
	}{
		{"export", []string{"export", db}, []string{"export", "--db", db}, 0, "victim_gbps"},
		{"export --db=", []string{"export", db, "--summary"}, []string{"export", "--summary", "--db=" + db}, 0, "victim_gbps_mean"},
		{"best", []string{"best", db, "--maximize", "victim_gbps"}, []string{"best", "--maximize", "victim_gbps", "--db", db}, 0, "ccti_timer"},
		{"status", []string{"status", db}, []string{"status", "--db", db}, 0, "30 points done"},
		{"report", []string{"report", db, "-o", "-"}, []string{"report", "-o", "-", "--db", db}, 0, "<html"},
		{"serve: not a database", []string{"serve", filepath.Join(dir, "none.db")}, []string{"serve", "--db", filepath.Join(dir, "none.db")}, exitUsage, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o1, e1, c1 := ccsweep(t, tc.positional...)
			o2, e2, c2 := ccsweep(t, tc.flag...)
			// A report says when it was made, to the second.
			stamp := regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Z]+`)
			o1, o2 = stamp.ReplaceAllString(o1, "TIME"), stamp.ReplaceAllString(o2, "TIME")
			if c1 != tc.wantCode || c2 != tc.wantCode {
				t.Fatalf("exit %d as the argument, %d with --db; want %d\n%s\n%s", c1, c2, tc.wantCode, e1, e2)
			}
			if o1 != o2 || e1 != e2 {
				t.Errorf("--db differs from the argument:\nargument: %.300s%.300s\n--db:     %.300s%.300s", o1, e1, o2, e2)
			}
			if !strings.Contains(o1, tc.wantInStdout) {
				t.Errorf("stdout lacks %q:\n%.500s", tc.wantInStdout, o1)
			}
		})
	}

	t.Run("merge: --db is the output", func(t *testing.T) {
		out := filepath.Join(dir, "merged.db")
		if _, stderr, code := ccsweep(t, "merge", db, "--db", out); code != 0 {
			t.Fatalf("merge --db %s %s: exit %d: %s", out, db, code, stderr)
		}
		want, _, _ := ccsweep(t, "export", db)
		got, stderr, code := ccsweep(t, "export", out)
		if code != 0 || got != want {
			t.Errorf("export of the merged database (exit %d, %s):\n%.300s\nwant the input's:\n%.300s", code, stderr, got, want)
		}
	})
	t.Run("both ways are two databases", func(t *testing.T) {
		_, stderr, code := ccsweep(t, "export", db, "--db", db)
		if code != exitUsage || !strings.Contains(stderr, "export takes one database file, got 2 arguments") {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
	t.Run("run keeps its own --db", func(t *testing.T) {
		grid := writeGrid(t, "name = \"g\"\nscenario = \"testbed-s1\"\n[sweep]\nccti_timer = [\"100us\"]\n")
		other := filepath.Join(dir, "other.db")
		out, stderr, code := ccsweep(t, "run", grid, "--db", other, "--dry-run")
		if code != 0 || !strings.Contains(out, "already done in "+other) {
			t.Errorf("run --db --dry-run: exit %d\n%s%s", code, out, stderr)
		}
	})
}

// TestStatusGridFileAndItsOldSpelling checks status's --grid-file, and that
// its old spelling --grid still works, saying once on stderr that it is
// deprecated.
func TestStatusGridFileAndItsOldSpelling(t *testing.T) {
	db := handMadeDB(t)
	grid := writeGrid(t, `
name = "hand"
scenario = "testbed-s1"
seeds = 2
[sweep]
ccti_timer   = ["100us", "200us", "300us", "400us", "500us"]
marking_rate = [1, 2, 4]
`)
	now, stderr, code := ccsweep(t, "status", db, "--grid-file", grid)
	if code != 0 || stderr != "" || !strings.Contains(now, "30 points: 30 done, 0 failed, 0 missing") {
		t.Fatalf("status --grid-file: exit %d\n%s%s", code, now, stderr)
	}
	old, stderr, code := ccsweep(t, "status", db, "--grid", grid)
	want := "ccsweep: status --grid FILE is deprecated: use --grid-file FILE (--grid names a grid of the database, as in best)\n"
	if code != 0 || old != now || stderr != want {
		t.Errorf("status --grid: exit %d, stdout\n%s\nstderr %q; want the output of --grid-file and the notice %q", code, old, stderr, want)
	}
	if _, stderr, code := ccsweep(t, "status", db, "--grid", grid, "--grid-file", grid); code != exitUsage || !strings.Contains(stderr, "give it once") {
		t.Errorf("both spellings: exit %d: %s", code, stderr)
	}
	if _, stderr, code := ccsweep(t, "status", db, "--shard", "1/2"); code != exitUsage || !strings.Contains(stderr, "give --grid-file FILE") {
		t.Errorf("--shard without a grid: exit %d: %s", code, stderr)
	}
}

// TestSimTakesTheScenarioAsArgument checks that sim, like fabric, takes
// its scenario as the argument or with --scenario, and refuses both.
func TestSimTakesTheScenarioAsArgument(t *testing.T) {
	flag, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s2", "--phase", "5ms")
	if code != 0 {
		t.Fatalf("sim --scenario: exit %d: %s", code, stderr)
	}
	arg, stderr, code := ccsweep(t, "sim", "testbed-s2", "--phase", "5ms")
	if code != 0 || arg != flag {
		t.Errorf("sim testbed-s2: exit %d (%s), output differs from --scenario's:\n%.200s\nwant\n%.200s", code, stderr, arg, flag)
	}
	for _, args := range [][]string{{"sim", "testbed-s2", "--scenario", "testbed-s1"}, {"sim", "testbed-s1", "testbed-s2"}} {
		if _, stderr, code := ccsweep(t, args...); code != exitUsage || !strings.Contains(stderr, "sim takes one scenario") {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
	}
	if _, err := os.Stat("testbed-s2"); err == nil {
		t.Fatal("a file testbed-s2 was written")
	}
}
