package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/slurm"
)

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "count the done, failed and missing points of a sharded run or of one database",
		UsageText: "ccsweep status DIR [--grid FILE] [--tasks N]\n" +
			"   ccsweep status DB [--grid FILE [--shard I/N]]\n\n" +
			"DIR is an output directory of ccsweep slurm (or one laid out alike: grid.toml, shards/shard-I.db,\n" +
			"results.db): one line per shard, the merged database and overall. For a database, the points of the\n" +
			"grid file (or of its shard) it holds; without --grid, what it holds of each grid. Only reads.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "grid", Usage: "the grid file to count against (default for DIR: DIR/grid.toml)"},
			&cli.IntFlag{Name: "tasks", Usage: "the number of shards of DIR", DefaultText: "as ccsweep slurm set it up"},
			&cli.StringFlag{Name: "shard", Usage: "with DB and --grid: count only shard I/N of the grid"},
		},
		OnUsageError: commandUsageError,
		Action:       statusAction,
	}
}

func statusAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("status takes one directory or database, got %d arguments", c.NArg())
	}
	path := c.Args().First()
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("%s: no such directory or database", path)
	case err != nil:
		return usagef("%s: %v", path, err)
	case fi.IsDir():
		if c.IsSet("shard") {
			return usagef("--shard goes with a database, not the directory %s", path)
		}
		return statusDir(c, path)
	}
	if c.IsSet("tasks") {
		return usagef("--tasks goes with a directory, not the database %s (use --shard I/N)", path)
	}
	return statusDB(c, path)
}

// statusDir prints the state of every shard of an output directory, of its
// merged database and overall.
func statusDir(c *cli.Context, dir string) error {
	d := slurm.Dir(dir)
	m, err := d.ReadManifest()
	if err != nil {
		return usageError{err}
	}
	gridPath := c.String("grid")
	if gridPath == "" {
		gridPath = d.GridFile()
		if _, err := os.Stat(gridPath); err != nil {
			return usagef("%s has no %s: give the grid with --grid FILE", dir, slurm.GridFile)
		}
	}
	g, err := loadGrid(gridPath)
	if err != nil {
		return err
	}
	tasks := c.Int("tasks")
	switch {
	case !c.IsSet("tasks") && m == nil:
		return usagef("%s was not set up by ccsweep slurm: give the number of shards with --tasks N", dir)
	case !c.IsSet("tasks"):
		tasks = m.Tasks
	}
	plans, err := sweep.ShardPlans(g, tasks)
	var ce *sweep.ShardCountError
	if errors.As(err, &ce) {
		return tasksError(ce)
	} else if err != nil {
		return err
	}
	st, err := d.State(c.Context, plans)
	var de *slurm.DirError
	if errors.As(err, &de) {
		return usageError{err}
	} else if err != nil {
		return err
	}

	out := c.App.Writer
	fmt.Fprintf(out, "grid %s (id %s, model %s): %d points in %d shards, in %s\n",
		g.Name, grids.ShortID(sweep.GridID(g)), model.Version, g.Count(), tasks, dir)
	if m != nil && m.GridID != sweep.GridID(g) {
		fmt.Fprintf(out, "note: %s was set up for grid %s of model %s, not this grid: it holds none of its points\n", dir, m.Grid, m.ModelVersion)
	}
	tw := tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "shard\tpoints\tdone\tfailed\tmissing\t\tdatabase")
	for _, s := range st.Shards {
		note, _ := filepath.Rel(dir, s.DB)
		switch {
		case s.Err != nil:
			note += ": " + oneLine(s.Err.Error())
		case !s.Exists:
			note += " (not yet)"
		}
		printTally(tw, fmt.Sprintf("%d/%d", s.Shard, tasks), s.Own, note)
	}
	note := slurm.ResultsFile
	if !st.MergedExists {
		note += " (not yet)"
	}
	printTally(tw, "merged", st.Merged, note)
	printTally(tw, "overall", st.Overall, "")
	if err := tw.Flush(); err != nil {
		return err
	}
	if s := m.LastSubmission(); s != nil {
		what := "the merge job " + s.MergeJob + " alone"
		if len(s.ArrayJobs) > 0 {
			what = fmt.Sprintf("shards %s as array job(s) %s, merge job %s",
				slurm.RangeList(s.Shards), strings.Join(s.ArrayJobs, ", "), s.MergeJob)
		}
		fmt.Fprintf(out, "last submitted %s: %s\n", s.Time.Local().Format("2006-01-02 15:04:05"), what)
	}
	switch {
	case st.Merged.Complete():
		fmt.Fprintf(out, "complete: every point is in %s\n", d.ResultsDB())
	case st.Overall.Complete():
		fmt.Fprintf(out, "every point is done; merge them: ccsweep merge %s %s\n", d.ResultsDB(),
			filepath.Join(dir, slurm.ShardDir, "shard-*.db"))
	default:
		fmt.Fprintf(out, "incomplete: %d points to run; submit again to run only those\n", st.Overall.Points-st.Overall.Done)
	}
	return nil
}

func printTally(w io.Writer, label string, t sweep.Tally, note string) {
	fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t\t%s\n", label, t.Points, t.Done, t.Failed, t.Missing, note)
}

// statusDB prints what one database holds of a grid, or of each grid.
func statusDB(c *cli.Context, path string) error {
	ctx := c.Context
	var g *grids.Grid
	if c.String("grid") != "" {
		var err error
		if g, err = loadGrid(c.String("grid")); err != nil {
			return err
		}
	} else if c.IsSet("shard") {
		return usagef("--shard needs the grid: give --grid FILE")
	}
	shard, err := sweep.ParseShardFlag(c.String("shard"))
	if err != nil {
		return usageError{err}
	}
	db, err := store.OpenReadOnly(path)
	if err != nil {
		return err // run maps store's errors to exit statuses
	}
	defer db.Close()
	out := c.App.Writer
	if g != nil {
		plan, err := sweep.NewPlan(g, shard)
		if err != nil {
			return usageError{err}
		}
		t, err := plan.Tally(ctx, db)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "grid %s (id %s, model %s), shard %s, in %s: %d points: %d done, %d failed, %d missing\n",
			g.Name, grids.ShortID(plan.GridID), model.Version, shard, path, t.Points, t.Done, t.Failed, t.Missing)
		return nil
	}
	gs, err := db.Grids(ctx)
	if err != nil {
		return err
	}
	if len(gs) == 0 {
		fmt.Fprintf(out, "%s holds no grid\n", path)
		return nil
	}
	for _, gr := range gs {
		done, failed, err := report.RecordCounts(ctx, db, gr)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "grid %s (id %s, model %s) in %s: %d points done, %d failed (give --grid FILE to count the missing)\n",
			gr.Name, gr.ID[:min(12, len(gr.ID))], gr.ModelVersion, path, done, failed)
	}
	return nil
}
