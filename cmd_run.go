package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/urfave/cli/v2"
	"golang.org/x/term"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
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

// gridInputs lists the files a grid was read from, for checkOutputs.
func gridInputs(g *grids.Grid) []ioPath {
	var ins []ioPath
	for i, f := range g.Files() {
		what := "an input of the grid,"
		if i == 0 {
			what = "the grid file"
		}
		ins = append(ins, ioPath{what, f})
	}
	return ins
}

// loadGrid reads a grid file; its problems are usage errors (exit 2).
func loadGrid(path string) (*grids.Grid, error) {
	g, err := grids.Load(path)
	if err != nil {
		var ge *grids.Error
		if errors.As(err, &ge) || errors.Is(err, os.ErrNotExist) {
			return nil, usageError{err}
		}
		return nil, usagef("%v", err)
	}
	return g, nil
}

func runAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("run takes one grid file, got %d arguments", c.NArg())
	}
	g, err := loadGrid(c.Args().First())
	if err != nil {
		return err
	}
	var scs []*model.Scenario
	for _, s := range g.Subs {
		scs = append(scs, model.LookupScenario(s.Scenario))
	}
	printWarnings(c.App.ErrWriter, scs...)
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
		if err := dryRun(c.Context, out, plan, dbPath, c.Int("jobs")); err != nil || rounds == nil {
			return err
		}
		return dryRunRounds(c, rounds, dbPath)
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
	if c.Float64("max-events") < 0 {
		return usagef("--max-events %g: want 0 (no limit) or more", c.Float64("max-events"))
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

// dryRun prints what a run would do, reading the database if it exists and
// writing nothing.
func dryRun(ctx context.Context, w io.Writer, plan *sweep.Plan, dbPath string, jobs int) error {
	// Without a database every point is to run: count them without
	// listing them.
	todo, points := plan.Len(), func(yield func(int) bool) {
		for k := range plan.Len() {
			if !yield(k) {
				return
			}
		}
	}
	exists, err := store.Exists(dbPath)
	if err != nil {
		return err
	}
	if exists {
		db, err := store.OpenReadOnly(dbPath)
		if err != nil {
			return err
		}
		missing, err := plan.Missing(ctx, db)
		db.Close()
		if err != nil {
			return err
		}
		todo, points = len(missing), slices.Values(missing)
	}
	cost, err := sweep.Estimate(ctx, plan, points)
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
	return nil
}

func summarize(vals []string) string {
	if len(vals) <= 6 {
		return fmt.Sprint(vals)
	}
	return fmt.Sprintf("[%s %s %s ... %s]", vals[0], vals[1], vals[2], vals[len(vals)-1])
}

// progress shows a bar on a terminal and a plain line every ten seconds
// otherwise.
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	bar    *progressbar.ProgressBar
	todo   int
	done   int
	failed int
	start  time.Time
	last   time.Time
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (p *progress) Start(todo int) {
	p.todo, p.start, p.last = todo, time.Now(), time.Now()
	if isTerminal(p.w) {
		p.bar = progressbar.NewOptions(todo, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription("points"),
			progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetItsString("points"),
			progressbar.OptionSetPredictTime(true), progressbar.OptionFullWidth(), progressbar.OptionClearOnFinish())
	}
}

func (p *progress) Done(_ grids.Point, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if failed {
		p.failed++
	}
	if p.bar != nil {
		p.bar.Add(1)
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 10*time.Second || p.done == p.todo {
		p.last = now
		el := now.Sub(p.start)
		rate := float64(p.done) / el.Seconds()
		eta := time.Duration(float64(p.todo-p.done) / rate * float64(time.Second))
		fmt.Fprintf(p.w, "%d/%d points (%.0f%%), %d failed, %.2f points/s, elapsed %s, ETA %s\n", p.done, p.todo,
			100*float64(p.done)/float64(max(p.todo, 1)), p.failed, rate, el.Round(time.Second), eta.Round(time.Second))
	}
}

func (p *progress) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
