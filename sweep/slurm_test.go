package sweep_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// unevenGrid has points of three costs (phase lengths), so that dealing
// them to shards by cost differs from dealing them round-robin.
const unevenGrid = `
name     = "uneven"
scenario = "testbed-s1"
cc       = "on"
sample   = "1ms"

[[grid]]
phase        = "2ms"
sweep.marking_rate = [0, 1, 2, 4, 8, 16, 32]

[[grid]]
phase        = "5ms"
sweep.marking_rate = [0, 1, 2]
sweep.ccti_timer   = ["100us", "200us"]

[[grid]]
phase        = "11ms"
seeds        = 3
`

func TestShardPlansMatchShardSelect(t *testing.T) {
	for _, text := range []string{smallGrid, unevenGrid} {
		g := parse(t, text)
		for _, n := range []int{1, 2, 3, 4, 7, g.Count()} {
			t.Run(fmt.Sprintf("%s/%d", g.Name, n), func(t *testing.T) {
				plans, err := sweep.ShardPlans(g, n)
				if err != nil {
					t.Fatal(err)
				}
				if len(plans) != n {
					t.Fatalf("%d plans for %d shards", len(plans), n)
				}
				total := 0
				for i, got := range plans {
					want, err := sweep.NewPlan(g, sweep.Shard{Index: i + 1, Count: n})
					if err != nil {
						t.Fatal(err)
					}
					gotIDs, wantIDs := planIDs(got), planIDs(want)
					if got.GridID != want.GridID || !slices.Equal(gotIDs, wantIDs) {
						t.Fatalf("shard %d/%d: ShardPlans gives %d points %v, NewPlan %d points %v",
							i+1, n, len(gotIDs), gotIDs, len(wantIDs), wantIDs)
					}
					for k, pt := range got.All() {
						if pt.ID(model.Version) != gotIDs[k] {
							t.Fatalf("shard %d/%d: point %d does not match its ID", i+1, n, k)
						}
					}
					total += got.Len()
				}
				if total != g.Count() {
					t.Fatalf("%d shards hold %d points, want %d", n, total, g.Count())
				}
			})
		}
	}
	g := parse(t, smallGrid)
	for _, n := range []int{0, -1, g.Count() + 1} {
		t.Run(fmt.Sprintf("bad/%d", n), func(t *testing.T) {
			var ce *sweep.ShardCountError
			if _, err := sweep.ShardPlans(g, n); !errors.As(err, &ce) || ce.Shards != n || ce.Points != g.Count() || ce.Grid != g.Name {
				t.Fatalf("ShardPlans with %d shards of %d points: %v, want a *ShardCountError", n, g.Count(), err)
			}
		})
	}
}

func TestSplitArray(t *testing.T) {
	type chunk struct {
		spec   string
		offset int
		shards []int
	}
	seq := func(from, to int) []int {
		var s []int
		for i := from; i <= to; i++ {
			s = append(s, i)
		}
		return s
	}
	tests := []struct {
		name     string
		shards   []int
		max      int
		throttle int
		want     []chunk
	}{
		{"fits", seq(1, 5), 1001, 0, []chunk{{"1-5", 0, seq(1, 5)}}},
		{"exactly the largest task ID", seq(1, 1000), 1001, 0, []chunk{{"1-1000", 0, seq(1, 1000)}}},
		{"one past", seq(1, 1001), 1001, 0, []chunk{{"1-1000", 0, seq(1, 1000)}, {"1", 1000, []int{1001}}}},
		{"split in three", seq(1, 7), 4, 0, []chunk{{"1-3", 0, seq(1, 3)}, {"1-3", 3, seq(4, 6)}, {"1", 6, []int{7}}}},
		{"resubmission of some", []int{2, 3, 5, 9, 10, 11}, 5, 0,
			[]chunk{{"2-3", 0, []int{2, 3}}, {"1", 4, []int{5}}, {"1-3", 8, []int{9, 10, 11}}}},
		{"throttled", []int{1, 2, 3, 6}, 10001, 2, []chunk{{"1-3,6%2", 0, []int{1, 2, 3, 6}}}},
		{"smallest MaxArraySize", []int{1, 2, 3}, 2, 0, []chunk{{"1", 0, []int{1}}, {"1", 1, []int{2}}, {"1", 2, []int{3}}}},
		{"none", nil, 1001, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := sweep.SplitArray(tt.shards, tt.max, tt.throttle)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%d chunks %+v, want %d", len(got), got, len(tt.want))
			}
			for i, c := range got {
				w := tt.want[i]
				if c.Spec != w.spec || c.Offset != w.offset || !slices.Equal(c.Shards, w.shards) {
					t.Fatalf("chunk %d: %q offset %d shards %v, want %q offset %d shards %v",
						i, c.Spec, c.Offset, c.Shards, w.spec, w.offset, w.shards)
				}
			}
		})
	}
	for _, bad := range []struct {
		shards []int
		max    int
	}{{[]int{1}, 1}, {[]int{1}, 0}, {[]int{0, 1}, 10}, {[]int{3, 2}, 10}, {[]int{2, 2}, 10}} {
		t.Run(fmt.Sprintf("bad/%v/%d", bad.shards, bad.max), func(t *testing.T) {
			if _, err := sweep.SplitArray(bad.shards, bad.max, 0); err == nil {
				t.Errorf("SplitArray(%v, %d): no error", bad.shards, bad.max)
			}
		})
	}
}

func TestParseMaxArraySize(t *testing.T) {
	config := "Configuration data as of 2024-01-01T00:00:00\nMailProg                = /bin/true\nMaxArraySize            = 10001\nMaxJobCount             = 10000\n"
	if n, err := sweep.ParseMaxArraySize(config); err != nil || n != 10001 {
		t.Fatalf("got %d, %v; want 10001", n, err)
	}
	if _, err := sweep.ParseMaxArraySize("MaxJobCount = 10000\n"); err == nil {
		t.Fatal("no MaxArraySize: no error")
	}
}

// exampleJob is a job with every option set, at fixed paths.
func exampleJob() *sweep.SlurmJob {
	return &sweep.SlurmJob{Ccsweep: "/home/me/bin/ccsweep", Dir: "/scratch/me/fig11", Name: "fig11-14", Tasks: 12,
		Partition: "compute", Time: "2:00:00", Mem: "4G", Account: "ib-research", CPUsPerTask: 4, Throttle: 6,
		Extra: []string{"--qos=long", "--constraint=skylake"}, RunFlags: []string{"--no-report"}, MaxArraySize: 10001}
}

func TestSlurmScriptsGolden(t *testing.T) {
	minimal := func() *sweep.SlurmJob {
		return &sweep.SlurmJob{Ccsweep: "/opt/ccsweep/bin/ccsweep", Dir: "/scratch/me/quick", Name: "quick", Tasks: 3, MaxArraySize: 1001}
	}
	split := exampleJob()
	split.MaxArraySize = 5
	assets := minimal()
	assets.Assets = "/opt/ccsweep/assets"
	tests := []struct {
		name string
		job  *sweep.SlurmJob
	}{{"every-option", exampleJob()}, {"minimal", minimal()}, {"split", split}, {"assets", assets}}
	g := parse(t, unevenGrid) // 16 points: enough for every job's shards
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The directories do not exist here, and NewSlurmSetup writes nothing.
			setup, err := sweep.NewSlurmSetup(tt.job, g, "grid.toml", []byte(unevenGrid))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{sweep.SlurmArrayScript, sweep.SlurmMergeScript, sweep.SlurmSubmit} {
				got := setup.Script(name)
				golden := filepath.Join("testdata", "slurm", tt.name, name)
				if *update {
					os.MkdirAll(filepath.Dir(golden), 0o755)
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./sweep -run SlurmScriptsGolden -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from %s (rerun with -update if intended):\n%s", name, golden, got)
				}
				if out, err := exec.Command("bash", "-n", "-c", got).CombinedOutput(); err != nil {
					t.Errorf("%s: bash -n: %v\n%s", name, err, out)
				}
			}
		})
	}
}

func TestSlurmJobValidate(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(j *sweep.SlurmJob)
		field string // of the OptionError
		want  string // in its message
	}{
		{"relative dir", func(j *sweep.SlurmJob) { j.Dir = "out" }, "Dir", `output directory "out": not an absolute path`},
		{"relative binary", func(j *sweep.SlurmJob) { j.Ccsweep = "ccsweep" }, "Ccsweep", "not an absolute path"},
		{"space in dir", func(j *sweep.SlurmJob) { j.Dir = "/scratch/my runs" }, "Dir", "holds a space"},
		{"percent in dir", func(j *sweep.SlurmJob) { j.Dir = "/scratch/100%" }, "Dir", "holds a space, quote, backslash or %"},
		{"bad name", func(j *sweep.SlurmJob) { j.Name = "a b" }, "Name", `grid name "a b": not a valid job name`},
		{"no tasks", func(j *sweep.SlurmJob) { j.Tasks = 0 }, "Tasks", "task count 0: want at least 1"},
		{"time with unit", func(j *sweep.SlurmJob) { j.Time = "2h" }, "Time", `time limit "2h": want minutes`},
		{"time with letters", func(j *sweep.SlurmJob) { j.Time = "1-2:3:x" }, "Time", `time limit "1-2:3:x"`},
		{"memory unit", func(j *sweep.SlurmJob) { j.Mem = "4GB" }, "Mem", `memory "4GB"`},
		{"partition with space", func(j *sweep.SlurmJob) { j.Partition = "a b" }, "Partition", `partition "a b"`},
		{"account with quote", func(j *sweep.SlurmJob) { j.Account = `x"` }, "Account", `account "x\""`},
		{"negative cpus", func(j *sweep.SlurmJob) { j.CPUsPerTask = -1 }, "CPUsPerTask", "CPUs per task -1"},
		{"negative throttle", func(j *sweep.SlurmJob) { j.Throttle = -1 }, "Throttle", "throttle -1"},
		{"no arrays", func(j *sweep.SlurmJob) { j.MaxArraySize = 1 }, "MaxArraySize", "takes no job arrays"},
		{"relative assets", func(j *sweep.SlurmJob) { j.Assets = "assets" }, "Assets", `assets directory "assets": not an absolute path`},
		{"extra not an option", func(j *sweep.SlurmJob) { j.Extra = []string{"qos=long"} }, "Extra", `sbatch option "qos=long"`},
		{"extra array", func(j *sweep.SlurmJob) { j.Extra = []string{"--array=1-3"} }, "Extra", "set the array themselves"},
		{"extra short array", func(j *sweep.SlurmJob) { j.Extra = []string{"-a1-3"} }, "Extra", "set the array themselves"},
		{"extra dependency", func(j *sweep.SlurmJob) { j.Extra = []string{"--dependency", "afterok:1"} }, "Extra", "depends on the array"},
		{"extra line break", func(j *sweep.SlurmJob) { j.Extra = []string{"--qos=long\n#SBATCH --x"} }, "Extra", "line break"},
		{"run flag line break", func(j *sweep.SlurmJob) { j.RunFlags = []string{"--x\ny"} }, "RunFlags", "control character"},
	}
	if err := exampleJob().Validate(); err != nil {
		t.Fatalf("example job: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := exampleJob()
			tt.edit(j)
			err := j.Validate()
			var oe *sweep.OptionError
			if !errors.As(err, &oe) || !errors.Is(err, sweep.ErrSlurmOption) || oe.Field != tt.field || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an *OptionError of %s mentioning %q", err, tt.field, tt.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error spans lines: %q", err)
			}
			if strings.HasPrefix(err.Error(), "-") {
				t.Fatalf("error names a flag, not the option: %q", err)
			}
			if _, err := j.ArrayScript(); err == nil {
				t.Fatal("ArrayScript of an invalid job: no error")
			}
		})
	}
}

// fakeTool writes an executable shell script that appends its name and
// arguments, one line per call, to dir/calls, then runs body.
func fakeTool(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	script := "#!/bin/bash\necho \"" + name + " $*\" >> " + filepath.Join(dir, "calls") + "\n" + body + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func calls(t *testing.T, dir string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "calls"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "calls"))
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// bashScript runs a script with bash, args and extra environment, and returns
// its combined output and exit status.
func bashScript(t *testing.T, script string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{script}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}

func writeScripts(t *testing.T, j *sweep.SlurmJob) {
	t.Helper()
	for name, fn := range map[string]func() (string, error){sweep.SlurmArrayScript: j.ArrayScript, sweep.SlurmMergeScript: j.MergeScript} {
		text, err := fn()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(j.Dir, name), []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func TestArrayScriptRunsItsShard(t *testing.T) {
	dir := t.TempDir()
	j := &sweep.SlurmJob{Ccsweep: fakeTool(t, dir, "ccsweep", ""), Dir: dir, Name: "g", Tasks: 12,
		RunFlags: []string{"--no-report"}, MaxArraySize: 10}
	writeScripts(t, j)
	script := filepath.Join(dir, sweep.SlurmArrayScript)
	env := func(task string, more ...string) []string {
		return append([]string{"SLURM_ARRAY_TASK_ID=" + task, "SLURM_ARRAY_JOB_ID=77", "SLURM_CPUS_PER_TASK="}, more...)
	}
	grid, db := filepath.Join(dir, "grid.toml"), filepath.Join(dir, "shards", "shard-")
	tests := []struct {
		name   string
		env    []string
		args   []string
		want   string
		status int
	}{
		{"first array", env("4"), nil, "ccsweep run " + grid + " --shard 4/12 --db " + db + "4.db -j 1 --quiet --no-report", 0},
		{"offset", env("3", "SLURM_CPUS_PER_TASK=8"), []string{"9"}, "ccsweep run " + grid + " --shard 12/12 --db " + db + "12.db -j 8 --quiet --no-report", 0},
		{"past the last shard", env("4"), []string{"9"}, "", 2},
		{"not an array task", []string{"SLURM_ARRAY_TASK_ID="}, nil, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, status := bashScript(t, script, tt.env, tt.args...)
			got := calls(t, dir)
			if status != tt.status {
				t.Fatalf("exit %d, want %d\n%s", status, tt.status, out)
			}
			if tt.want == "" {
				if got[0] != "" || !strings.Contains(out, "job.sbatch") {
					t.Fatalf("ran %q; output %q", got, out)
				}
				return
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Fatalf("ran %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestMergeScript(t *testing.T) {
	tests := []struct {
		name   string
		shards []string
		fake   string // body of the fake ccsweep
		status int
		want   []string
	}{
		{"merges, reports", []string{"shard-1.db", "shard-2.db"}, "", 0, []string{"merge R S1 S2", "status D", "report R -o D/report.html"}},
		{"report fails", []string{"shard-2.db"}, `[ "$1" = report ] && exit 2; exit 0`, 0, []string{"merge R S2", "status D", "report R -o D/report.html"}},
		{"merge fails", []string{"shard-1.db"}, `[ "$1" = merge ] && exit 1; exit 0`, 1, []string{"merge R S1"}},
		{"no shards", nil, "", 1, []string{""}},
		{"offline report", []string{"shard-1.db"}, "", 0, []string{"merge R S1", "status D", "report R -o D/report.html --assets /opt/my assets"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			j := &sweep.SlurmJob{Ccsweep: fakeTool(t, dir, "ccsweep", tt.fake), Dir: dir, Name: "g", Tasks: 2, MaxArraySize: 10}
			if tt.name == "offline report" {
				j.Assets = "/opt/my assets"
			}
			writeScripts(t, j)
			os.MkdirAll(filepath.Join(dir, "shards"), 0o755)
			for _, s := range tt.shards {
				os.WriteFile(filepath.Join(dir, "shards", s), nil, 0o644)
				os.WriteFile(filepath.Join(dir, "shards", s+"-wal"), nil, 0o644) // never an input
			}
			out, status := bashScript(t, filepath.Join(dir, sweep.SlurmMergeScript), nil)
			if status != tt.status {
				t.Fatalf("exit %d, want %d\n%s", status, tt.status, out)
			}
			r := strings.NewReplacer(filepath.Join(dir, "results.db"), "R", filepath.Join(dir, "shards", "shard-"), "S",
				".db", "", dir, "D", "ccsweep ", "")
			got := calls(t, dir)
			for i := range got {
				got[i] = r.Replace(got[i])
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("ran %q\nwant %q\n%s", got, tt.want, out)
			}
		})
	}
}

func TestSubmitScriptChainsTheMergeJob(t *testing.T) {
	dir := t.TempDir()
	bin := t.TempDir()
	// The fake sbatch prints job IDs 101, 102, ... as sbatch --parsable does
	// on a federated cluster ("ID;cluster").
	fakeTool(t, bin, "sbatch", `n=$(wc -l < `+filepath.Join(bin, "calls")+`); echo "$((100 + n));cluster"`)
	j := &sweep.SlurmJob{Ccsweep: "/usr/bin/ccsweep", Dir: dir, Name: "g", Tasks: 7, MaxArraySize: 4, Throttle: 2}
	chunks, err := sweep.SplitArray([]int{1, 2, 3, 4, 5, 6, 7}, j.MaxArraySize, j.Throttle)
	if err != nil {
		t.Fatal(err)
	}
	text, err := j.SubmitScript(chunks)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, sweep.SlurmSubmit)
	os.WriteFile(script, []byte(text), 0o755)
	out, status := bashScript(t, script, []string{"PATH=" + bin + ":" + os.Getenv("PATH")})
	if status != 0 {
		t.Fatalf("exit %d\n%s", status, out)
	}
	js, ms := filepath.Join(dir, "job.sbatch"), filepath.Join(dir, "merge.sbatch")
	want := []string{
		"sbatch --parsable --array=1-3%2 " + js + " 0",
		"sbatch --parsable --array=1-3%2 " + js + " 3",
		"sbatch --parsable --array=1%2 " + js + " 6",
		"sbatch --parsable --dependency=afterany:101:102:103 " + ms,
	}
	if got := calls(t, bin); !slices.Equal(got, want) {
		t.Fatalf("ran\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out, "merge job 104") {
		t.Fatalf("output: %s", out)
	}
	// The Go side submits with the same arguments.
	if got := strings.Join(j.ArraySubmitArgs(chunks[1]), " "); got != strings.TrimPrefix(want[1], "sbatch ") {
		t.Fatalf("ArraySubmitArgs: %s", got)
	}
	if got := strings.Join(j.MergeSubmitArgs([]string{"101", "102", "103"}), " "); got != strings.TrimPrefix(want[3], "sbatch ") {
		t.Fatalf("MergeSubmitArgs: %s", got)
	}
}

func TestTallyAcrossDatabases(t *testing.T) {
	ctx := context.Background()
	g := parse(t, smallGrid)
	whole, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	db1, db2 := openDB(t, "1.db"), openDB(t, "2.db")
	runGrid(t, g, db1, sweep.Options{Workers: 2, Shard: sweep.Shard{Index: 1, Count: 2}})
	shard1, _ := sweep.NewPlan(g, sweep.Shard{Index: 1, Count: 2})
	shard2, _ := sweep.NewPlan(g, sweep.Shard{Index: 2, Count: 2})
	n1, n2 := shard1.Len(), shard2.Len()

	// One point of shard 2 failed in db2.
	pt := shard2.Point(0)
	failed := store.Result{Point: store.Point{ID: shard2.ID(0), GridID: shard2.GridID, Scenario: pt.Scenario, Seed: pt.Seed},
		Status: store.StatusFailed, Err: "boom", ModelVersion: model.Version, Started: time.Now(), Finished: time.Now()}
	for _, p := range pt.Params {
		failed.Point.Params = append(failed.Point.Params, store.Param{Name: p.Name, Value: p.Value})
	}
	if err := db2.SaveGrid(ctx, store.GridRecord{ID: shard2.GridID, Name: g.Name, Scenario: g.Scenario,
		ModelVersion: model.Version, Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	if err := db2.SaveResults(ctx, []store.Result{failed}); err != nil {
		t.Fatal(err)
	}
	check := func(name string, p *sweep.Plan, want sweep.Tally, dbs ...*store.DB) {
		t.Helper()
		got, err := p.Tally(ctx, dbs...)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%s: %+v, want %+v", name, got, want)
		}
		if got.Complete() != (want.Done == want.Points) {
			t.Fatalf("%s: Complete() = %v", name, got.Complete())
		}
	}
	total := n1 + n2
	check("shard 1 alone", shard1, sweep.Tally{Points: n1, Done: n1}, db1)
	check("whole grid in db1", whole, sweep.Tally{Points: total, Done: n1, Missing: n2}, db1)
	check("whole grid in both", whole, sweep.Tally{Points: total, Done: n1, Failed: 1, Missing: n2 - 1}, db1, db2)
	check("no database", whole, sweep.Tally{Points: total, Missing: total})

	runGrid(t, g, db2, sweep.Options{Workers: 2, Shard: sweep.Shard{Index: 2, Count: 2}}) // retries the failed point
	check("after shard 2 ran", whole, sweep.Tally{Points: total, Done: total}, db1, db2)
	if sum := (sweep.Tally{Points: 1, Done: 1}).Add(sweep.Tally{Points: 2, Failed: 1, Missing: 1}); sum != (sweep.Tally{Points: 3, Done: 1, Failed: 1, Missing: 1}) {
		t.Fatalf("Add: %+v", sum)
	}
}
