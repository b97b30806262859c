package main

import (
	"bufio"
	"context"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "print every finished point of a results database: grid, scenario, parameters, seed, metrics",
		UsageText: "ccsweep export DB [--format csv|json] [--summary]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "csv", Usage: "csv or json"},
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
			db, err := store.OpenReadOnly(c.Args().First())
			if err != nil {
				return err
			}
			defer db.Close()
			w := bufio.NewWriter(c.App.Writer)
			opt := store.ExportOptions{Effective: sweep.EffectiveParams, GridResults: gridResults(db)}
			switch {
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
