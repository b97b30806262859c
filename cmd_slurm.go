package main

import (
	"errors"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/slurm"
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
	var sched slurm.CLI
	job, err := slurmJob(c, g.Name, sched)
	if err != nil {
		return err
	}
	rounds, err := slurmRounds(c, g, job)
	if err != nil {
		return err
	}
	setup, err := slurm.NewSetup(job, g, gridPath, gridText)
	if err != nil {
		return slurmError(err)
	}
	setup.Rounds = rounds
	if c.Bool("next-round") {
		setup.Self = os.Getenv("SLURM_JOB_ID")
		return slurmError(setup.NextRound(ctx, sched, c.App.Writer))
	}
	return slurmError(setup.Run(ctx, sched, c.Bool("submit"), c.App.Writer))
}

// slurmError turns the slurm package's errors about bad input into usage
// errors (exit status 2) that name the flag at fault.
func slurmError(err error) error {
	var ue *slurm.UsageError
	if errors.As(slurm.Usage(err), &ue) {
		return usageError{ue}
	}
	return err
}

// tasksError words a shard count the grid cannot be split into as a usage
// error naming --tasks.
func tasksError(e *sweep.ShardCountError) error { return slurmError(e) }
