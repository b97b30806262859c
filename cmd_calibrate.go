package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

func calibrateCommand() *cli.Command {
	return &cli.Command{
		Name:  "calibrate",
		Usage: "fit model parameters to measured throughput: search the numeric axes of a grid with a [calibrate] table",
		UsageText: "ccsweep calibrate GRID.toml [--db FILE] [-j N] [-o FILE] [--no-run] [--quiet]\n\n" +
			"The grid names the scenario that describes the fabric, its fixed parameters, the parameters to fit as\n" +
			"numeric axes over their ranges, and in [calibrate] the measured series (time_s,flow,throughput_gbps).\n" +
			"Its points are the search's first round; each later round searches a shrinking box around the best fit.\n" +
			"Rounds are stored like any sweep's points: rerun to resume, or run them with ccsweep run --shard and\n" +
			"--rounds-from, or ccsweep slurm, then ccsweep calibrate --no-run on the merged database.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "db", Usage: "results database (default: the grid's name with .db, next to the grid file)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "simulations at once"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "the grid base written with the best fit (default: the grid's name with -fit.toml, next to the database)"},
			&cli.BoolFlag{Name: "no-run", Usage: "run nothing: report the best fit of what the database holds"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress"},
		},
		OnUsageError: commandUsageError,
		Action:       calibrateAction,
	}
}

func calibrateAction(c *cli.Context) error {
	if c.NArg() != 1 {
		return usagef("calibrate takes one grid file, got %d arguments", c.NArg())
	}
	gridPath := c.Args().First()
	g, err := loadGrid(gridPath)
	if err != nil {
		return err
	}
	if g.Calibrate == nil {
		return usagef("%s: no [calibrate] table: name the measured series with [calibrate] measured = \"FILE.csv\"", gridPath)
	}
	if c.Int("jobs") < 1 {
		return usagef("-j %d: want at least 1", c.Int("jobs"))
	}
	dbPath := c.String("db")
	if dbPath == "" {
		dbPath = filepath.Join(filepath.Dir(gridPath), g.Name+".db")
	}
	out := c.String("out")
	if out == "" {
		out = filepath.Join(filepath.Dir(dbPath), g.Name+"-fit.toml")
	}
	if err := checkOutputs([]ioPath{{"--out", out}}, append(gridInputs(g), ioPath{"the database", dbPath})); err != nil {
		return err
	}
	rounds := adaptive.NewRounds(g, g.Refine)
	var db *store.DB
	if c.Bool("no-run") {
		db, err = store.OpenReadOnly(dbPath)
	} else {
		db, err = store.Open(dbPath)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	w := c.App.Writer
	if !c.Bool("no-run") {
		shareMemory(c.Int("jobs"))
		opt := sweep.Options{Workers: c.Int("jobs"), Version: version, Commit: buildCommit(), Args: os.Args}
		if !c.Bool("quiet") {
			opt.Progress = newProgress(c.App.ErrWriter)
		}
		sum, err := adaptive.RunRounds(c.Context, rounds, db, opt)
		fmt.Fprintf(w, "%s: %d points in rounds 0..%d, %d ran now (%d failed); wall %s\n", g.Name, sum.Points,
			sum.State.Round, sum.Ran, sum.Failed, sum.Wall.Round(time.Millisecond))
		if err != nil {
			return fmt.Errorf("%w; finished points are kept in %s: run the same command again to go on", err, dbPath)
		}
	}
	fit, err := adaptive.FitOf(c.Context, rounds, db)
	if err != nil {
		return err
	}
	var fitted []string
	for _, ax := range g.Calibrate.Axes {
		v, _ := fit.Best.Value(ax.Name)
		fitted = append(fitted, ax.Name+"="+v)
	}
	state := "the search is finished"
	if !fit.State.Finished {
		state = fmt.Sprintf("the search is in round %d, not finished", fit.State.Round)
	}
	fmt.Fprintf(w, "best fit: %s\n", strings.Join(fitted, " "))
	fmt.Fprintf(w, "error: %.4g Gbit/s, root mean square of the differences of mean throughput per phase and flow; %d points evaluated, %s\n",
		fit.RMSE, fit.Points, state)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "phase\tflow\tmeasured Gbit/s\tmodel Gbit/s\tdifference\trms of samples\tsamples\n")
	for _, r := range fit.Rows {
		if r.Measured == 0 && r.Model == 0 {
			continue // a flow not started yet
		}
		fmt.Fprintf(tw, "%d\t%s\t%.3f\t%.3f\t%+.3f\t%.3f\t%d\n", r.Phase+1, r.Flow, r.Measured, r.Model, r.Model-r.Measured, r.RMSE, r.N)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	comment := fmt.Sprintf("Fitted by ccsweep calibrate %s to %s: %s\n(error %.4g Gbit/s RMS over the phases' mean throughputs; %d points evaluated).",
		filepath.Base(gridPath), g.Calibrate.Measured, strings.Join(fitted, " "), fit.RMSE, fit.Points)
	text := grids.BaseGrid(g.Name+"-fit", fit.Best.Scenario, fit.Best.Params, comment)
	if err := writeOutput(c.Context, out, w, func(f io.Writer) error {
		_, err := f.Write(text)
		return err
	}); err != nil {
		return err
	}
	if out != "-" {
		fmt.Fprintf(w, "grid base with the fit: %s\n", out)
	}
	return nil
}
