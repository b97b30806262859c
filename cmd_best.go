package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
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
			at, err := parseAt(c.StringSlice("at"))
			if err != nil {
				return err
			}
			db, err := store.OpenReadOnly(c.Args().First())
			if err != nil {
				return err
			}
			defer db.Close()
			sums, name, err := loadSummaries(c.Context, db, c.String("grid"))
			if err != nil {
				return err
			}
			a, err := rank.Rank(sums, q)
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
				err = writeRankCSV(w, a, top)
			case "json":
				err = writeRankJSON(w, a, top)
			default:
				err = writeRankText(w, a, top, name, at)
			}
			if err != nil {
				return err
			}
			return w.Flush()
		},
	}
}

// parseAt reads --at NAME=VALUE values, each value in its canonical
// spelling.
func parseAt(list []string) ([]store.Param, error) {
	var out []store.Param
	for _, s := range list {
		name, v, ok := strings.Cut(s, "=")
		if !ok || name == "" {
			return nil, usagef("--at %q: want NAME=VALUE, e.g. ccti_timer=150us", s)
		}
		if name != "scenario" {
			canon, err := canonicalValue(name, v)
			if err != nil {
				return nil, usagef("--at %s: %v", s, err)
			}
			v = canon
		}
		out = append(out, store.Param{Name: name, Value: v})
	}
	return out, nil
}

// loadSummaries reads the points of the grid sel (name or ID prefix; ""
// for all) with their seeds aggregated, pooling grids: a point is its
// scenario and parameters. It returns a name for the selection.
func loadSummaries(ctx context.Context, db *store.DB, sel string) ([]*store.Summary, string, error) {
	recs, err := db.Grids(ctx)
	if err != nil {
		return nil, "", err
	}
	var ids []string
	var names []string
	for _, r := range recs {
		if sel == "" || r.Name == sel || strings.HasPrefix(r.ID, sel) {
			ids = append(ids, r.ID)
			names = append(names, r.Name)
		}
	}
	if len(ids) == 0 {
		if sel == "" {
			return nil, "", usagef("%s holds no grid", db.Path())
		}
		return nil, "", usagef("--grid %q: %s holds no grid of that name or ID", sel, db.Path())
	}
	// Each grid's points whoever ran them; a point several grids share
	// once, as the first spells it.
	var rs []store.Result
	seen := map[string]bool{}
	for _, r := range recs {
		if !slices.Contains(ids, r.ID) {
			continue
		}
		part, err := report.RecordResults(ctx, db, r, "")
		if err != nil {
			return nil, "", err
		}
		for _, res := range part {
			if !seen[res.Point.ID] {
				seen[res.Point.ID] = true
				rs = append(rs, res)
			}
		}
	}
	for i := range rs {
		rs[i].Point.GridID = ""
	}
	return store.Summarize(rs), strings.Join(names, ", "), nil
}

func writeRankText(w io.Writer, a *rank.Answer, top []*rank.Point, name string, at []store.Param) error {
	q := a.Query
	var objs []string
	for _, o := range q.Objectives {
		objs = append(objs, o.String())
	}
	how := "weighted"
	if q.Order == rank.Lexicographic {
		how = "lexicographic"
	}
	if q.Robust {
		how += ", robust (each objective at the worst of the point and its neighbours)"
	}
	fmt.Fprintf(w, "%s: %d points; objectives %s (%s)\n", name, len(a.Points), strings.Join(objs, ", "), how)
	if len(q.Where) > 0 {
		var ws []string
		for _, e := range q.Where {
			ws = append(ws, e.Src)
		}
		fmt.Fprintf(w, "constraints: %s: %d of %d points meet them\n", strings.Join(ws, " and "), a.Feasible, len(a.Points))
	}
	if a.Best == nil {
		fmt.Fprintln(w, "no point meets every constraint and has every objective's metric")
		for _, p := range a.Points[:min(len(a.Points), 5)] {
			fmt.Fprintf(w, "  %s %s\n", p.Describe(a.Axes), p.Why)
		}
		return nil
	}
	fmt.Fprintf(w, "recommended: %s\n", a.Best.Describe(a.Axes))
	fmt.Fprintf(w, "region (%d points within %g of the best's score%s): %s\n", len(a.Region), q.Tolerance,
		map[bool]string{true: " on every objective", false: ""}[q.Order == rank.Lexicographic], regionRanges(a))
	fmt.Fprintf(w, "Pareto front: %d points\n\n", len(a.Front))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"rank"}
	head = append(head, a.Axes...)
	for _, o := range q.Objectives {
		head = append(head, o.Metric)
		if q.Robust {
			head = append(head, "worst near")
		}
	}
	head = append(head, "score", "front", "region")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, p := range top {
		row := []string{strconv.Itoa(p.Rank)}
		row = append(row, p.Coords...)
		for i, o := range q.Objectives {
			row = append(row, rank.FormatStat(p.Metrics[o.Metric]))
			if q.Robust {
				row = append(row, fmt.Sprintf("%.4g", p.Values[i]))
			}
		}
		row = append(row, fmt.Sprintf("%.3f", p.Score), mark(p.Pareto), mark(p.InRegion))
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(a.Front) > 0 {
		var front []string
		for _, p := range a.Front[:min(len(a.Front), maxFrontListed)] {
			front = append(front, p.Describe(a.Axes))
		}
		more := ""
		if n := len(a.Front) - maxFrontListed; n > 0 {
			more = fmt.Sprintf("; and %d more (--format csv --top 0 marks every point's pareto)", n)
		}
		fmt.Fprintf(w, "\nPareto front, by rank: %s%s\n", strings.Join(front, "; "), more)
	}
	if len(at) > 0 {
		fmt.Fprintln(w)
		p := a.Find(at)
		if p == nil {
			fmt.Fprintf(w, "no finished point has %s\n", describeParams(at))
			return nil
		}
		for _, line := range a.Explain(p) {
			fmt.Fprintln(w, line)
		}
	}
	return nil
}

// maxFrontListed is how many points of the Pareto front the text lists.
const maxFrontListed = 12

func describeParams(ps []store.Param) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Name+"="+p.Value)
	}
	return strings.Join(s, " ")
}

func mark(b bool) string {
	if b {
		return "*"
	}
	return ""
}

// regionRanges spells the recommended region as the range of each axis's
// values over it, e.g. "ccti_timer 100us..300us, marking_rate 1..4".
func regionRanges(a *rank.Answer) string {
	var parts []string
	for k, name := range a.Axes {
		var vals []string
		seen := map[string]bool{}
		for _, p := range a.Region {
			if v := p.Coords[k]; !seen[v] {
				seen[v] = true
				vals = append(vals, v)
			}
		}
		rank.SortValues(name, vals)
		if len(vals) == 1 {
			parts = append(parts, name+" "+vals[0])
		} else {
			parts = append(parts, fmt.Sprintf("%s %s..%s (%d values)", name, vals[0], vals[len(vals)-1], len(vals)))
		}
	}
	return strings.Join(parts, ", ")
}

// rankColumns are the columns of the csv and json outputs.
func rankColumns(a *rank.Answer) []string {
	cols := []string{"rank", "score", "pareto", "region"}
	cols = append(cols, a.Axes...)
	cols = append(cols, "seeds")
	for _, o := range a.Query.Objectives {
		cols = append(cols, o.Metric+"_mean", o.Metric+"_ci95")
		if a.Query.Robust {
			cols = append(cols, o.Metric+"_robust")
		}
	}
	return cols
}

func rankRow(a *rank.Answer, p *rank.Point) []any {
	row := []any{p.Rank, p.Score, p.Pareto, p.InRegion}
	for _, v := range p.Coords {
		row = append(row, v)
	}
	row = append(row, len(p.Seeds))
	for i, o := range a.Query.Objectives {
		st := p.Metrics[o.Metric]
		row = append(row, st.Mean, st.HalfWidth)
		if a.Query.Robust {
			row = append(row, p.Values[i])
		}
	}
	return row
}

func writeRankCSV(w io.Writer, a *rank.Answer, top []*rank.Point) error {
	cw := csv.NewWriter(w)
	cw.Write(rankColumns(a))
	for _, p := range top {
		var rec []string
		for _, v := range rankRow(a, p) {
			switch x := v.(type) {
			case float64:
				if math.IsNaN(x) || math.IsInf(x, 0) {
					rec = append(rec, "")
				} else {
					rec = append(rec, strconv.FormatFloat(x, 'g', -1, 64))
				}
			default:
				rec = append(rec, fmt.Sprint(x))
			}
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

func writeRankJSON(w io.Writer, a *rank.Answer, top []*rank.Point) error {
	cols := rankColumns(a)
	io.WriteString(w, "[")
	for i, p := range top {
		if i > 0 {
			io.WriteString(w, ",")
		}
		io.WriteString(w, "\n  {")
		for k, v := range rankRow(a, p) {
			if k > 0 {
				io.WriteString(w, ", ")
			}
			key, _ := json.Marshal(cols[k])
			w.Write(key)
			io.WriteString(w, ": ")
			if x, ok := v.(float64); ok && (math.IsNaN(x) || math.IsInf(x, 0)) {
				io.WriteString(w, "null")
				continue
			}
			b, err := json.Marshal(v)
			if err != nil {
				return err
			}
			w.Write(b)
		}
		io.WriteString(w, "}")
	}
	if len(top) > 0 {
		io.WriteString(w, "\n")
	}
	_, err := io.WriteString(w, "]\n")
	return err
}

// canonicalValue returns v, a value of parameter name, in its canonical
// spelling, as points store it.
func canonicalValue(name, v string) (string, error) {
	p := model.LookupParam(name)
	if p == nil {
		return "", fmt.Errorf("unknown parameter %q", name)
	}
	x, err := p.Parse(v)
	if err != nil {
		return "", err
	}
	return p.Format(x), nil
}
