package main

// status DIR: the shards of an output directory of ccsweep slurm.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/slurm"
)

// statusDir prints the state of every shard of an output directory, of its
// merged database and overall.
func statusDir(c *cli.Context, dir string) error {
	d := slurm.Dir(dir)
	m, err := d.ReadManifest()
	if err != nil {
		return usageError{err}
	}
	gridPath := c.String("grid-file")
	if gridPath == "" {
		gridPath = d.GridFile()
		if _, err := os.Stat(gridPath); err != nil {
			return usagef("%s has no %s: give the grid with --grid-file FILE", dir, slurm.GridFile)
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
