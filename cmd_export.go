package main

import (
	"bufio"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/store"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:      "export",
		Usage:     "print every finished point of a results database: parameters, seed, metrics",
		UsageText: "ccsweep export DB [--format csv|json]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "csv", Usage: "csv or json"},
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
			if format == "csv" {
				err = db.ExportCSV(c.Context, w)
			} else {
				err = db.ExportJSON(c.Context, w)
			}
			if err != nil {
				return err
			}
			return w.Flush()
		},
	}
}
