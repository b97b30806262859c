package rank

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/store"
)

// ErrNoGrid is wrapped by LoadSummaries's error when the database holds no
// grid of the name or ID asked for.
var ErrNoGrid = errors.New("holds no grid")

// ParseAt reads best --at NAME=VALUE values, each value in its canonical
// spelling; every error is bad input.
func ParseAt(list []string) ([]store.Param, error) {
	var out []store.Param
	for _, s := range list {
		name, v, ok := strings.Cut(s, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("--at %q: want NAME=VALUE, e.g. ccti_timer=150us", s)
		}
		if name != "scenario" {
			canon, err := canonicalValue(name, v)
			if err != nil {
				return nil, fmt.Errorf("--at %s: %w", s, err)
			}
			v = canon
		}
		out = append(out, store.Param{Name: name, Value: v})
	}
	return out, nil
}

// LoadSummaries reads the points of the grid sel (name or ID prefix; ""
// for all) with their seeds aggregated, pooling grids: a point is its
// scenario and parameters. results reads one grid's points whoever ran
// them (report.RecordResults); a point several grids share counts once, as
// the first spells it. It returns a name for the selection, and an error
// wrapping ErrNoGrid when no grid is selected.
func LoadSummaries(ctx context.Context, db *store.DB, sel string,
	results func(context.Context, *store.DB, store.GridRecord, string) ([]store.Result, error)) ([]*store.Summary, string, error) {
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
			return nil, "", fmt.Errorf("%s %w", db.Path(), ErrNoGrid)
		}
		return nil, "", fmt.Errorf("--grid %q: %s %w of that name or ID", sel, db.Path(), ErrNoGrid)
	}
	var rs []store.Result
	seen := map[string]bool{}
	for _, r := range recs {
		if !slices.Contains(ids, r.ID) {
			continue
		}
		part, err := results(ctx, db, r, "")
		if err != nil {
			return nil, "", err
		}
		for _, res := range part {
			if !seen[res.ID] {
				seen[res.ID] = true
				rs = append(rs, res)
			}
		}
	}
	for i := range rs {
		rs[i].GridID = ""
	}
	return store.Summarize(rs), strings.Join(names, ", "), nil
}

// WriteText writes the answer as best prints it: the query, the
// recommendation, its region, the table of top (points of a.Points), the
// Pareto front and, if at names a point, why it is not recommended. name
// names the grids ranked.
func (a *Answer) WriteText(w io.Writer, top []*Entry, name string, at []store.Param) error {
	q := a.Query
	var objs []string
	for _, o := range q.Objectives {
		objs = append(objs, o.String())
	}
	how := "weighted"
	if q.Order == Lexicographic {
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
		map[bool]string{true: " on every objective", false: ""}[q.Order == Lexicographic], regionRanges(a))
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
			row = append(row, FormatStat(p.Metrics[o.Metric]))
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
func regionRanges(a *Answer) string {
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
		SortValues(name, vals)
		if len(vals) == 1 {
			parts = append(parts, name+" "+vals[0])
		} else {
			parts = append(parts, fmt.Sprintf("%s %s..%s (%d values)", name, vals[0], vals[len(vals)-1], len(vals)))
		}
	}
	return strings.Join(parts, ", ")
}

// rankColumns are the columns of the csv and json outputs.
func rankColumns(a *Answer) []string {
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

func rankRow(a *Answer, p *Entry) []any {
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

// WriteCSV writes top as CSV: rank, score, pareto, region, the axes,
// seeds, then each objective's mean and 95 % half-width (and robust value).
func (a *Answer) WriteCSV(w io.Writer, top []*Entry) error {
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

// WriteJSON writes the rows of WriteCSV as a JSON array of objects, NaN
// and infinities as null.
func (a *Answer) WriteJSON(w io.Writer, top []*Entry) error {
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
	p := params.LookupParam(name)
	if p == nil {
		return "", fmt.Errorf("unknown parameter %q", name)
	}
	x, err := p.Parse(v)
	if err != nil {
		return "", err
	}
	return p.Format(x), nil
}
