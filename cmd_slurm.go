package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/sweep"
)

func slurmCommand() *cli.Command {
	return &cli.Command{
		Name:  "slurm",
		Usage: "write, and with --submit queue, a Slurm job array that runs a grid in shards, then merges them",
		UsageText: "ccsweep slurm GRID.toml --tasks N --dir OUT [--partition P] [--time T] [--mem M] [--cpus-per-task C]\n" +
			"      [--account A] [--extra 'sbatch option' ...] [--throttle K] [--max-array-size M] [--ccsweep PATH]\n" +
			"      [--assets DIR] [--submit]\n\n" +
			"Writes OUT/grid.toml (a copy of the grid), OUT/job.sbatch (a job array: task I runs shard I of N into\n" +
			"OUT/shards/shard-I.db), OUT/merge.sbatch (merges the shards into OUT/results.db and writes\n" +
			"OUT/report.html, which inlines the chart scripts ccsweep ships, or those of --assets DIR, and opens offline) and\n" +
			"OUT/submit.sh (submits both, the merge after the array). With --submit it calls sbatch itself, prints\n" +
			"the job IDs and exits. Run again with --submit on the same OUT, it submits only the shards that still\n" +
			"miss points, and the merge job.",
		Flags: append([]cli.Flag{
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
			slurmAssetsFlag(),
			&cli.BoolFlag{Name: "submit", Usage: "submit the jobs with sbatch, print their IDs and exit"},
		}, slurmRoundFlags()...),
		OnUsageError: commandUsageError,
		Action:       slurmAction,
	}
}

// slurmAssetsFlag is report's --assets, also read from CCSWEEP_ASSETS: the
// folder the merge job's report inlines the chart scripts from.
func slurmAssetsFlag() cli.Flag {
	f := assetsFlag().(*cli.StringFlag)
	if len(f.EnvVars) == 0 {
		f.EnvVars = []string{"CCSWEEP_ASSETS"}
	}
	f.Usage = "folder with echarts.min.js and echarts-gl.min.js, as the compute nodes see it, that the merge job's report inlines (default: the copies ccsweep ships)"
	return f
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
	var sched sweep.SlurmCLI
	job, err := slurmJob(c, g.Name, sched)
	if err != nil {
		return err
	}
	rounds, err := slurmRounds(c, g, job)
	if err != nil {
		return err
	}
	setup, err := sweep.NewSlurmSetup(job, g, gridPath, gridText)
	if err != nil {
		return slurmError(err)
	}
	setup.Rounds = rounds
	if c.Bool("next-round") {
		return nextRound(c, setup, sched)
	}

	// Everything is checked: what to submit, then the files, then sbatch.
	submit := c.Bool("submit")
	var todo sweep.Outstanding
	if submit {
		if err := sched.CheckSbatch(); err != nil {
			return slurmError(err)
		}
		if todo, err = setup.Outstanding(ctx, sched); err != nil {
			return slurmError(err)
		}
		if todo.Nothing() {
			fmt.Fprintf(c.App.Writer, "grid %s: all %d points are done and merged in %s; nothing to submit\n",
				g.Name, g.Count(), setup.Dir().ResultsDB())
			return nil
		}
	}
	if err := setup.Write(); err != nil {
		return slurmError(err)
	}
	out := c.App.Writer
	split := ""
	if n := len(setup.Arrays()); n > 1 {
		split = fmt.Sprintf(", split into %d arrays (MaxArraySize %d)", n, job.MaxArraySize)
	}
	fmt.Fprintf(out, "grid %s: %d points in %d shards%s; wrote %s, %s, %s and %s in %s\n", g.Name, g.Count(), job.Tasks, split,
		sweep.SlurmGridFile, sweep.SlurmArrayScript, sweep.SlurmMergeScript, sweep.SlurmSubmit, job.Dir)
	if !submit {
		fmt.Fprintf(out, "submit with: bash %s (or this command again with --submit)\n", setup.Dir().File(sweep.SlurmSubmit))
		return nil
	}
	sub, err := setup.Submit(ctx, sched, todo)
	if sub == nil {
		return slurmError(err)
	}
	printSubmission(out, setup, sub)
	if err != nil {
		return slurmError(err)
	}
	if len(todo.Shards) > 0 && len(todo.Shards) < job.Tasks {
		fmt.Fprintf(out, "%d of %d shards were complete; %d points still to run\n", job.Tasks-len(todo.Shards), job.Tasks, todo.Points)
	}
	fmt.Fprintf(out, "follow with: squeue -j %s; ccsweep status %s\n", strings.Join(sub.Jobs(), ","), job.Dir)
	return nil
}

// printSubmission prints the job IDs of a submission.
func printSubmission(out io.Writer, setup *sweep.SlurmSetup, sub *sweep.Submitted) {
	for i, c := range sub.Arrays {
		what := "shard"
		if len(c.Shards) > 1 {
			what = "shards"
		}
		fmt.Fprintf(out, "submitted %s %s of %d as array job %s (--array=%s, offset %d)\n",
			what, sweep.RangeList(c.Shards), setup.Job.Tasks, sub.ArrayJobs[i], c.Spec, c.Offset)
	}
	after := "at once, as every shard is complete"
	if len(sub.ArrayJobs) > 0 {
		after = "once the array has ended"
	}
	fmt.Fprintf(out, "submitted the merge job %s, to run %s: results in %s, report in %s\n",
		sub.MergeJob, after, setup.Dir().ResultsDB(), setup.Dir().Report())
}

// slurmJob builds the description of the jobs of grid name from the flags;
// sweep checks it.
func slurmJob(c *cli.Context, name string, sched sweep.Scheduler) (*sweep.SlurmJob, error) {
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
	assets := c.String("assets")
	if assets == cdnAssets {
		return nil, usagef("--assets %s: the merge job's report inlines the chart scripts ccsweep ships; run ccsweep report --assets cdn on the merged database for a page that loads them from the CDN", assets)
	}
	if assets != "" {
		if _, err := loadAssets(assets); err != nil {
			return nil, err
		}
		if assets, err = filepath.Abs(assets); err != nil {
			return nil, usagef("--assets %s: %v", c.String("assets"), err)
		}
	}
	maxArray := c.Int("max-array-size")
	if !c.IsSet("max-array-size") {
		var why error
		if maxArray, why = sched.MaxArraySize(c.Context); why != nil {
			fmt.Fprintf(c.App.ErrWriter, "ccsweep: could not read the cluster's MaxArraySize (%s); assuming Slurm's default %d (set --max-array-size)\n",
				oneLine(why.Error()), maxArray)
		}
	}
	return &sweep.SlurmJob{Ccsweep: exe, Dir: dir, Name: name, Tasks: c.Int("tasks"),
		Partition: c.String("partition"), Time: c.String("time"), Mem: c.String("mem"), Account: c.String("account"),
		CPUsPerTask: c.Int("cpus-per-task"), Throttle: c.Int("throttle"), Extra: c.StringSlice("extra"),
		RunFlags: jobRunFlags(), MaxArraySize: maxArray, Assets: assets}, nil
}

// slurmFlags names the flag of each SlurmJob field that comes from one.
var slurmFlags = map[string]string{
	"Ccsweep": "--ccsweep", "Dir": "--dir", "Tasks": "--tasks", "Time": "--time", "Mem": "--mem",
	"Partition": "--partition", "Account": "--account", "CPUsPerTask": "--cpus-per-task",
	"Throttle": "--throttle", "Extra": "--extra", "Assets": "--assets",
}

// slurmError turns sweep's errors about bad input into usage errors (exit
// status 2) that name the flag at fault.
func slurmError(err error) error {
	var (
		oe *sweep.OptionError
		ce *sweep.ShardCountError
		de *sweep.DirError
		se *sweep.SetupError
		qe *sweep.QueuedError
	)
	switch {
	case errors.As(err, &oe):
		if flag, ok := slurmFlags[oe.Field]; ok {
			return usagef("%s %s: %s", flag, oe.Value, oe.Reason)
		}
		return usageError{err}
	case errors.As(err, &ce):
		return tasksError(ce)
	case errors.As(err, &se) && se.OnlyTasksDiffer():
		return usagef("--dir %s was set up for --tasks %d; use --tasks %d, or another directory", se.Dir, se.Setup.Tasks, se.Setup.Tasks)
	case errors.As(err, &se) || errors.As(err, &de):
		return usagef("--dir %v", err)
	case errors.As(err, &qe), errors.Is(err, sweep.ErrSlurmOption):
		return usageError{err}
	case errors.Is(err, sweep.ErrNoSbatch):
		return usagef("%v, or leave out --submit", err)
	}
	return err
}

// tasksError words a shard count the grid cannot be split into as a usage
// error naming --tasks.
func tasksError(e *sweep.ShardCountError) error {
	if e.Shards < 1 {
		return usagef("--tasks %d: want at least 1", e.Shards)
	}
	return usagef("--tasks %d: grid %s has only %d points; use at most %d tasks", e.Shards, e.Grid, e.Points, e.Points)
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
