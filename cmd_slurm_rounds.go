package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/sweep"
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
func slurmRounds(c *cli.Context, g *grids.Grid, job *sweep.SlurmJob) (*sweep.Rounds, error) {
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
	d := sweep.SlurmDir(job.Dir)
	job.RunFlags = append(append(job.RunFlags, "--rounds-from", d.ResultsDB()), refine...)
	job.NextRound = append([]string{d.GridFile(), "--dir", job.Dir, "--tasks", strconv.Itoa(job.Tasks),
		"--max-array-size", strconv.Itoa(job.MaxArraySize), "--throttle", strconv.Itoa(job.Throttle),
		"--ccsweep", job.Ccsweep, "--next-round"}, refine...)
	return rounds, nil
}

// nextRound submits the round the merged database says is next, as the
// merge job does after merging: the scripts stay as written.
func nextRound(c *cli.Context, setup *sweep.SlurmSetup, sched sweep.SlurmCLI) error {
	out := c.App.Writer
	setup.Self = os.Getenv("SLURM_JOB_ID")
	if err := sched.CheckSbatch(); err != nil {
		return slurmError(err)
	}
	todo, err := setup.Outstanding(c.Context, sched)
	if err != nil {
		return slurmError(err)
	}
	st := setup.Round()
	if todo.Nothing() {
		fmt.Fprintf(out, "grid %s: the rounds are finished: %d points in rounds 0..%d, %d added; nothing to submit\n",
			setup.Grid.Name, st.Planned, st.Round, st.Added)
		return nil
	}
	sub, err := setup.Submit(c.Context, sched, todo)
	if sub == nil {
		return slurmError(err)
	}
	fmt.Fprintf(out, "grid %s: round %d, %d points to run\n", setup.Grid.Name, st.Round, todo.Points)
	printSubmission(out, setup, sub)
	return slurmError(err)
}
