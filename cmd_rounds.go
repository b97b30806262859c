package main

import (
	"fmt"
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// roundFlags are run's flags for adaptive sweeps.
func roundFlags() []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "refine", Usage: "after the grid, add up to N points between neighbouring points where the --refine-by metric changes most, in rounds (overrides the budget of the grid's [refine])"},
		&cli.StringFlag{Name: "refine-by", Usage: "the metric --refine follows (default: the grid's [refine] metric, else the first metric)"},
		&cli.StringFlag{Name: "rounds-from", Usage: "with --shard, for a grid with rounds (refinement, seed targets): the merged database that says which round to run"},
	}
}

// sweepRounds returns the adaptive sweep that g and run's flags ask for,
// or nil.
func sweepRounds(c *cli.Context, g *grids.Grid) (*adaptive.Rounds, error) {
	refine := g.Refine
	if c.IsSet("refine") || c.IsSet("refine-by") {
		points := c.Int("refine")
		if !c.IsSet("refine") {
			if g.Refine == nil {
				return nil, usagef("--refine-by needs --refine N, the most points refinement may add")
			}
			points = g.Refine.Points
		}
		r, err := g.RefineWith(points, c.String("refine-by"))
		if err != nil {
			return nil, usagef("--refine: %v", err)
		}
		refine = r
	}
	rounds := adaptive.NewRounds(g, refine)
	if rounds == nil && c.IsSet("rounds-from") {
		return nil, usagef("--rounds-from: grid %s has no rounds (no [refine], no seed target, no --refine)", g.Name)
	}
	if shard, _ := sweep.ParseShardFlag(c.String("shard")); rounds != nil && shard.Count > 1 && c.String("rounds-from") == "" {
		return nil, usagef("--shard %s: grid %s runs in rounds; give --rounds-from MERGED.db, the database its shards are merged into, which says which round to run", shard, g.Name)
	}
	if from := c.String("rounds-from"); rounds != nil && from != "" {
		// A merged database that cannot be looked at is not an empty one
		// (the shard would run round 0 again): refused before any is written.
		if _, err := store.Exists(from); err != nil {
			return nil, usagef("--rounds-from: %v", err)
		}
	}
	return rounds, nil
}

// runSweep runs plan, or the rounds of an adaptive sweep, in db, printing
// a line about the rounds.
func runSweep(c *cli.Context, rounds *adaptive.Rounds, plan *sweep.Plan, db *store.DB, opt sweep.Options) (sweep.Outcome, error) {
	if rounds == nil {
		return sweep.Run(c.Context, plan, db, opt)
	}
	out := c.App.Writer
	if opt.Shard == (sweep.Shard{}) || opt.Shard.Count == 1 {
		sum, err := adaptive.RunRounds(c.Context, rounds, db, opt)
		printRounds(out, sum.State, "")
		return sum.Outcome, err
	}
	// One shard of the current round, as the merged database says
	// (sweepRounds made sure there is one).
	from := c.String("rounds-from")
	st, err := rounds.CurrentIn(c.Context, from)
	if err != nil {
		return sweep.Outcome{}, err
	}
	printRounds(out, st, " (from "+from+")")
	if st.Finished {
		return sweep.Outcome{}, nil
	}
	return adaptive.RunRound(c.Context, rounds.Grid, st, db, opt)
}

// printRounds says where an adaptive sweep stands.
func printRounds(w io.Writer, st adaptive.RoundState, from string) {
	state := fmt.Sprintf("round %d has %d points", st.Round, len(st.Points))
	if st.Finished {
		state = "finished"
	}
	added := ""
	if st.Added > 0 {
		added = fmt.Sprintf(", %d of them added between the grid's points", st.Added)
	}
	fmt.Fprintf(w, "rounds%s: %s; %d points planned in rounds 0..%d%s\n", from, state, st.Planned, st.Round, added)
}

// dryRunRounds says, after a dry run's count of the grid's own points,
// where the grid's rounds stand in the database at path.
func dryRunRounds(c *cli.Context, rounds *adaptive.Rounds, path string) error {
	st, err := rounds.CurrentIn(c.Context, path)
	if err != nil {
		return err
	}
	fmt.Fprintln(c.App.Writer, "the grid runs in rounds: later rounds depend on the results of earlier ones, so their points are not counted above")
	printRounds(c.App.Writer, st, "")
	return nil
}

// dryRun prints what run --dry-run says: what a run would do, reading the
// database if it exists and writing nothing, and where the grid's rounds
// (nil if it has none) stand.
func dryRun(c *cli.Context, plan *sweep.Plan, rounds *adaptive.Rounds, dbPath string) error {
	w, jobs := c.App.Writer, c.Int("jobs")
	todo, cost, err := sweep.EstimateMissing(c.Context, plan, dbPath)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %d points, %d already done in %s, %d to run\n", plan.Grid.Name, plan.Len(),
		plan.Len()-todo, dbPath, todo)
	for _, a := range plan.Grid.Axes() {
		fmt.Fprintf(w, "  axis %-16s %d values: %s\n", a.Name, len(a.Values), summarize(a.Values))
	}
	fmt.Fprintf(w, "estimated cost: %.0f core-seconds, about %s on %d workers (model %s)\n",
		cost, (time.Duration(cost / float64(jobs) * float64(time.Second))).Round(time.Second), jobs, model.Version)
	if rounds == nil {
		return nil
	}
	return dryRunRounds(c, rounds, dbPath)
}

func summarize(vals []string) string {
	if len(vals) <= 6 {
		return fmt.Sprint(vals)
	}
	return fmt.Sprintf("[%s %s %s ... %s]", vals[0], vals[1], vals[2], vals[len(vals)-1])
}
