package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runJobScript runs a generated batch script with bash as Slurm would, the
// test binary standing in for ccsweep.
func runJobScript(t *testing.T, script string, env ...string) string {
	t.Helper()
	cmd := exec.Command("bash", script)
	cmd.Env = append(append(os.Environ(), "CCSWEEP_AS_MAIN=1"), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash %s: %v\n%s", script, err, out)
	}
	return string(out)
}

// statusRow returns the counts on the line of status output that starts
// with label: points, done, failed, missing.
func statusRow(t *testing.T, out, label string) [4]int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(label) + `\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %q row in status:\n%s", label, out)
	}
	return [4]int{atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])}
}

// TestStatusFollowsAShardedRun plays Slurm's part by hand: it runs the
// generated scripts with bash, one shard at a time, and reads the status
// after each step.
func TestStatusFollowsAShardedRun(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	out := filepath.Join(t.TempDir(), "out")
	if o, stderr, code := ccsweep(t, "slurm", grid, "--tasks", "3", "--dir", out, "--max-array-size", "1001", "--ccsweep", os.Args[0]); code != 0 {
		t.Fatalf("slurm: exit %d\n%s%s", code, o, stderr)
	}
	status := func() string {
		t.Helper()
		o, stderr, code := ccsweep(t, "status", out)
		if code != 0 {
			t.Fatalf("status: exit %d: %s", code, stderr)
		}
		return o
	}
	s := status()
	if !strings.Contains(s, "12 points in 3 shards") || statusRow(t, s, "overall") != [4]int{12, 0, 0, 12} ||
		!strings.Contains(s, "shards/shard-1.db (not yet)") || !strings.Contains(s, "incomplete: 12 points to run") {
		t.Fatalf("status before any task:\n%s", s)
	}

	job := filepath.Join(out, "job.sbatch")
	runJobScript(t, job, "SLURM_ARRAY_TASK_ID=2")
	s = status()
	r2 := statusRow(t, s, "2/3")
	if r2[0] == 0 || r2[1] != r2[0] || r2[3] != 0 || statusRow(t, s, "1/3")[1] != 0 {
		t.Fatalf("status after shard 2:\n%s", s)
	}
	if o := statusRow(t, s, "overall"); o[1] != r2[0] || o[3] != 12-r2[0] {
		t.Fatalf("status after shard 2:\n%s", s)
	}

	runJobScript(t, job, "SLURM_ARRAY_TASK_ID=1")
	if again := runJobScript(t, job, "SLURM_ARRAY_TASK_ID=2", "SLURM_CPUS_PER_TASK=2"); !strings.Contains(again, "ran (0 failed)") ||
		!strings.Contains(again, "shard 2/3") || !strings.Contains(again, "2 workers") {
		t.Fatalf("shard 2 again:\n%s", again)
	}
	runJobScript(t, job, "SLURM_ARRAY_TASK_ID=3")
	s = status()
	if !strings.Contains(s, "every point is done; merge them") || statusRow(t, s, "merged") != [4]int{12, 0, 0, 12} {
		t.Fatalf("status before the merge:\n%s", s)
	}
	log := runJobScript(t, filepath.Join(out, "merge.sbatch"))
	if !strings.Contains(log, "merged 3 databases") || !strings.Contains(log, "complete: every point is in") {
		t.Fatalf("merge job output:\n%s", log)
	}
	s = status()
	if statusRow(t, s, "merged") != [4]int{12, 12, 0, 0} || statusRow(t, s, "overall") != [4]int{12, 12, 0, 0} ||
		!strings.Contains(s, "complete: every point is in "+filepath.Join(out, "results.db")) {
		t.Fatalf("status after the merge:\n%s", s)
	}
	checkDatabase(t, filepath.Join(out, "results.db"), 12)

	// One database: against the grid, or what it holds of each grid.
	results := filepath.Join(out, "results.db")
	o, _, code := ccsweep(t, "status", results, "--grid", grid)
	if code != 0 || !strings.Contains(o, "12 points: 12 done, 0 failed, 0 missing") {
		t.Fatalf("status of results.db with the grid: exit %d\n%s", code, o)
	}
	o, _, code = ccsweep(t, "status", filepath.Join(out, "shards", "shard-1.db"), "--grid", grid, "--shard", "1/3")
	if code != 0 || !regexp.MustCompile(`shard 1/3, .*: (\d+) points: (\d+) done, 0 failed, 0 missing`).MatchString(o) {
		t.Fatalf("status of shard 1 with the grid: exit %d\n%s", code, o)
	}
	o, _, code = ccsweep(t, "status", results)
	if code != 0 || !strings.Contains(o, "grid shards (id ") || !strings.Contains(o, "12 points done, 0 failed") {
		t.Fatalf("status of results.db: exit %d\n%s", code, o)
	}
	// The same layout made by another launcher, with the grid and shard
	// count given.
	os.Remove(filepath.Join(out, "slurm.json"))
	o, _, code = ccsweep(t, "status", out, "--grid", grid, "--tasks", "3")
	if code != 0 || statusRow(t, o, "overall") != [4]int{12, 12, 0, 0} {
		t.Fatalf("status with --grid and --tasks: exit %d\n%s", code, o)
	}
}

func TestStatusBadInputExitsTwo(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	dir := filepath.Dir(grid)
	empty := t.TempDir()
	db := filepath.Join(dir, "s.db")
	runInto(t, grid, db, "1/4")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"nothing", []string{"status"}, "one directory or database"},
		{"missing", []string{"status", filepath.Join(dir, "none")}, "no such directory or database"},
		{"directory without a grid", []string{"status", empty}, "has no grid.toml"},
		{"directory without a shard count", []string{"status", dir}, "--tasks N"},
		{"too many shards", []string{"status", dir, "--tasks", "13"}, "only 12 points"},
		{"shard of a directory", []string{"status", dir, "--tasks", "2", "--shard", "1/2"}, "--shard goes with a database"},
		{"shard without a grid", []string{"status", db, "--shard", "1/2"}, "give --grid"},
		{"bad shard", []string{"status", db, "--grid-file", grid, "--shard", "3/2"}, "shard 3/2"},
		{"tasks of a database", []string{"status", db, "--tasks", "2"}, "--tasks goes with a directory"},
		{"not a database", []string{"status", grid}, "not a ccsweep database"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := ccsweep(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want exit 2 and one line with %q", code, stderr, tt.want)
			}
		})
	}
}

// TestStatusDBFlagNamesADatabase: `status --db FILE` is `status FILE`, as
// --db names a database in every command; `status --db DIR` is refused in
// one sentence saying DIR is a directory, not a database, instead of being
// read as a sharded run's directory.
func TestStatusDBFlagNamesADatabase(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	dir := filepath.Dir(grid)
	db := filepath.Join(dir, "s.db")
	runInto(t, grid, db, "1/4")
	want, _, code := ccsweep(t, "status", db)
	if code != 0 {
		t.Fatalf("status %s: exit %d", db, code)
	}
	for _, args := range [][]string{{"status", "--db", db}, {"status", "--db=" + db}} {
		if o, stderr, code := ccsweep(t, args...); code != 0 || o != want {
			t.Errorf("%v: exit %d, %q%s; want %q as for status DB", args, code, o, stderr, want)
		}
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"a directory", []string{"status", "--db", dir, "--tasks", "4"}, "--db " + dir + " is a directory, not a database"},
		{"--db and an argument", []string{"status", "--db", db, dir}, "one directory or database"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o, stderr, code := ccsweep(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, o, stderr, tt.want)
			}
		})
	}
}
