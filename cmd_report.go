package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

func reportCommand() *cli.Command {
	var objectives []rank.Objective
	return &cli.Command{
		Name:      "report",
		Usage:     "write the HTML report of a results database",
		UsageText: "ccsweep report DB [-o FILE] [--assets DIR|cdn] [--maximize M --minimize M ... [--where EXPR] [--robust]]",
		Description: "Writes one HTML file with the grid as run, point counts and provenance, 3D surfaces and heat maps\n" +
			"of victim throughput, contributor throughput and Var, time series and fairness bars.\n" +
			"The page inlines echarts " + report.EChartsVersion + " and echarts-gl " + report.EChartsGLVersion +
			", which ccsweep ships, so that it is one file that works offline;\n" +
			"--assets DIR inlines DIR/echarts.min.js and DIR/echarts-gl.min.js instead, and --assets cdn loads them\n" +
			"from cdn.jsdelivr.net (a page 1.7 MB smaller that needs the network).\n" +
			"With objectives (as for ccsweep best) it also plots the Pareto front and outlines the recommended region\n" +
			"on every surface and heat map.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "report file, - for stdout (default: the database's name with .html)"},
			assetsFlag(),
		}, queryFlags(&objectives)...),
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("report takes one database, got %d arguments", c.NArg())
			}
			dbPath := c.Args().First()
			out := c.String("out")
			if out == "" {
				out = defaultReportPath(dbPath)
			}
			if err := checkOutputs([]ioPath{{"-o", out}}, []ioPath{{"the database", dbPath}}); err != nil {
				return err
			}
			assets, err := loadAssets(c.String("assets"))
			if err != nil {
				return err
			}
			var q *rank.Query
			switch {
			case len(objectives) > 0:
				query, err := rankQuery(c, objectives)
				if err != nil {
					return err
				}
				q = &query
			case c.IsSet("where") || c.IsSet("robust") || c.IsSet("lex") || c.IsSet("tolerance"):
				return usagef("--where, --robust, --lex and --tolerance need an objective: --maximize or --minimize a metric")
			}
			if err := writeReport(c, dbPath, out, assets, q); err != nil {
				return err
			}
			if out != "-" {
				_, err = io.WriteString(c.App.ErrWriter, "report written to "+out+"\n")
			}
			return err
		},
	}
}

func assetsFlag() cli.Flag {
	return &cli.StringFlag{Name: "assets", EnvVars: []string{"CCSWEEP_ASSETS"},
		Usage: "folder with echarts.min.js and echarts-gl.min.js to use, or cdn to load them from cdn.jsdelivr.net (default: the copies ccsweep ships)"}
}

// defaultReportPath is the database's path with .html for its extension,
// or with .html appended when that extension is already .html: never the
// database itself.
func defaultReportPath(dbPath string) string {
	if strings.EqualFold(filepath.Ext(dbPath), ".html") {
		return dbPath + ".html"
	}
	return strings.TrimSuffix(dbPath, filepath.Ext(dbPath)) + ".html"
}

// cdnAssets is the --assets value that loads the chart scripts from a CDN
// (a folder of that name is ./cdn).
const cdnAssets = "cdn"

// loadAssets reads the chart scripts from dir, takes the shipped copies
// when dir is empty and the CDN when it is cdnAssets; a folder without them
// is a usage error.
func loadAssets(dir string) (*report.Assets, error) {
	switch dir {
	case "":
		return report.EmbeddedAssets(), nil
	case cdnAssets:
		return report.CDNAssets(), nil
	}
	a, err := report.LoadAssets(dir)
	if err != nil {
		return nil, usagef("--assets %s: %v (see docs/reports.md: Reports offline)", dir, err)
	}
	return a, nil
}

// writeReport writes the report of the database at dbPath to out (- for
// stdout), whole or not at all.
func writeReport(c *cli.Context, dbPath, out string, assets *report.Assets, q *rank.Query) error {
	db, err := store.OpenReadOnly(dbPath)
	if err != nil {
		return err
	}
	defer db.Close()
	return writeOutput(c.Context, out, c.App.Writer, func(w io.Writer) error {
		return report.Write(c.Context, w, db, report.Options{Assets: assets, Version: version, Query: q})
	})
}
