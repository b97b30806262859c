package main

import (
	"bufio"
	"context"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "print every finished point of a results database: grid, scenario, parameters, seed, metrics",
		UsageText: "ccsweep export DB [--format csv|json] [--summary | --series | --iterations] [-o FILE]",
		Description: "By default one row per done point: grid, grid_id, scenario, each parameter (the model's default where\n" +
			"the point does not set it), seed, then each metric. --summary aggregates each point's seeds. --series\n" +
			"writes the per-flow throughput series in long form instead, one row per sample of each flow: grid,\n" +
			"grid_id, scenario, the parameters, seed, point, flow, role, time_s (the end of the sample interval)\n" +
			"and gbps, one point at a time (docs/schema.md). --iterations writes the apps' per-iteration times in\n" +
			"long form: grid, grid_id, scenario, the parameters, seed, point, app, iteration and us (docs/apps.md).",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "csv", Usage: "csv or json"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write to FILE instead of standard output"},
			&cli.BoolFlag{Name: "series", Usage: "the per-flow throughput series in long form, one row per sample of each flow"},
			&cli.BoolFlag{Name: "iterations", Usage: "the closed-loop apps' per-iteration times in long form, one row per iteration of each app"},
			&cli.BoolFlag{Name: "summary", Usage: "one row per point with its seeds aggregated: seeds, then each metric's mean, sd and 95% confidence half-width (NAME_mean, NAME_sd, NAME_ci95)"},
		},
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("export takes one database file, got %d arguments", c.NArg())
			}
			format := c.String("format")
			if format != "csv" && format != "json" {
				return usagef("--format: want csv or json, not %q", format)
			}
			if c.Bool("series") && c.Bool("summary") || c.Bool("iterations") && (c.Bool("series") || c.Bool("summary")) {
				return usagef("--series, --summary and --iterations: give one (series and iterations are per point, not per parameter combination)")
			}
			dbPath, out := c.Args().First(), c.String("out")
			if err := checkOutputs([]ioPath{{"-o", out}}, []ioPath{{"the database", dbPath}}); err != nil {
				return err
			}
			db, err := store.OpenReadOnly(dbPath)
			if err != nil {
				return err
			}
			defer db.Close()
			return writeOutput(c.Context, out, c.App.Writer, func(f io.Writer) error {
				w := bufio.NewWriter(f)
				opt := store.ExportOptions{Effective: sweep.EffectiveParams, GridResults: gridResults(db)}
				var err error
				switch {
				case c.Bool("series") && format == "csv":
					err = db.ExportSeriesCSV(c.Context, w, opt)
				case c.Bool("series"):
					err = db.ExportSeriesJSON(c.Context, w, opt)
				case c.Bool("iterations") && format == "csv":
					err = db.ExportIterationsCSV(c.Context, w, opt)
				case c.Bool("iterations"):
					err = db.ExportIterationsJSON(c.Context, w, opt)
				case c.Bool("summary") && format == "csv":
					err = db.ExportSummaryCSV(c.Context, w, opt)
				case c.Bool("summary"):
					err = db.ExportSummaryJSON(c.Context, w, opt)
				case format == "csv":
					err = db.ExportCSV(c.Context, w, opt)
				default:
					err = db.ExportJSON(c.Context, w, opt)
				}
				if err != nil {
					return err
				}
				return w.Flush()
			})
		},
	}
}

// gridResults returns the results of a grid of db: every point of it in
// the database, whoever ran it (report.RecordResults).
func gridResults(db *store.DB) func(ctx context.Context, g store.GridRecord, status string) ([]store.Result, error) {
	return func(ctx context.Context, g store.GridRecord, status string) ([]store.Result, error) {
		return report.RecordResults(ctx, db, g, status)
	}
}
