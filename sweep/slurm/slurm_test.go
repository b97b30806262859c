package slurm_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/sweep/slurm"
	_ "modernc.org/sqlite"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

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
			got, err := slurm.SplitArray(tt.shards, tt.max, tt.throttle)
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
			if _, err := slurm.SplitArray(bad.shards, bad.max, 0); err == nil {
				t.Errorf("SplitArray(%v, %d): no error", bad.shards, bad.max)
			}
		})
	}
}

func TestParseMaxArraySize(t *testing.T) {
	config := "Configuration data as of 2024-01-01T00:00:00\nMailProg                = /bin/true\nMaxArraySize            = 10001\nMaxJobCount             = 10000\n"
	if n, err := slurm.ParseMaxArraySize(config); err != nil || n != 10001 {
		t.Fatalf("got %d, %v; want 10001", n, err)
	}
	if _, err := slurm.ParseMaxArraySize("MaxJobCount = 10000\n"); err == nil {
		t.Fatal("no MaxArraySize: no error")
	}
}

// exampleJob is a job with every option set, at fixed paths.
func exampleJob() *slurm.Job {
	return &slurm.Job{Ccsweep: "/home/me/bin/ccsweep", Dir: "/scratch/me/fig11", Name: "fig11-14", Tasks: 12,
		Partition: "compute", Time: "2:00:00", Mem: "4G", Account: "ib-research", CPUsPerTask: 4, Throttle: 6,
		Extra: []string{"--qos=long", "--constraint=skylake"}, RunFlags: []string{"--no-report"}, MaxArraySize: 10001}
}

func TestSlurmScriptsGolden(t *testing.T) {
	minimal := func() *slurm.Job {
		return &slurm.Job{Ccsweep: "/opt/ccsweep/bin/ccsweep", Dir: "/scratch/me/quick", Name: "quick", Tasks: 3, MaxArraySize: 1001}
	}
	split := exampleJob()
	split.MaxArraySize = 5
	assets := minimal()
	assets.Assets = "/opt/ccsweep/assets"
	tests := []struct {
		name string
		job  *slurm.Job
	}{{"every-option", exampleJob()}, {"minimal", minimal()}, {"split", split}, {"assets", assets}}
	g := parse(t, unevenGrid) // 16 points: enough for every job's shards
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The directories do not exist here, and NewSetup writes nothing.
			setup, err := slurm.NewSetup(tt.job, g, "grid.toml", []byte(unevenGrid))
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{slurm.ArrayFile, slurm.MergeFile, slurm.SubmitFile} {
				got := setup.Script(name)
				golden := filepath.Join("testdata", tt.name, name)
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
		edit  func(j *slurm.Job)
		field string // of the OptionError
		want  string // in its message
	}{
		{"relative dir", func(j *slurm.Job) { j.Dir = "out" }, "Dir", `output directory "out": not an absolute path`},
		{"relative binary", func(j *slurm.Job) { j.Ccsweep = "ccsweep" }, "Ccsweep", "not an absolute path"},
		{"space in dir", func(j *slurm.Job) { j.Dir = "/scratch/my runs" }, "Dir", "holds a space"},
		{"percent in dir", func(j *slurm.Job) { j.Dir = "/scratch/100%" }, "Dir", "holds a space, quote, backslash or %"},
		{"bad name", func(j *slurm.Job) { j.Name = "a b" }, "Name", `grid name "a b": not a valid job name`},
		{"no tasks", func(j *slurm.Job) { j.Tasks = 0 }, "Tasks", "task count 0: want at least 1"},
		{"time with unit", func(j *slurm.Job) { j.Time = "2h" }, "Time", `time limit "2h": want minutes`},
		{"time with letters", func(j *slurm.Job) { j.Time = "1-2:3:x" }, "Time", `time limit "1-2:3:x"`},
		{"memory unit", func(j *slurm.Job) { j.Mem = "4GB" }, "Mem", `memory "4GB"`},
		{"partition with space", func(j *slurm.Job) { j.Partition = "a b" }, "Partition", `partition "a b"`},
		{"account with quote", func(j *slurm.Job) { j.Account = `x"` }, "Account", `account "x\""`},
		{"negative cpus", func(j *slurm.Job) { j.CPUsPerTask = -1 }, "CPUsPerTask", "CPUs per task -1"},
		{"negative throttle", func(j *slurm.Job) { j.Throttle = -1 }, "Throttle", "throttle -1"},
		{"no arrays", func(j *slurm.Job) { j.MaxArraySize = 1 }, "MaxArraySize", "takes no job arrays"},
		{"relative assets", func(j *slurm.Job) { j.Assets = "assets" }, "Assets", `assets directory "assets": not an absolute path`},
		{"extra not an option", func(j *slurm.Job) { j.Extra = []string{"qos=long"} }, "Extra", `sbatch option "qos=long"`},
		{"extra array", func(j *slurm.Job) { j.Extra = []string{"--array=1-3"} }, "Extra", "set the array themselves"},
		{"extra short array", func(j *slurm.Job) { j.Extra = []string{"-a1-3"} }, "Extra", "set the array themselves"},
		{"extra dependency", func(j *slurm.Job) { j.Extra = []string{"--dependency", "afterok:1"} }, "Extra", "depends on the array"},
		{"extra line break", func(j *slurm.Job) { j.Extra = []string{"--qos=long\n#SBATCH --x"} }, "Extra", "line break"},
		{"run flag line break", func(j *slurm.Job) { j.RunFlags = []string{"--x\ny"} }, "RunFlags", "control character"},
	}
	if err := exampleJob().Validate(); err != nil {
		t.Fatalf("example job: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := exampleJob()
			tt.edit(j)
			err := j.Validate()
			var oe *slurm.OptionError
			if !errors.As(err, &oe) || !errors.Is(err, slurm.ErrOption) || oe.Field != tt.field || !strings.Contains(err.Error(), tt.want) {
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

func writeScripts(t *testing.T, j *slurm.Job) {
	t.Helper()
	for name, fn := range map[string]func() (string, error){slurm.ArrayFile: j.ArrayScript, slurm.MergeFile: j.MergeScript} {
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
	j := &slurm.Job{Ccsweep: fakeTool(t, dir, "ccsweep", ""), Dir: dir, Name: "g", Tasks: 12,
		RunFlags: []string{"--no-report"}, MaxArraySize: 10}
	writeScripts(t, j)
	script := filepath.Join(dir, slurm.ArrayFile)
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
			j := &slurm.Job{Ccsweep: fakeTool(t, dir, "ccsweep", tt.fake), Dir: dir, Name: "g", Tasks: 2, MaxArraySize: 10}
			if tt.name == "offline report" {
				j.Assets = "/opt/my assets"
			}
			writeScripts(t, j)
			os.MkdirAll(filepath.Join(dir, "shards"), 0o755)
			for _, s := range tt.shards {
				os.WriteFile(filepath.Join(dir, "shards", s), nil, 0o644)
				os.WriteFile(filepath.Join(dir, "shards", s+"-wal"), nil, 0o644) // never an input
			}
			out, status := bashScript(t, filepath.Join(dir, slurm.MergeFile), nil)
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
	j := &slurm.Job{Ccsweep: "/usr/bin/ccsweep", Dir: dir, Name: "g", Tasks: 7, MaxArraySize: 4, Throttle: 2}
	chunks, err := slurm.SplitArray([]int{1, 2, 3, 4, 5, 6, 7}, j.MaxArraySize, j.Throttle)
	if err != nil {
		t.Fatal(err)
	}
	text, err := j.SubmitScript(chunks)
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, slurm.SubmitFile)
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

// The script carries the whole array (#SBATCH --array) only while every
// shard's number is a valid task ID, that is below MaxArraySize.
func TestArrayScriptCarriesTheArrayOnlyBelowMaxArraySize(t *testing.T) {
	for _, tt := range []struct {
		tasks, max int
		want       string // the #SBATCH --array line; "" for none
	}{
		{3, 4, "#SBATCH --array=1-3\n"},
		{4, 4, ""}, // task 4 is not a valid task ID where MaxArraySize is 4
		{5, 4, ""},
	} {
		j := &slurm.Job{Ccsweep: "/usr/bin/ccsweep", Dir: "/scratch/g", Name: "g", Tasks: tt.tasks, MaxArraySize: tt.max}
		text, err := j.ArrayScript()
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if i := strings.Index(text, "#SBATCH --array"); i >= 0 {
			got = text[i : i+strings.IndexByte(text[i:], '\n')+1]
		}
		if got != tt.want {
			t.Errorf("%d tasks, MaxArraySize %d: array line %q, want %q", tt.tasks, tt.max, got, tt.want)
		}
	}
}

// A grid may be split in as many shards as it has points, one point each.
func TestNewSetupTakesOneShardAPoint(t *testing.T) {
	g := parse(t, smallGrid)
	job := &slurm.Job{Ccsweep: "/bin/ccsweep", Dir: t.TempDir(), Name: g.Name, Tasks: g.Count(), MaxArraySize: 1001}
	if _, err := slurm.NewSetup(job, g, "grid.toml", []byte(smallGrid)); err != nil {
		t.Fatalf("%d shards of %d points: %v", job.Tasks, g.Count(), err)
	}
}
