package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/sweep"
)

func TestSlurmBadInputExitsTwoAndWritesNothing(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	parent := t.TempDir()
	out := filepath.Join(parent, "out")
	notExe := filepath.Join(parent, "ccsweep.txt")
	os.WriteFile(notExe, []byte("#!/bin/sh\n"), 0o644)
	bad := filepath.Join(filepath.Dir(grid), "bad.toml")
	os.WriteFile(bad, []byte("name = \"bad\"\nscenario = \"testbed-s9\"\n"), 0o644)
	base := func(more ...string) []string {
		return append([]string{"slurm", grid, "--tasks", "3", "--dir", out, "--max-array-size", "1001"}, more...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no grid", []string{"slurm", "--tasks", "3", "--dir", out}, "one grid file"},
		{"two grids", base(grid), "one grid file"},
		{"no tasks", []string{"slurm", grid, "--dir", out}, "needs --tasks N"},
		{"no dir", []string{"slurm", grid, "--tasks", "3"}, "needs --dir OUT"},
		{"zero tasks", base("--tasks", "0"), "--tasks 0"},
		{"more tasks than points", base("--tasks", "13"), "only 12 points"},
		{"bad grid", []string{"slurm", bad, "--tasks", "3", "--dir", out}, "bad.toml:2"},
		{"missing grid", []string{"slurm", filepath.Join(parent, "none.toml"), "--tasks", "3", "--dir", out}, "none.toml"},
		{"bad time", base("--time", "90min"), `--time "90min"`},
		{"bad mem", base("--mem", "lots"), `--mem "lots"`},
		{"bad partition", base("--partition", "a b"), `--partition "a b"`},
		{"zero cpus", base("--cpus-per-task", "0"), "--cpus-per-task 0"},
		{"extra array", base("--extra", "--array=1-9"), `--extra "--array=1-9": the jobs set the array themselves`},
		{"extra not an option", base("--extra", "qos=long"), `--extra "qos=long"`},
		{"no arrays", base("--max-array-size", "1"), "takes no job arrays"},
		{"space in dir", base("--dir", filepath.Join(parent, "my out")), "holds a space"},
		{"binary missing", base("--ccsweep", filepath.Join(parent, "nope")), "not an executable file"},
		{"binary not executable", base("--ccsweep", notExe), "not an executable file"},
		{"dir is a file", base("--dir", notExe), "not a directory"},
		{"dir of something else", base("--dir", filepath.Dir(grid)), "not empty and was not set up by ccsweep slurm"},
		{"unknown flag", base("--partitoin", "x"), "partitoin"},
		{"assets without scripts", base("--assets", parent), "--assets " + parent + ": assets: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := ccsweep(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, stderr, tt.want)
			}
			if tt.name != "bad grid" && strings.Count(stderr, "\n") != 1 {
				t.Fatalf("stderr is not one line: %q", stderr)
			}
		})
	}
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if e.Name() != "ccsweep.txt" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

func TestSlurmSubmitWithoutSbatchExitsTwoAndWritesNothing(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	out := filepath.Join(t.TempDir(), "out")
	t.Setenv("PATH", t.TempDir()) // no sbatch, no scontrol
	_, stderr, code := ccsweep(t, "slurm", grid, "--tasks", "3", "--dir", out, "--max-array-size", "1001", "--submit")
	want := "ccsweep: sbatch is not on PATH: submit from a Slurm login node, or leave out --submit\n"
	if code != 2 || stderr != want {
		t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("%s was created: %v", out, err)
	}
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fakeAssets writes a folder that passes for the chart scripts the report
// inlines: each file holds the marker report.LoadAssets looks for, and
// marker, which shows up in a report that inlines it.
func fakeAssets(t *testing.T, marker string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"echarts.min.js":    "/* " + marker + " */ var version=\"" + report.EChartsVersion + "\";\n",
		"echarts-gl.min.js": "/* " + marker + " */ var name=\"echarts-gl\";\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSlurmScriptsFollowTheFlags runs ccsweep slurm and compares what it
// prints and writes with testdata/slurm/CASE, the output directory, this
// binary and the assets folder spelled OUT, CCSWEEP and ASSETS there (go test
// -run SlurmScriptsFollowTheFlags -update rewrites them).
func TestSlurmScriptsFollowTheFlags(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	assets := fakeAssets(t, "offline-charts")
	tests := []struct {
		name string
		args []string
		env  string // CCSWEEP_ASSETS
	}{
		{"defaults", []string{"--tasks", "5", "--max-array-size", "1001"}, ""},
		{"every-flag", []string{"--tasks", "5", "--max-array-size", "3", "--throttle", "2", "-p", "debug", "-t", "10:00",
			"--mem", "1G", "-c", "2", "-A", "ib", "--extra", "--qos=normal", "--extra=--nice=10", "--assets", assets}, ""},
		{"assets-from-env", []string{"--tasks", "5", "--max-array-size", "1001"}, assets},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CCSWEEP_ASSETS", tt.env)
			out := filepath.Join(t.TempDir(), "out")
			stdout, stderr, code := ccsweep(t, append([]string{"slurm", grid, "--dir", out}, tt.args...)...)
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
			}
			generic := strings.NewReplacer(exe, "CCSWEEP", out, "OUT", assets, "ASSETS")
			got := map[string]string{"stdout": stdout}
			for _, name := range []string{"job.sbatch", "merge.sbatch", "submit.sh"} {
				b, err := os.ReadFile(filepath.Join(out, name))
				if err != nil {
					t.Fatal(err)
				}
				got[name] = string(b)
			}
			for name, text := range got {
				text = generic.Replace(text)
				golden := filepath.Join("sweep", "slurm", "testdata", "command", tt.name, name) // the command's goldens, beside the package's own
				if *update {
					os.MkdirAll(filepath.Dir(golden), 0o755)
					if err := os.WriteFile(golden, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test -run SlurmScriptsFollowTheFlags -update writes it)", err)
				}
				if text != string(want) {
					t.Errorf("%s differs from %s:\n%s", name, golden, text)
				}
			}
		})
	}
}

func TestSlurmWritesTheDirectoryAndGuardsIt(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	out := filepath.Join(t.TempDir(), "out")
	if _, stderr, code := ccsweep(t, "slurm", grid, "--tasks", "5", "--dir", out, "--max-array-size", "3", "-p", "debug"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for name, mode := range map[string]os.FileMode{"grid.toml": 0o644, "job.sbatch": 0o755, "merge.sbatch": 0o755,
		"submit.sh": 0o755, "slurm.json": 0o644, "shards": os.ModeDir | 0o755, "logs": os.ModeDir | 0o755} {
		fi, err := os.Stat(filepath.Join(out, name))
		if err != nil || fi.Mode() != mode {
			t.Errorf("%s: %v, mode %v, want %v", name, err, fi.Mode(), mode)
		}
	}
	copied, _ := os.ReadFile(filepath.Join(out, "grid.toml"))
	if string(copied) != shardGrid {
		t.Error("grid.toml is not a copy of the grid")
	}
	var m struct {
		Format      string
		Grid        string
		Points      int
		Tasks       int
		Submissions []any
	}
	if b, err := os.ReadFile(filepath.Join(out, "slurm.json")); err != nil || json.Unmarshal(b, &m) != nil ||
		m.Format != "ccsweep-slurm/1" || m.Grid != "shards" || m.Points != 12 || m.Tasks != 5 || m.Submissions != nil {
		t.Fatalf("slurm.json: %+v, %v", m, err)
	}

	// The same grid again, with other options: the scripts follow.
	if _, stderr, code := ccsweep(t, "slurm", grid, "--tasks", "5", "--dir", out, "--max-array-size", "1001"); code != 0 {
		t.Fatalf("again: exit %d: %s", code, stderr)
	}
	job, _ := os.ReadFile(filepath.Join(out, "job.sbatch"))
	if !strings.Contains(string(job), "#SBATCH --array=1-5\n") || strings.Contains(string(job), "--partition") {
		t.Errorf("job.sbatch after the second run:\n%s", job)
	}
	// The copy in OUT is a valid grid argument too.
	if _, stderr, code := ccsweep(t, "slurm", filepath.Join(out, "grid.toml"), "--tasks", "5", "--dir", out, "--max-array-size", "1001"); code != 0 {
		t.Fatalf("from the copy: exit %d: %s", code, stderr)
	}
	other := filepath.Join(t.TempDir(), "other.toml")
	os.WriteFile(other, []byte(strings.Replace(shardGrid, "seeds    = 2", "seeds    = 3", 1)), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"other tasks", []string{"slurm", grid, "--tasks", "4", "--dir", out, "--max-array-size", "1001"},
			"--dir " + out + " was set up for --tasks 5; use --tasks 5, or another directory"},
		{"other grid", []string{"slurm", other, "--tasks", "5", "--dir", out, "--max-array-size", "1001"},
			"--dir " + out + " was set up for grid shards, and " + other + " is another grid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := os.ReadFile(filepath.Join(out, "job.sbatch"))
			_, stderr, code := ccsweep(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit 2 and %q", code, stderr, tt.want)
			}
			if after, _ := os.ReadFile(filepath.Join(out, "job.sbatch")); string(after) != string(before) {
				t.Fatal("a refused run rewrote job.sbatch")
			}
		})
	}
}

// requireSlurm skips the test unless a Slurm cluster answers here; under CI
// (CI=true) it fails instead, as CI starts one (.ci/start-local-slurm.sh).
func requireSlurm(t *testing.T) {
	t.Helper()
	slurmOnce.Do(func() { slurmMissing = findSlurm() })
	if slurmMissing == "" {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no Slurm: %s; start a local cluster with bash .ci/start-local-slurm.sh", slurmMissing)
	}
	t.Skipf("no Slurm: %s; start a local cluster with bash .ci/start-local-slurm.sh", slurmMissing)
}

var (
	slurmOnce    sync.Once
	slurmMissing string // why there is no usable Slurm; empty if there is
)

func findSlurm() string {
	for _, tool := range []string{"sbatch", "sinfo", "squeue", "scontrol", "scancel"} {
		if _, err := exec.LookPath(tool); err != nil {
			return tool + " is not on PATH"
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sinfo", "--noheader", "--format=%T").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return fmt.Sprintf("sinfo does not answer (%v)", err)
	}
	return ""
}

// slurmSubmit runs ccsweep slurm ... --submit as its own process, so that
// the jobs inherit CCSWEEP_AS_MAIN and the test binary serves as their
// ccsweep, and returns its output and the IDs of the jobs it submitted,
// which it cancels at the end of the test.
func slurmSubmit(t *testing.T, args ...string) (out string, arrays []string, merge string) {
	t.Helper()
	start := time.Now()
	b, err := ccsweepProcess(t, append([]string{"slurm"}, append(args, "--submit")...)...).CombinedOutput()
	out = string(b)
	if err != nil {
		t.Fatalf("ccsweep slurm --submit: %v\n%s", err, out)
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("ccsweep slurm --submit took %s: it should submit and exit", el)
	}
	for _, m := range regexp.MustCompile(`as array job (\d+)`).FindAllStringSubmatch(out, -1) {
		arrays = append(arrays, m[1])
	}
	if m := regexp.MustCompile(`the merge job (\d+)`).FindStringSubmatch(out); m != nil {
		merge = m[1]
	}
	ids := append(slices.Clone(arrays), merge)
	t.Cleanup(func() {
		if t.Failed() {
			exec.Command("scancel", ids...).Run()
		}
	})
	return out, arrays, merge
}

var jobStateRE = regexp.MustCompile(`JobState=(\S+)`)

// jobStates returns the state of every record of job id (one per array
// task); an empty result means Slurm no longer knows the job.
func jobStates(t *testing.T, id string) []string {
	t.Helper()
	out, err := exec.Command("scontrol", "--oneliner", "show", "job", id).Output()
	if err != nil {
		return nil
	}
	var states []string
	for _, m := range jobStateRE.FindAllStringSubmatch(string(out), -1) {
		states = append(states, m[1])
	}
	return states
}

func terminal(state string) bool {
	switch state {
	case "PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED",
		"RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED":
		return false
	}
	return true
}

// waitJobs waits until every job of ids has ended and returns their final
// states, job by job.
func waitJobs(t *testing.T, timeout time.Duration, ids ...string) map[string][]string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		states, done := map[string][]string{}, true
		for _, id := range ids {
			states[id] = jobStates(t, id)
			for _, s := range states[id] {
				done = done && terminal(s)
			}
		}
		if done {
			return states
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs %v still not ended after %s: %v", ids, timeout, states)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func allCompleted(states map[string][]string) bool {
	for _, ss := range states {
		for _, s := range ss {
			if s != "COMPLETED" {
				return false
			}
		}
	}
	return true
}

func slurmStatus(t *testing.T, dir string) string {
	t.Helper()
	out, stderr, code := ccsweep(t, "status", dir)
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, stderr)
	}
	return out
}

// TestSlurmArrayOnLocalCluster submits a grid to a real Slurm as two job
// arrays (MaxArraySize 3 splits its 4 shards) and a merge job, and checks
// that the merged database holds every point exactly once and exports as a
// local run of the grid does, and that the report inlines the --assets
// scripts.
func TestSlurmArrayOnLocalCluster(t *testing.T) {
	requireSlurm(t)
	start := time.Now()
	grid := writeGrid(t, shardGrid)
	out := filepath.Join(t.TempDir(), "out")
	assets := fakeAssets(t, "charts-inlined-by-the-merge-job")
	stdout, arrays, merge := slurmSubmit(t, grid, "--tasks", "4", "--dir", out, "--max-array-size", "3", "--assets", assets)
	if len(arrays) != 2 || merge == "" || !strings.Contains(stdout, "submitted shards 1-2 of 4 as array job") ||
		!strings.Contains(stdout, "submitted shards 3-4 of 4 as array job") || !strings.Contains(stdout, "offset 2") {
		t.Fatalf("submission:\n%s", stdout)
	}
	t.Logf("submitted in %s: arrays %v, merge %s", time.Since(start).Round(time.Millisecond), arrays, merge)

	local := filepath.Join(t.TempDir(), "local.db") // meanwhile, the same grid on this machine
	runInto(t, grid, local, "")

	states := waitJobs(t, 2*time.Minute, append(arrays, merge)...)
	if !allCompleted(states) || len(states[arrays[0]]) != 2 || len(states[arrays[1]]) != 2 {
		t.Fatalf("job states %v, want two arrays of two tasks and the merge job COMPLETED", states)
	}
	t.Logf("jobs ended after %s", time.Since(start).Round(time.Millisecond))
	results := filepath.Join(out, "results.db")
	checkDatabase(t, results, 12)
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil || !strings.Contains(string(html), "ccsweep report") {
		t.Fatalf("the merge job wrote no report: %v", err)
	}
	if !strings.Contains(string(html), "charts-inlined-by-the-merge-job") || strings.Contains(string(html), `<script src="https://`) {
		t.Fatal("the merge job's report does not inline the chart scripts of --assets: it would not open offline")
	}
	for _, format := range []string{"csv", "json"} {
		if got, want := export(t, results, format), export(t, local, format); got != want {
			t.Fatalf("%s export of the Slurm run differs from the local run's:\n%s\nwant\n%s", format, got, want)
		}
	}
	s := slurmStatus(t, out)
	if statusRow(t, s, "merged") != [4]int{12, 12, 0, 0} || !strings.Contains(s, "complete: every point is in") {
		t.Fatalf("status:\n%s", s)
	}
	logs, _ := filepath.Glob(filepath.Join(out, "logs", "*.out"))
	if len(logs) != 5 {
		t.Errorf("logs: %v, want one per array task and one of the merge job", logs)
	}
	// Nothing is left to do: a resubmission submits nothing.
	b, err := ccsweepProcess(t, "slurm", grid, "--tasks", "4", "--dir", out, "--submit").CombinedOutput()
	if err != nil || !strings.Contains(string(b), "all 12 points are done and merged") || strings.Contains(string(b), "submitted") {
		t.Fatalf("resubmission of a complete run: %v\n%s", err, b)
	}
}

// cancelGrid's points take long enough (tens of milliseconds of simulated
// time each) for a test to cancel an array task in the middle of its shard.
const cancelGrid = `
name     = "cancel"
scenario = "testbed-s1"
cc       = "on"
phase    = "40ms"
sample   = "1ms"

[sweep]
ccti_timer   = ["100us", "200us", "300us", "400us", "500us", "600us"]
marking_rate = [0, 1, 2, 4, 8]
`

// TestSlurmCancelledTaskResubmitted cancels one array task in the middle of
// its shard (scancel), lets the merge job merge what there is, then submits
// again: only that shard runs, it skips the points it had finished, and the
// merged database ends complete, every point once.
func TestSlurmCancelledTaskResubmitted(t *testing.T) {
	requireSlurm(t)
	start := time.Now()
	grid := writeGrid(t, cancelGrid)
	out := filepath.Join(t.TempDir(), "out")
	const tasks, points = 3, 30
	stdout, arrays, merge := slurmSubmit(t, grid, "--tasks", "3", "--dir", out)
	if len(arrays) != 1 || merge == "" || !strings.Contains(stdout, "submitted shards 1-3 of 3 as array job") {
		t.Fatalf("submission:\n%s", stdout)
	}

	// Cancel the first task seen running with some but not all of its
	// points done.
	g, err := grids.Load(grid)
	if err != nil {
		t.Fatal(err)
	}
	plans, err := sweep.ShardPlans(g, tasks)
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[int]int{}
	for i, p := range plans {
		sizes[i+1] = p.Len()
	}
	victim, doneBefore := 0, 0
	deadline := time.Now().Add(time.Minute)
	for victim == 0 {
		for shard := 1; shard <= tasks; shard++ {
			n := doneCount(t, filepath.Join(out, "shards", "shard-"+strconv.Itoa(shard)+".db"))
			if n >= 1 && n < sizes[shard]-3 {
				victim = shard
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no array task was caught in the middle of its shard")
		}
		time.Sleep(20 * time.Millisecond)
	}
	task := arrays[0] + "_" + strconv.Itoa(victim)
	if b, err := exec.Command("scancel", task).CombinedOutput(); err != nil {
		t.Fatalf("scancel %s: %v %s", task, err, b)
	}
	t.Logf("cancelled task %s (shard %d) after %s", task, victim, time.Since(start).Round(time.Millisecond))
	states := waitJobs(t, 2*time.Minute, arrays[0], merge)
	if st := jobStates(t, task); len(st) != 1 || st[0] != "CANCELLED" {
		t.Fatalf("cancelled task: state %v (all: %v)", st, states)
	}
	if st := states[merge]; len(st) != 1 || st[0] != "COMPLETED" {
		t.Fatalf("merge job: state %v", st)
	}
	shardDB := filepath.Join(out, "shards", "shard-"+strconv.Itoa(victim)+".db")
	doneBefore = doneCount(t, shardDB)
	if doneBefore >= sizes[victim] {
		t.Fatalf("shard %d finished all its points although cancelled", victim)
	}
	s := slurmStatus(t, out)
	if row := statusRow(t, s, strconv.Itoa(victim)+"/3"); row != [4]int{sizes[victim], doneBefore, 0, sizes[victim] - doneBefore} {
		t.Fatalf("status of the cancelled shard %v, want %d done\n%s", row, doneBefore, s)
	}
	if row := statusRow(t, s, "merged"); row[1] != points-sizes[victim]+doneBefore || !strings.Contains(s, "incomplete") {
		t.Fatalf("status after the first merge:\n%s", s)
	}
	checkDatabase(t, filepath.Join(out, "results.db"), points-sizes[victim]+doneBefore)

	// Submit again: only the cancelled shard runs.
	stdout, arrays2, merge2 := slurmSubmit(t, grid, "--tasks", "3", "--dir", out)
	wantLine := "submitted shard " + strconv.Itoa(victim) + " of 3 as array job"
	if len(arrays2) != 1 || !strings.Contains(stdout, wantLine) || !strings.Contains(stdout, "2 of 3 shards were complete; "+strconv.Itoa(sizes[victim]-doneBefore)+" points still to run") {
		t.Fatalf("resubmission, want %q:\n%s", wantLine, stdout)
	}
	states = waitJobs(t, 2*time.Minute, arrays2[0], merge2)
	if !allCompleted(states) || len(states[arrays2[0]]) != 1 {
		t.Fatalf("resubmitted jobs: %v", states)
	}
	log, err := os.ReadFile(filepath.Join(out, "logs", "ccsweep-cancel-"+arrays2[0]+"_"+strconv.Itoa(victim)+".out"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(\d+) already done, (\d+) ran \(0 failed\)`).FindStringSubmatch(string(log))
	if m == nil || atoi(m[1]) != doneBefore || atoi(m[2]) != sizes[victim]-doneBefore {
		t.Fatalf("the resubmitted task should skip the %d points done before and run the rest:\n%s", doneBefore, log)
	}
	checkDatabase(t, filepath.Join(out, "results.db"), points)
	if s := slurmStatus(t, out); statusRow(t, s, "overall") != [4]int{30, 30, 0, 0} || !strings.Contains(s, "complete: every point is in") {
		t.Fatalf("final status:\n%s", s)
	}
	t.Logf("complete after %s", time.Since(start).Round(time.Millisecond))
}

// TestSlurmScenarioFileOnLocalCluster: a grid whose scenario is a file runs
// on Slurm (the file is copied beside the grid) and gives what a local run
// gives.
func TestSlurmScenarioFileOnLocalCluster(t *testing.T) {
	requireSlurm(t)
	grid := writeGrid(t, "name = \"scen\"\nscenario = \"ft.toml\"\nphase = \"2ms\"\nsample = \"200us\"\n[sweep]\nload = [0.2, 0.4, 0.6]\n")
	os.WriteFile(filepath.Join(filepath.Dir(grid), "ft.toml"), []byte(`[topology]
kind = "fattree"
k = 2
levels = 2
[[traffic]]
name = "u"
pattern = "uniform"
arrival = "poisson"
load = 0.3
message_size = 2048
`), 0o644)
	slurmMatchesLocal(t, grid, 3, 2*time.Minute)
}

// slurmMatchesLocal runs grid as a job array of 2 tasks on the local
// cluster and checks that the merged results hold its points and export
// as a local run of the grid does.
func slurmMatchesLocal(t *testing.T, grid string, points int, wait time.Duration) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	_, arrays, merge := slurmSubmit(t, grid, "--tasks", "2", "--dir", out)
	local := filepath.Join(t.TempDir(), "local.db")
	runInto(t, grid, local, "")
	states := waitJobs(t, wait, append(arrays, merge)...)
	if !allCompleted(states) {
		t.Fatalf("job states %v", states)
	}
	results := filepath.Join(out, "results.db")
	checkDatabase(t, results, points)
	if got, want := export(t, results, "csv"), export(t, local, "csv"); got != want {
		t.Fatalf("Slurm export differs from the local run's:\n%s\nwant\n%s", got, want)
	}
}

// TestSlurmRefineRoundsOnLocalCluster: slurm --refine runs the grid, then
// each refinement round as a job array that the previous merge job
// submits, and ends with what a local run --refine gives.
func TestSlurmRefineRoundsOnLocalCluster(t *testing.T) {
	requireSlurm(t)
	grid := writeGrid(t, `name = "rounds"
scenario = "testbed-s1"
cc = "on"
phase = "5ms"
sample = "1ms"
[sweep]
ccti_timer = ["20us", "500us"]
marking_rate = [0, 16]
`)
	out := filepath.Join(t.TempDir(), "out")
	slurmSubmit(t, grid, "--tasks", "2", "--dir", out, "--refine", "4")
	local := filepath.Join(t.TempDir(), "local.db")
	if _, stderr, code := ccsweep(t, "run", grid, "--db", local, "-j", "2", "--quiet", "--refine", "4"); code != 0 {
		t.Fatalf("local run --refine: %s", stderr)
	}
	// The rounds' jobs are submitted by merge jobs: wait for the queue to
	// empty and the merged database to hold every point the local run has.
	deadline := time.Now().Add(4 * time.Minute)
	want := export(t, local, "csv")
	results := filepath.Join(out, "results.db")
	for {
		q, _ := exec.Command("squeue", "--noheader", "--format=%i").Output()
		if strings.TrimSpace(string(q)) == "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs still queued after 4 minutes:\n%s", q)
		}
		time.Sleep(time.Second)
	}
	if got := export(t, results, "csv"); got != want {
		t.Fatalf("Slurm rounds give\n%s\nwant (local run --refine)\n%s", got, want)
	}
	if n := strings.Count(want, "\n"); n != 1+4+4 {
		t.Errorf("local run --refine exported %d lines, want a header, the grid's 4 points and 4 refined", n)
	}
}

// TestSlurmClos648ExampleOnLocalCluster runs examples/clos648-cc.toml on
// the local cluster, shortened to 1 ms phases and four of its points, and
// checks the merged results against a local run of the same grid.
func TestSlurmClos648ExampleOnLocalCluster(t *testing.T) {
	requireSlurm(t)
	text, err := os.ReadFile(filepath.Join("examples", "clos648-cc.toml"))
	if err != nil {
		t.Fatal(err)
	}
	short := string(text)
	for old, repl := range map[string]string{
		`phase = "75ms"`: `phase = "1ms"`, `sample = "1ms"`: `sample = "500us"`,
		`["50us", "100us", "150us", "300us", "600us", "1ms"]`: `["50us", "1ms"]`, `[0, 1, 4, 16, 64]`: `[0, 16]`,
	} {
		if !strings.Contains(short, old) {
			t.Fatalf("examples/clos648-cc.toml no longer has %s", old)
		}
		short = strings.Replace(short, old, repl, 1)
	}
	slurmMatchesLocal(t, writeGrid(t, short), 4, 3*time.Minute)
}
