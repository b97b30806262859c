package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

func runCommand() *cli.Command {
	return &cli.Command{
		Name:      "run",
		Usage:     "run every point of a grid file, keeping results in a SQLite database",
		UsageText: "ccsweep run GRID.toml [--db FILE] [-j N] [--shard I/N] [-o REPORT.html | --no-report] [--assets DIR|cdn] [--fail-fast] [--dry-run] [--quiet]\n   ccsweep GRID.toml [...]",
		Description: "Runs the points the database does not hold as done. Several runs may share one database: each point\n" +
			"is claimed by one of them, and a run waits for the points others hold, taking them over if their\n" +
			"process died (at once on this host, when the lease expires elsewhere).",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "db", Usage: "results database (default: the grid's name with .db, next to the grid file)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "simulations at once"},
			&cli.StringFlag{Name: "shard", Usage: "run only slice I of N of the points, e.g. 2/8"},
			&cli.BoolFlag{Name: "fail-fast", Usage: "stop at the first failed point"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the point count, how many are done and an estimated cost; run nothing"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress, only the summary"},
			&cli.Float64Flag{Name: "max-events", Value: defaultMaxEvents, Usage: "record as failed, without simulating, a point estimated to take more events than this (0: no limit); about 10 minutes of one core per 1e10"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "HTML report written after the run (default: the database's name with .html)"},
			&cli.BoolFlag{Name: "no-report", Usage: "write no report"},
			assetsFlag(),
		}, roundFlags()...),
		OnUsageError: commandUsageError,
		Action:       runAction,
	}
}

func runAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("run takes one grid file, got %d arguments", c.NArg())
	}
	g, err := loadGrid(c.Args().First())
	if err != nil {
		return err
	}
	printWarnings(c.App.ErrWriter, gridScenarios(g)...)
	shard, err := sweep.ParseShardFlag(c.String("shard"))
	if err != nil {
		return usageError{err}
	}
	if c.Int("jobs") < 1 {
		return usagef("-j %d: want at least 1", c.Int("jobs"))
	}
	dbPath := c.String("db")
	if dbPath == "" {
		dbPath = filepath.Join(filepath.Dir(c.Args().First()), g.Name+".db")
	}
	plan, err := sweep.NewPlan(g, shard)
	if err != nil {
		return usageError{err}
	}
	rounds, err := sweepRounds(c, g)
	if err != nil {
		return err
	}
	reportPath := ""
	if !c.Bool("no-report") && !c.Bool("dry-run") {
		if reportPath = c.String("out"); reportPath == "" {
			reportPath = defaultReportPath(dbPath)
		}
	}
	if err := checkOutputs([]ioPath{{"-o", reportPath}}, append(gridInputs(g), ioPath{"the database", dbPath})); err != nil {
		return err
	}
	out := c.App.Writer
	if c.Bool("dry-run") {
		return dryRun(c, plan, rounds, dbPath)
	}
	var assets *report.Assets
	if !c.Bool("no-report") {
		if assets, err = loadAssets(c.String("assets")); err != nil {
			return err
		}
	}
	shareMemory(c.Int("jobs"))
	db, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := checkMaxEvents(c); err != nil {
		return err
	}
	opt := sweep.Options{Workers: c.Int("jobs"), FailFast: c.Bool("fail-fast"), Shard: shard,
		Version: version, Commit: buildCommit(), Args: os.Args, MaxEvents: c.Float64("max-events")}
	if !c.Bool("quiet") {
		opt.Progress = newProgress(c.App.ErrWriter)
	}
	sum, err := runSweep(c, rounds, plan, db, opt)
	undone := ""
	if sum.Undone > 0 {
		undone = fmt.Sprintf(", %d undone", sum.Undone)
	}
	fmt.Fprintf(out, "%s: %d points (shard %s): %d already done, %d ran (%d failed), %d done by another process%s; wall %s, %d workers busy %.0f%%; results in %s\n",
		g.Name, sum.Points, shard, sum.AlreadyDone, sum.Ran, sum.Failed, sum.Elsewhere, undone,
		sum.Wall.Round(time.Millisecond), sum.Workers, 100*sum.Efficiency(), dbPath)
	if !c.Bool("no-report") {
		// Draw what finished even after an interrupt or a failure: it
		// takes a moment.
		ctx := context.WithoutCancel(c.Context)
		rerr := writeOutput(c.Context, reportPath, out, func(w io.Writer) error {
			return report.Write(ctx, w, db, report.Options{Assets: assets, Version: version})
		})
		switch {
		case rerr != nil && err == nil:
			return fmt.Errorf("results are in %s, but the report failed: %w", dbPath, rerr)
		case rerr != nil:
			fmt.Fprintf(c.App.ErrWriter, "ccsweep: the report failed too: %v\n", rerr)
		case reportPath != "-":
			fmt.Fprintf(out, "report: %s\n", reportPath)
		}
	}
	switch {
	case errors.Is(err, sweep.ErrInterrupted) && errors.Is(err, sweep.ErrIncomplete):
		return fmt.Errorf("interrupted, %w (%d of %d): finished points are kept in %s; run the same command again to finish the rest",
			sweep.ErrIncomplete, sum.Undone, sum.Points, dbPath)
	case errors.Is(err, sweep.ErrInterrupted):
		return fmt.Errorf("interrupted: finished points are kept in %s", dbPath)
	case sum.Failed > 0 && (err == nil || errors.Is(err, sweep.ErrIncomplete)):
		return fmt.Errorf("%d of %d points failed (see ccsweep export %s, or rerun to retry them)", sum.Failed, sum.Ran, dbPath)
	case errors.Is(err, sweep.ErrIncomplete):
		return fmt.Errorf("%w (%d of %d): run the same command again to finish them", sweep.ErrIncomplete, sum.Undone, sum.Points)
	}
	return err
}
