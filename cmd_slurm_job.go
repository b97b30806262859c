package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
	"github.com/ccsweep/ccsweep/sweep/slurm"
)

// slurmRoundFlags are slurm's flags for grids that run in rounds.
func slurmRoundFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "refine", Usage: "refine the grid with up to N added points, in rounds: each round a job array, submitted by the merge job of the one before"},
		&cli.StringFlag{Name: "refine-by", Usage: "the metric --refine follows (default: the grid's [refine] metric, else the first metric)"},
		&cli.BoolFlag{Name: "next-round", Usage: "(the merge job's) submit the next round of a grid with rounds, if any, from what is merged; writes no script"},
	}
}

// slurmRounds returns the rounds of g (nil without), and sets the job's
// tasks to run the round under way and its merge job to submit the next.
func slurmRounds(c *cli.Context, g *grids.Grid, job *slurm.Job) (*adaptive.Rounds, error) {
	rounds, err := sweepRounds(c, g)
	if err != nil || rounds == nil {
		if c.Bool("next-round") && err == nil {
			return nil, usagef("--next-round: grid %s has no rounds", g.Name)
		}
		return nil, err
	}
	var refine []string
	if c.IsSet("refine") {
		refine = append(refine, "--refine", strconv.Itoa(c.Int("refine")))
	}
	if c.IsSet("refine-by") {
		refine = append(refine, "--refine-by", c.String("refine-by"))
	}
	job.InRounds(refine)
	return rounds, nil
}

// slurmAssetsFlag is report's --assets (also read from CCSWEEP_ASSETS): the
// folder the merge job's report inlines the chart scripts from.
func slurmAssetsFlag() cli.Flag {
	f := assetsFlag().(*cli.StringFlag)
	f.Usage = "folder with echarts.min.js and echarts-gl.min.js, as the compute nodes see it, that the merge job's report inlines (default: the copies ccsweep ships)"
	return f
}

// slurmJob builds the description of the jobs of grid name from the flags;
// the slurm package checks it.
func slurmJob(c *cli.Context, name string, sched slurm.Scheduler) (*slurm.Job, error) {
	if c.IsSet("cpus-per-task") && c.Int("cpus-per-task") < 1 {
		return nil, usagef("--cpus-per-task %d: want at least 1", c.Int("cpus-per-task"))
	}
	dir, err := filepath.Abs(c.String("dir"))
	if err != nil {
		return nil, usagef("--dir %s: %v", c.String("dir"), err)
	}
	exe, err := slurm.Executable(c.String("ccsweep"))
	if err != nil {
		return nil, slurmError(err)
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
	return &slurm.Job{Ccsweep: exe, Dir: dir, Name: name, Tasks: c.Int("tasks"),
		Partition: c.String("partition"), Time: c.String("time"), Mem: c.String("mem"), Account: c.String("account"),
		CPUsPerTask: c.Int("cpus-per-task"), Throttle: c.Int("throttle"), Extra: c.StringSlice("extra"),
		RunFlags: jobRunFlags(), MaxArraySize: maxArray, Assets: assets}, nil
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
