package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/store/atomicfile"
	"github.com/ccsweep/ccsweep/sweep"
)

func slurmCommand() *cli.Command {
	return &cli.Command{
		Name:  "slurm",
		Usage: "write, and with --submit queue, a Slurm job array that runs a grid in shards, then merges them",
		UsageText: "ccsweep slurm GRID.toml --tasks N --dir OUT [--partition P] [--time T] [--mem M] [--cpus-per-task C]\n" +
			"      [--account A] [--extra 'sbatch option' ...] [--throttle K] [--max-array-size M] [--ccsweep PATH] [--submit]\n\n" +
			"Writes OUT/grid.toml (a copy of the grid), OUT/job.sbatch (a job array: task I runs shard I of N into\n" +
			"OUT/shards/shard-I.db), OUT/merge.sbatch (merges the shards into OUT/results.db and writes\n" +
			"OUT/report.html) and OUT/submit.sh (submits both, the merge after the array). With --submit it calls\n" +
			"sbatch itself, prints the job IDs and exits. Run again with --submit on the same OUT, it submits only\n" +
			"the shards that still miss points, and the merge job.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "tasks", Usage: "number of array tasks, each running one shard of the points (required)", DefaultText: "none"},
			&cli.StringFlag{Name: "dir", Usage: "output directory, on a file system the compute nodes share (required)"},
			&cli.StringFlag{Name: "partition", Aliases: []string{"p"}, Usage: "sbatch --partition of both jobs"},
			&cli.StringFlag{Name: "time", Aliases: []string{"t"}, Usage: "sbatch --time of each job, e.g. 2:00:00"},
			&cli.StringFlag{Name: "mem", Usage: "sbatch --mem of each job, e.g. 4G"},
			&cli.IntFlag{Name: "cpus-per-task", Aliases: []string{"c"}, Usage: "sbatch --cpus-per-task of the array tasks; each runs that many simulations at once", DefaultText: "the cluster's, 1"},
			&cli.StringFlag{Name: "account", Aliases: []string{"A"}, Usage: "sbatch --account of both jobs"},
			&cli.StringSliceFlag{Name: "extra", Usage: "a further sbatch option for both jobs, e.g. --extra=--qos=long (repeatable)"},
			&cli.IntFlag{Name: "throttle", Usage: "run at most this many tasks of the array at once (sbatch --array=...%K)", DefaultText: "no limit"},
			&cli.IntFlag{Name: "max-array-size", Usage: "the cluster's MaxArraySize; larger arrays are split", DefaultText: "from scontrol show config"},
			&cli.StringFlag{Name: "ccsweep", Usage: "the ccsweep binary the jobs run, as the compute nodes see it (default: this one)"},
			&cli.BoolFlag{Name: "submit", Usage: "submit the jobs with sbatch, print their IDs and exit"},
		},
		OnUsageError: commandUsageError,
		Action:       slurmAction,
	}
}

// slurmManifestFile, in the output directory, records what ccsweep slurm set
// up there and submitted.
const slurmManifestFile = "slurm.json"

// slurmManifest is the content of slurmManifestFile.
type slurmManifest struct {
	Format       string            `json:"format"`
	Grid         string            `json:"grid"`
	GridID       string            `json:"grid_id"`
	ModelVersion string            `json:"model_version"`
	Points       int               `json:"points"`
	Tasks        int               `json:"tasks"`
	Submissions  []slurmSubmission `json:"submissions,omitempty"`
}

// slurmSubmission is one ccsweep slurm --submit.
type slurmSubmission struct {
	Time      time.Time `json:"time"`
	Shards    []int     `json:"shards"`
	ArrayJobs []string  `json:"array_jobs"`
	MergeJob  string    `json:"merge_job"`
}

const slurmManifestFormat = "ccsweep-slurm/1"

// readManifest reads dir's manifest; it returns nil and no error if there is
// none.
func readManifest(dir string) (*slurmManifest, error) {
	path := filepath.Join(dir, slurmManifestFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, usagef("%s: %v", path, err)
	}
	var m slurmManifest
	if err := json.Unmarshal(data, &m); err != nil || m.Format != slurmManifestFormat {
		return nil, usagef("%s: not a manifest written by ccsweep slurm", path)
	}
	return &m, nil
}

func slurmAction(c *cli.Context) error {
	ctx := c.Context
	if c.NArg() != 1 {
		return usagef("slurm takes one grid file, got %d arguments", c.NArg())
	}
	if !c.IsSet("tasks") {
		return usagef("slurm needs --tasks N, the number of array tasks (shards) to split the grid into")
	}
	if c.String("dir") == "" {
		return usagef("slurm needs --dir OUT, the directory for the scripts, shard databases and results")
	}
	gridPath := c.Args().First()
	g, err := loadGrid(gridPath)
	if err != nil {
		return err
	}
	gridText, err := os.ReadFile(gridPath)
	if err != nil {
		return usagef("read grid: %v", err)
	}
	job, err := slurmJob(c, g)
	if err != nil {
		return err
	}
	gridID := sweep.GridID(g)
	manifest, err := checkOutDir(job.Dir, g, gridID, job.Tasks)
	if err != nil {
		return err
	}
	scripts, chunks, err := renderSlurm(job)
	if err != nil {
		return err
	}

	// Everything is checked: what to submit, then the files, then sbatch.
	submit := c.Bool("submit")
	var todo []int
	var todoPoints int
	if submit {
		if _, err := exec.LookPath("sbatch"); err != nil {
			return usagef("sbatch is not on PATH: submit from a Slurm login node, or leave out --submit")
		}
		plans, err := sweep.ShardPlans(g, job.Tasks)
		if err != nil {
			return usageError{err}
		}
		var mergeOnly bool
		if todo, todoPoints, mergeOnly, err = shardsToSubmit(ctx, job, plans); err != nil {
			return err
		}
		if len(todo) == 0 && !mergeOnly {
			fmt.Fprintf(c.App.Writer, "grid %s: all %d points are done and merged in %s; nothing to submit\n",
				g.Name, g.Count(), job.ResultsDB())
			return nil
		}
		if err := checkQueue(ctx, manifest, job.Dir); err != nil {
			return err
		}
	}
	if manifest == nil {
		manifest = &slurmManifest{Format: slurmManifestFormat, Grid: g.Name, GridID: gridID,
			ModelVersion: model.Version, Points: g.Count(), Tasks: job.Tasks}
	}
	if err := writeSlurmDir(job, gridPath, gridText, gridID, scripts, manifest); err != nil {
		return err
	}
	out := c.App.Writer
	split := ""
	if len(chunks) > 1 {
		split = fmt.Sprintf(", split into %d arrays (MaxArraySize %d)", len(chunks), job.MaxArraySize)
	}
	fmt.Fprintf(out, "grid %s: %d points in %d shards%s; wrote %s, %s, %s and %s in %s\n", g.Name, g.Count(), job.Tasks, split,
		sweep.SlurmGridFile, sweep.SlurmArrayScript, sweep.SlurmMergeScript, sweep.SlurmSubmit, job.Dir)
	if !submit {
		fmt.Fprintf(out, "submit with: bash %s (or this command again with --submit)\n", filepath.Join(job.Dir, sweep.SlurmSubmit))
		return nil
	}
	sub, err := submitSlurm(ctx, job, todo, out)
	if err != nil {
		return err
	}
	manifest.Submissions = append(manifest.Submissions, *sub)
	if err := writeManifest(job.Dir, manifest); err != nil {
		return err
	}
	if len(todo) > 0 && len(todo) < job.Tasks {
		fmt.Fprintf(out, "%d of %d shards were complete; %d points still to run\n", job.Tasks-len(todo), job.Tasks, todoPoints)
	}
	ids := strings.Join(append(slices.Clone(sub.ArrayJobs), sub.MergeJob), ",")
	fmt.Fprintf(out, "follow with: squeue -j %s; ccsweep status %s\n", ids, job.Dir)
	return nil
}

// slurmJob builds the jobs' description from the flags, checking each.
func slurmJob(c *cli.Context, g *grids.Grid) (*sweep.SlurmJob, error) {
	tasks := c.Int("tasks")
	if tasks > g.Count() {
		return nil, usagef("--tasks %d: grid %s has only %d points; use at most %d tasks", tasks, g.Name, g.Count(), g.Count())
	}
	if c.IsSet("cpus-per-task") && c.Int("cpus-per-task") < 1 {
		return nil, usagef("--cpus-per-task %d: want at least 1", c.Int("cpus-per-task"))
	}
	dir, err := filepath.Abs(c.String("dir"))
	if err != nil {
		return nil, usagef("--dir %s: %v", c.String("dir"), err)
	}
	exe, err := ccsweepBinary(c.String("ccsweep"))
	if err != nil {
		return nil, err
	}
	maxArray := c.Int("max-array-size")
	if !c.IsSet("max-array-size") {
		var why error
		if maxArray, why = clusterMaxArraySize(c.Context); why != nil {
			fmt.Fprintf(c.App.ErrWriter, "ccsweep: could not read the cluster's MaxArraySize (%s); assuming Slurm's default %d (set --max-array-size)\n",
				oneLine(why.Error()), maxArray)
		}
	}
	job := &sweep.SlurmJob{Ccsweep: exe, Dir: dir, Name: g.Name, Tasks: tasks,
		Partition: c.String("partition"), Time: c.String("time"), Mem: c.String("mem"), Account: c.String("account"),
		CPUsPerTask: c.Int("cpus-per-task"), Throttle: c.Int("throttle"), Extra: c.StringSlice("extra"),
		RunFlags: jobRunFlags(), MaxArraySize: maxArray}
	if err := job.Validate(); err != nil {
		return nil, usageError{err}
	}
	return job, nil
}

// renderSlurm renders the scripts, by file name, and the arrays that
// submit.sh submits: every shard.
func renderSlurm(job *sweep.SlurmJob) (map[string]string, []sweep.ArrayChunk, error) {
	all := make([]int, job.Tasks)
	for i := range all {
		all[i] = i + 1
	}
	chunks, err := sweep.SplitArray(all, job.MaxArraySize, job.Throttle)
	if err != nil {
		return nil, nil, usageError{err}
	}
	render := map[string]func() (string, error){
		sweep.SlurmArrayScript: job.ArrayScript,
		sweep.SlurmMergeScript: job.MergeScript,
		sweep.SlurmSubmit:      func() (string, error) { return job.SubmitScript(chunks) },
	}
	scripts := map[string]string{}
	for name, fn := range render {
		text, err := fn()
		if err != nil {
			return nil, nil, usageError{err}
		}
		scripts[name] = text
	}
	return scripts, chunks, nil
}

// jobRunFlags returns the flags the array tasks pass to ccsweep run beyond
// the ones they always pass: --no-report where run has it, as the merge job
// writes the one report.
func jobRunFlags() []string {
	for _, f := range runCommand().Flags {
		if slices.Contains(f.Names(), "no-report") {
			return []string{"--no-report"}
		}
	}
	return nil
}

// ccsweepBinary returns the absolute path of the binary the jobs run: path,
// or this executable.
func ccsweepBinary(path string) (string, error) {
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", usagef("cannot find the ccsweep binary (%v); give --ccsweep PATH", err)
		}
		path = exe
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", usagef("--ccsweep %s: %v", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", usagef("--ccsweep %s: not an executable file", path)
	}
	return abs, nil
}

// clusterMaxArraySize reads MaxArraySize from scontrol, or returns Slurm's
// default and why it could not.
func clusterMaxArraySize(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "scontrol", "show", "config").Output()
	if err != nil {
		return sweep.DefaultMaxArraySize, fmt.Errorf("scontrol show config: %w", err)
	}
	n, err := sweep.ParseMaxArraySize(string(out))
	if err != nil {
		return sweep.DefaultMaxArraySize, err
	}
	return n, nil
}

// checkOutDir makes sure that dir is new, empty, or set up by ccsweep slurm
// for the same grid, model version and number of tasks, and returns its
// manifest if it has one.
func checkOutDir(dir string, g *grids.Grid, gridID string, tasks int) (*slurmManifest, error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, usagef("--dir %s: %v", dir, err)
	case !fi.IsDir():
		return nil, usagef("--dir %s: not a directory", dir)
	}
	m, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	if m == nil {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, usagef("--dir %s: %v", dir, err)
		}
		if len(entries) > 0 {
			return nil, usagef("--dir %s is not empty and was not set up by ccsweep slurm; choose a new or empty directory", dir)
		}
		return nil, nil
	}
	switch {
	case m.ModelVersion != model.Version:
		return nil, usagef("--dir %s holds grid %s run by model %s, and this ccsweep runs model %s; choose another directory",
			dir, m.Grid, m.ModelVersion, model.Version)
	case m.GridID != gridID:
		return nil, usagef("--dir %s was set up for grid %s, and %s is another grid (or another version of it); choose another directory",
			dir, m.Grid, g.Path)
	}
	if m.Tasks != tasks {
		return nil, usagef("--dir %s was set up for --tasks %d; use --tasks %d, or another directory", dir, m.Tasks, m.Tasks)
	}
	return m, nil
}

// shardsToSubmit returns the shards whose points are not all done in their
// shard database or the merged one, and how many points they miss; when none
// is, mergeOnly tells whether the merged database still lacks points that
// the shards hold, so that only the merge job need run.
func shardsToSubmit(ctx context.Context, job *sweep.SlurmJob, plans []*sweep.Plan) (todo []int, points int, mergeOnly bool, err error) {
	results, err := openIfExists(job.ResultsDB())
	if err != nil {
		return nil, 0, false, err
	}
	if results != nil {
		defer results.Close()
	}
	merged := results != nil
	for i, plan := range plans {
		t, m, err := tallyShard(ctx, plan, job.ShardDB(i+1), results)
		if err != nil {
			return nil, 0, false, err
		}
		if !t.Complete() {
			todo = append(todo, i+1)
			points += t.Points - t.Done
		}
		merged = merged && m.Complete()
	}
	return todo, points, len(todo) == 0 && !merged, nil
}

// tallyShard counts a shard's points in its own database and the merged one
// together (t), and in the merged one alone (merged; zero if results is nil).
func tallyShard(ctx context.Context, plan *sweep.Plan, path string, results *store.DB) (t, merged sweep.Tally, err error) {
	shard, err := openIfExists(path)
	if err != nil {
		return t, merged, err
	}
	var dbs []*store.DB
	if shard != nil {
		defer shard.Close()
		dbs = append(dbs, shard)
	}
	if results != nil {
		dbs = append(dbs, results)
		if merged, err = plan.Tally(ctx, results); err != nil {
			return t, merged, err
		}
	}
	t, err = plan.Tally(ctx, dbs...)
	return t, merged, err
}

// openIfExists opens the database at path read-only, or returns nil if there
// is no such file.
func openIfExists(path string) (*store.DB, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	db, err := store.OpenReadOnly(path)
	if err != nil {
		return nil, usagef("%v; move it away and try again", err)
	}
	return db, nil
}

// checkQueue refuses to submit while jobs of the last submission to dir are
// still queued or running: they may yet finish the work, and a second merge
// could race the first.
func checkQueue(ctx context.Context, m *slurmManifest, dir string) error {
	if m == nil || len(m.Submissions) == 0 {
		return nil
	}
	last := m.Submissions[len(m.Submissions)-1]
	ids := append(slices.Clone(last.ArrayJobs), last.MergeJob)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "squeue", "--noheader", "--format=%F", "--jobs="+strings.Join(ids, ",")).Output()
	if err != nil {
		// squeue fails once the jobs have left the controller's memory.
		return nil
	}
	var queued []string
	for _, f := range strings.Fields(string(out)) {
		if slices.Contains(ids, f) && !slices.Contains(queued, f) {
			queued = append(queued, f)
		}
	}
	if len(queued) > 0 {
		return usagef("jobs %s of the last submission to %s are still queued or running; wait for them to end (or scancel them), then submit again",
			strings.Join(queued, ", "), dir)
	}
	return nil
}

// writeSlurmDir creates the output directory and writes the grid copy, the
// scripts and the manifest, each whole or not at all.
func writeSlurmDir(job *sweep.SlurmJob, gridPath string, gridText []byte, gridID string, scripts map[string]string, m *slurmManifest) error {
	for _, d := range []string{job.Dir, filepath.Join(job.Dir, sweep.SlurmShardDir), filepath.Join(job.Dir, sweep.SlurmLogDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return usagef("cannot create %s: %v", d, err)
		}
	}
	dst := job.GridPath()
	srcInfo, err1 := os.Stat(gridPath)
	dstInfo, err2 := os.Stat(dst)
	if err1 != nil || err2 != nil || !os.SameFile(srcInfo, dstInfo) {
		if err := writeFileAtomic(dst, gridText, 0o644); err != nil {
			return err
		}
	}
	// The jobs must see the same grid: same text, same identity.
	copied, err := grids.Load(dst)
	if err != nil || sweep.GridID(copied) != gridID {
		return fmt.Errorf("the copy %s of %s does not read back as the same grid: %v", dst, gridPath, err)
	}
	for _, name := range []string{sweep.SlurmArrayScript, sweep.SlurmMergeScript, sweep.SlurmSubmit} {
		if err := writeFileAtomic(filepath.Join(job.Dir, name), []byte(scripts[name]), 0o755); err != nil {
			return err
		}
	}
	return writeManifest(job.Dir, m)
}

func writeManifest(dir string, m *slurmManifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, slurmManifestFile), append(data, '\n'), 0o644)
}

// writeFileAtomic writes data to path through a temporary file beside it, so
// that path holds the old content or the new, never part of it.
func writeFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if err := atomicfile.WriteFile(path, data, perm); err != nil {
		return usagef("cannot write %s: %v", path, err)
	}
	return nil
}

// submitSlurm submits the shards todo as job arrays (none for a merge-only
// submission) and then the merge job after them, reporting each job ID to
// out. If a submission fails it cancels the jobs it submitted.
func submitSlurm(ctx context.Context, job *sweep.SlurmJob, todo []int, out io.Writer) (*slurmSubmission, error) {
	sub := &slurmSubmission{Time: time.Now().UTC().Round(time.Second), Shards: todo}
	chunks, err := sweep.SplitArray(todo, job.MaxArraySize, job.Throttle)
	if err != nil {
		return nil, usageError{err}
	}
	var lines []string
	for _, c := range chunks {
		id, err := sbatch(ctx, job.Dir, job.ArraySubmitArgs(c))
		if err != nil {
			cancelJobs(sub.ArrayJobs)
			return nil, err
		}
		sub.ArrayJobs = append(sub.ArrayJobs, id)
		what := "shard"
		if len(c.Shards) > 1 {
			what = "shards"
		}
		lines = append(lines, fmt.Sprintf("submitted %s %s of %d as array job %s (--array=%s, offset %d)\n",
			what, sweep.RangeList(c.Shards), job.Tasks, id, c.Spec, c.Offset))
	}
	id, err := sbatch(ctx, job.Dir, job.MergeSubmitArgs(sub.ArrayJobs))
	if err != nil {
		cancelJobs(sub.ArrayJobs)
		return nil, err
	}
	sub.MergeJob = id
	for _, l := range lines {
		fmt.Fprint(out, l)
	}
	after := "at once, as every shard is complete"
	if len(sub.ArrayJobs) > 0 {
		after = "once the array has ended"
	}
	fmt.Fprintf(out, "submitted the merge job %s, to run %s: results in %s, report in %s\n",
		id, after, job.ResultsDB(), filepath.Join(job.Dir, sweep.SlurmReport))
	return sub, nil
}

// sbatch runs sbatch --parsable ... in dir and returns the job ID.
func sbatch(ctx context.Context, dir string, args []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sbatch", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		if errors.Is(err, exec.ErrNotFound) {
			return "", usagef("sbatch is not on PATH: submit from a Slurm login node, or leave out --submit")
		}
		return "", fmt.Errorf("sbatch %s: %s", strings.Join(args, " "), msg)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(stdout.String()), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s printed %q, not a job ID", strings.Join(args, " "), stdout.String())
	}
	return id, nil
}

// cancelJobs cancels jobs submitted before a later submission failed.
func cancelJobs(ids []string) {
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	exec.CommandContext(ctx, "scancel", ids...).Run()
}
