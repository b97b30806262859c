package main

import (
	"bufio"
	"errors"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// objectiveFlag is --maximize or --minimize: every use appends to one list,
// in command-line order, so that the order of objectives across both flags
// is kept for lexicographic ranking.
type objectiveFlag struct {
	list     *[]rank.Objective
	maximize bool
}

func (f objectiveFlag) Set(s string) error {
	o, err := rank.ParseObjective(s, f.maximize)
	if err != nil {
		return err
	}
	*f.list = append(*f.list, o)
	return nil
}

func (f objectiveFlag) String() string { return "" }

// queryFlags are the flags of best, and of report, that state objectives
// and constraints; objectives collects the objectives in order.
func queryFlags(objectives *[]rank.Objective) []cli.Flag {
	return []cli.Flag{
		&cli.GenericFlag{Name: "maximize", Value: objectiveFlag{objectives, true}, Usage: "a metric to maximize, METRIC or METRIC:WEIGHT (repeatable; order counts with --lex)"},
		&cli.GenericFlag{Name: "minimize", Value: objectiveFlag{objectives, false}, Usage: "a metric to minimize, METRIC or METRIC:WEIGHT (repeatable)"},
		&cli.StringSliceFlag{Name: "where", Usage: "a constraint a recommended point must meet, e.g. \"fairness_jain >= 0.95\" (repeatable; metrics and parameters by name)"},
		&cli.BoolFlag{Name: "lex", Usage: "rank lexicographically: by the first objective, ties (within --tolerance) by the next"},
		&cli.BoolFlag{Name: "robust", Usage: "score each objective by the worst of the point and its grid neighbours"},
		&cli.Float64Flag{Name: "tolerance", Value: rank.DefaultTolerance, Usage: "the recommended region: points whose score (0 to 1) is within this much of the best's (with --lex: within it on every objective, and the width of lex's tie bands)"},
	}
}

// rankQuery builds the query of queryFlags.
func rankQuery(c *cli.Context, objectives []rank.Objective) (rank.Query, error) {
	q := rank.Query{Objectives: objectives, Robust: c.Bool("robust"), Tolerance: c.Float64("tolerance")}
	if c.Bool("lex") {
		q.Order = rank.Lexicographic
	}
	if t := q.Tolerance; !(t > 0 && t < 1) {
		return q, usagef("--tolerance %g: want a fraction between 0 and 1", t)
	}
	for _, src := range c.StringSlice("where") {
		e, err := grids.CompileMetricExpr(src)
		if err != nil {
			return q, usagef("--where %v", err)
		}
		q.Where = append(q.Where, e)
	}
	return q, nil
}

func bestCommand() *cli.Command {
	var objectives []rank.Objective
	return &cli.Command{
		Name:  "best",
		Usage: "rank the finished points of a database by objectives and constraints: the recommendation, its region and the Pareto front",
		UsageText: "ccsweep best DB --maximize METRIC[:W] --minimize METRIC[:W] ... [--where EXPR ...] [--lex] [--robust]\n" +
			"      [--tolerance F] [--top N] [--at NAME=VALUE ...] [--grid NAME|ID] [--format text|csv|json]",
		Description: "Seeds are averaged per point; the table shows each objective's mean with the half-width of its 95 %\n" +
			"confidence interval. By default points are scored by the weighted mean of their objectives, each scaled\n" +
			"to [0, 1] over the points that meet every --where. --robust scores each objective by the worst value among\n" +
			"the point and its neighbours in the grid. --at explains where one setting stands and why it is not\n" +
			"recommended, with numbers.",
		Flags: append(queryFlags(&objectives),
			&cli.IntFlag{Name: "top", Value: 10, Usage: "how many ranked points to list (0: all)"},
			&cli.StringSliceFlag{Name: "at", Usage: "explain the point with this parameter value, NAME=VALUE (repeat for each parameter that varies)"},
			&cli.StringFlag{Name: "grid", Usage: "rank only this grid's points, by name or ID prefix (default: every point of the database)"},
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text, csv or json"},
		),
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("best takes one database file, got %d arguments", c.NArg())
			}
			if len(objectives) == 0 {
				return usagef("best needs at least one objective, e.g. --maximize victim_gbps --minimize var")
			}
			format := c.String("format")
			if format != "text" && format != "csv" && format != "json" {
				return usagef("--format: want text, csv or json, not %q", format)
			}
			if c.Int("top") < 0 {
				return usagef("--top %d: want 0 (all) or more", c.Int("top"))
			}
			q, err := rankQuery(c, objectives)
			if err != nil {
				return err
			}
			at, err := rank.ParseAt(c.StringSlice("at"))
			if err != nil {
				return usageError{err}
			}
			db, err := store.OpenReadOnly(c.Args().First())
			if err != nil {
				return err
			}
			defer db.Close()
			sums, name, err := rank.LoadSummaries(c.Context, db, c.String("grid"), report.RecordResults)
			if errors.Is(err, rank.ErrNoGrid) {
				return usageError{err}
			} else if err != nil {
				return err
			}
			a, err := rank.Rank(sums, q)
			if err == nil {
				err = a.Unmeasured()
			}
			if err != nil {
				return usageError{err}
			}
			top := a.Points[:a.Feasible]
			if n := c.Int("top"); n > 0 && n < len(top) {
				top = top[:n]
			}
			w := bufio.NewWriter(c.App.Writer)
			switch format {
			case "csv":
				err = a.WriteCSV(w, top)
			case "json":
				err = a.WriteJSON(w, top)
			default:
				err = a.WriteText(w, top, name, at)
			}
			if err != nil {
				return err
			}
			return w.Flush()
		},
	}
}
