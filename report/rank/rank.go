// Package rank turns a sweep's finished points into a recommendation: it
// ranks the points by objectives the user states (metrics to maximize or
// minimize, weighted or in lexicographic order) under constraints, finds
// the Pareto front and the region of points about as good as the best, and,
// for robustness, can score each point by its worst neighbour in the grid,
// since a setting on the edge of a cliff is a bad recommendation. It reads
// per-point summaries (store.Summarize, LoadSummaries) and knows metrics
// only by the names of model.MetricList; Answer.WriteText, WriteCSV and
// WriteJSON print a ranking as ccsweep best does.
//
// # Imports
//
// Of ccsweep, rank imports only grids, model, model/params (the
// parameters a ranking names) and store. It must never import
// report, sweep or engine: the report and ccsweep best both use it, and it
// ranks what is stored without running or drawing anything.
package rank

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
)

// Objective is a metric to maximize or minimize, with a weight.
type Objective struct {
	// Metric names a metric of model.MetricList or of a closed-loop app
	// (LABEL_..._us, LABEL_..._mbps: model.AppResult).
	Metric   string
	Maximize bool
	// Weight is the objective's weight in a weighted score, > 0.
	Weight float64
}

// String spells the objective as ParseObjective reads it, with its sense:
// "maximize victim_gbps:2".
func (o Objective) String() string {
	s := "minimize "
	if o.Maximize {
		s = "maximize "
	}
	s += o.Metric
	if o.Weight != 1 {
		s += ":" + strconv.FormatFloat(o.Weight, 'g', -1, 64)
	}
	return s
}

// ErrBadObjective is wrapped by ParseObjective's errors.
var ErrBadObjective = errors.New("bad objective")

// ParseObjective reads "METRIC" or "METRIC:WEIGHT" (weight 1 by default).
func ParseObjective(s string, maximize bool) (Objective, error) {
	name, w, hasW := strings.Cut(strings.TrimSpace(s), ":")
	o := Objective{Metric: name, Maximize: maximize, Weight: 1}
	if model.LookupMetric(name) == nil && !isAppMetric(name) {
		var names []string
		for _, m := range model.MetricList() {
			names = append(names, m.Name)
		}
		return o, fmt.Errorf("%w: unknown metric %q (known: %s, or an app's metric: NAME_..._us or NAME_..._mbps)", ErrBadObjective, name, strings.Join(names, ", "))
	}
	if hasW {
		v, err := strconv.ParseFloat(w, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return o, fmt.Errorf("%w: %q: the weight after ':' must be a positive number", ErrBadObjective, s)
		}
		o.Weight = v
	}
	return o, nil
}

// Order says how objectives combine into a ranking.
type Order int

const (
	// Weighted ranks by the weighted mean of each objective's value scaled
	// to [0, 1] over the feasible points (1 the best).
	Weighted Order = iota
	// Lexicographic ranks by the first objective, then among points in the
	// same band of it by the second, and so on: band 0 is every point within
	// Tolerance of the best value, band 1 the next Tolerance below, ...;
	// within the last objective's band the weighted score decides.
	Lexicographic
)

// Query is what to rank by.
type Query struct {
	Objectives []Objective
	// Where are the constraints a point must meet to be recommended.
	Where []*grids.MetricExpr
	Order Order
	// Robust scores each objective of a point by the worst value among the
	// point and its neighbours (see Neighbours).
	Robust bool
	// Tolerance, a difference in scaled value (each objective's range over
	// the feasible points is 0 to 1, and so is the weighted score), says
	// which points are as good as the best: the recommended region, and the
	// bands of lexicographic order.
	// 0 means DefaultTolerance.
	Tolerance float64
}

// DefaultTolerance is the default Query.Tolerance: 5 %.
const DefaultTolerance = 0.05

// Entry is a point's place in a ranking: its summary (a parameter
// combination with its seeds aggregated, store.Summary) and what ranking
// found of it. It is not a point of its own: the point is the summary's
// scenario and parameters, grids.Point (point.Point) without a seed.
type Entry struct {
	*store.Summary
	// Coords are the point's values of Answer.Axes ("" where it does not
	// set the parameter).
	Coords []string
	// Own are the means of the objectives' metrics over the point's seeds;
	// Values what ranking uses: Own, or with Query.Robust the worst of the
	// point and its neighbours, whose coordinates WorstAt gives ("" for the
	// point itself).
	Own, Values []float64
	WorstAt     []string
	// Feasible is set when the point meets every constraint and has every
	// objective's metric; Why says otherwise why not.
	Feasible bool
	Why      string
	// Score is the weighted score in [0, 1] (1 best) over the feasible
	// points; Rank is 1 for the best feasible point, 0 for an infeasible
	// one.
	Score float64
	Rank  int
	// Pareto is set for feasible points no other feasible point dominates
	// on Values; InRegion for those in the recommended region.
	Pareto, InRegion bool
	// Neighbours are the positions in Answer.Points of the point's grid
	// neighbours (see Neighbours), set with Query.Robust only.
	Neighbours []int
	near       []*Entry
	norm       []float64 // Values scaled to [0, 1], 1 best
}

// Describe spells the point's coordinates, e.g. "ccti_timer=150us marking_rate=1".
func (p *Entry) Describe(axes []string) string {
	var parts []string
	for i, a := range axes {
		v := p.Coords[i]
		if v == "" {
			v = "(default)"
		}
		parts = append(parts, a+"="+v)
	}
	if len(parts) == 0 {
		return "(the only point)"
	}
	return strings.Join(parts, " ")
}

// Answer is the ranking of a set of points.
type Answer struct {
	Query Query
	// Axes are the parameters (and "scenario", when it varies) whose
	// values differ between the points, in name order.
	Axes []string
	// Points are every point with a done seed, feasible ones first by rank,
	// then the others in their given order.
	Points []*Entry
	// Best is the point ranked 1, nil if no point is feasible.
	Best *Entry
	// Front is the Pareto front, by rank; Region the recommended region,
	// by rank.
	Front, Region []*Entry
	// Feasible counts the feasible points.
	Feasible int
}

// Rank ranks the points of sums with at least one done seed by q. It fails
// when q has no objective.
func Rank(sums []*store.Summary, q Query) (*Answer, error) {
	if len(q.Objectives) == 0 {
		return nil, errors.New("rank: no objective: give at least one metric to maximize or minimize")
	}
	if q.Tolerance == 0 {
		q.Tolerance = DefaultTolerance
	}
	a := &Answer{Query: q}
	var pts []*Entry
	for _, s := range sums {
		if len(s.Seeds) > 0 {
			pts = append(pts, &Entry{Summary: s})
		}
	}
	a.Axes = varying(pts)
	for _, p := range pts {
		p.Coords = make([]string, len(a.Axes))
		for i, name := range a.Axes {
			if name == "scenario" {
				p.Coords[i] = p.Scenario
			} else {
				p.Coords[i], _ = p.Value(name)
			}
		}
	}
	a.Points = pts
	for _, w := range q.Where {
		for _, name := range w.AppMetrics() {
			if !slices.ContainsFunc(pts, func(p *Entry) bool { _, ok := p.Metrics[name]; return ok }) {
				return nil, fmt.Errorf("rank: where %q: no point has a metric %s", w.Src, name)
			}
		}
	}
	if q.Robust {
		if err := checkRobust(len(pts)); err != nil {
			return nil, err
		}
		for i, near := range Neighbours(a.coordinates()) {
			for _, k := range near {
				pts[i].near = append(pts[i].near, pts[k])
			}
		}
	}
	for _, p := range pts {
		if err := a.evaluate(p); err != nil {
			return nil, err
		}
	}
	a.score()
	a.order()
	return a, nil
}

// Unmeasured returns an error naming the first objective whose metric no
// point has (victim_gbps on a scenario without victims), nil if every
// objective's metric was measured somewhere or there are no points. Such
// a ranking recommends nothing; a caller that ranks by request (best)
// refuses it, one that ranks many grids at once (a report) need not.
func (a *Answer) Unmeasured() error {
	for _, o := range a.Query.Objectives {
		if len(a.Points) > 0 && !slices.ContainsFunc(a.Points, func(p *Entry) bool { _, ok := p.Metrics[o.Metric]; return ok }) {
			return fmt.Errorf("rank: objective %s: none of the %d points has a metric %s (not measured in these runs)", o, len(a.Points), o.Metric)
		}
	}
	return nil
}

// varying returns the parameter names whose values differ between pts,
// sorted, with "scenario" first when scenarios differ.
func varying(pts []*Entry) []string {
	values := map[string]map[string]bool{}
	all := map[string]bool{}
	for _, p := range pts {
		for _, q := range p.Params {
			all[q.Name] = true
		}
	}
	for _, p := range pts {
		for name := range all {
			v, _ := p.Value(name)
			if values[name] == nil {
				values[name] = map[string]bool{}
			}
			values[name][v] = true
		}
		if values["\x00scenario"] == nil {
			values["\x00scenario"] = map[string]bool{}
		}
		values["\x00scenario"][p.Scenario] = true
	}
	var axes []string
	for name, vs := range values {
		if len(vs) > 1 && name != "\x00scenario" {
			axes = append(axes, name)
		}
	}
	slices.Sort(axes)
	if len(values["\x00scenario"]) > 1 {
		axes = append([]string{"scenario"}, axes...)
	}
	return axes
}

// evaluate sets p's objective values (robust or not) and feasibility.
func (a *Answer) evaluate(p *Entry) error {
	q := a.Query
	means := map[string]float64{}
	for name, st := range p.Metrics {
		means[name] = st.Mean
	}
	p.Feasible = true
	for _, w := range q.Where {
		ok, err := w.Eval(p.Params, means)
		if err != nil {
			return err
		}
		if !ok {
			p.Feasible, p.Why = false, "fails "+w.Src
			break
		}
	}
	for _, o := range q.Objectives {
		v, ok := means[o.Metric]
		if !ok {
			v = math.NaN()
			if p.Feasible {
				p.Feasible, p.Why = false, "has no value of "+o.Metric
			}
		}
		p.Own = append(p.Own, v)
		worst, at := v, ""
		if q.Robust {
			for _, n := range p.near {
				st, ok := n.Metrics[o.Metric]
				if !ok {
					continue
				}
				if worse(o, st.Mean, worst) {
					worst, at = st.Mean, n.Describe(a.Axes)
				}
			}
		}
		p.Values = append(p.Values, worst)
		p.WorstAt = append(p.WorstAt, at)
	}
	return nil
}

// worse reports whether x is worse than y for objective o; NaN is never
// worse, and nothing is better than NaN.
func worse(o Objective, x, y float64) bool {
	if math.IsNaN(y) {
		return false
	}
	if o.Maximize {
		return x < y
	}
	return x > y
}

// score scales the feasible points' values, computes their weighted
// scores and finds the Pareto front.
func (a *Answer) score() {
	q := a.Query
	var feas []*Entry
	for _, p := range a.Points {
		if p.Feasible {
			feas = append(feas, p)
		}
	}
	a.Feasible = len(feas)
	for i, o := range q.Objectives {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range feas {
			lo, hi = min(lo, p.Values[i]), max(hi, p.Values[i])
		}
		for _, p := range feas {
			n := 1.0
			if hi > lo {
				n = (p.Values[i] - lo) / (hi - lo)
				if !o.Maximize {
					n = 1 - n
				}
			}
			p.norm = append(p.norm, n)
		}
	}
	var wsum float64
	for _, o := range q.Objectives {
		wsum += o.Weight
	}
	for _, p := range feas {
		p.Score = 0
		for i, o := range q.Objectives {
			p.Score += o.Weight * p.norm[i]
		}
		p.Score /= wsum
	}
	for _, p := range feas {
		p.Pareto = true
		for _, r := range feas {
			if r != p && dominates(r, p) {
				p.Pareto = false
				break
			}
		}
	}
}

// dominates reports whether r is at least as good as p on every objective
// and better on one.
func dominates(r, p *Entry) bool {
	better := false
	for i := range r.norm {
		switch {
		case r.norm[i] < p.norm[i]:
			return false
		case r.norm[i] > p.norm[i]:
			better = true
		}
	}
	return better
}

// order sorts the points by rank and sets Best, Front and Region.
func (a *Answer) order() {
	q := a.Query
	// band is how many tolerances a scaled value lies below the best's (1):
	// band 0 holds every value within Tolerance of the best, band 1 the
	// next Tolerance down, and so on. Bands counted from 0 upwards instead
	// would leave the best alone in its band whenever 1/Tolerance is whole.
	band := func(x float64) float64 { return max(0, math.Floor((1-x)/q.Tolerance-1e-9)) }
	slices.SortStableFunc(a.Points, func(x, y *Entry) int {
		if x.Feasible != y.Feasible {
			if x.Feasible {
				return -1
			}
			return 1
		}
		if !x.Feasible {
			return 0
		}
		if q.Order == Lexicographic {
			for i := range x.norm {
				if c := cmp.Compare(band(x.norm[i]), band(y.norm[i])); c != 0 {
					return c
				}
			}
		}
		return cmp.Compare(y.Score, x.Score)
	})
	pos := map[*Entry]int{}
	for i, p := range a.Points {
		pos[p] = i
	}
	for _, p := range a.Points {
		for _, n := range p.near {
			p.Neighbours = append(p.Neighbours, pos[n])
		}
		slices.Sort(p.Neighbours)
	}
	for i, p := range a.Points {
		if p.Feasible {
			p.Rank = i + 1
		}
	}
	if a.Feasible == 0 {
		return
	}
	a.Best = a.Points[0]
	for _, p := range a.Points[:a.Feasible] {
		if p.Pareto {
			a.Front = append(a.Front, p)
		}
		in := p.Score >= a.Best.Score-q.Tolerance
		if q.Order == Lexicographic {
			in = true
			for i := range p.norm {
				in = in && p.norm[i] >= a.Best.norm[i]-q.Tolerance
			}
		}
		if in {
			p.InRegion = true
			a.Region = append(a.Region, p)
		}
	}
}

// Find returns the point whose parameters include every one of want (by
// canonical value), or nil; with several, the best ranked.
func (a *Answer) Find(want []store.Param) *Entry {
	for _, p := range a.Points {
		ok := true
		for _, w := range want {
			if v, has := p.Value(w.Name); !has || v != w.Value {
				if !(w.Name == "scenario" && p.Scenario == w.Value) {
					ok = false
					break
				}
			}
		}
		if ok {
			return p
		}
	}
	return nil
}

// Explain says, in sentences with numbers, where p stands against the
// recommendation: its rank, and if it is not in the recommended region,
// why not: the constraint it fails, or how far each objective is from the
// best point's.
func (a *Answer) Explain(p *Entry) []string {
	q := a.Query
	var out []string
	desc := p.Describe(a.Axes)
	if !p.Feasible {
		out = append(out, fmt.Sprintf("%s is not recommended: it %s.", desc, p.Why))
	} else {
		where := "outside the recommended region"
		if p.InRegion {
			where = "inside the recommended region"
		}
		pareto := "not on the Pareto front"
		if p.Pareto {
			pareto = "on the Pareto front"
		}
		out = append(out, fmt.Sprintf("%s ranks %d of %d feasible points, score %.3f against the best's %.3f (region: score within %.3f of it); it is %s and %s.",
			desc, p.Rank, a.Feasible, p.Score, scoreOf(a.Best), q.Tolerance, where, pareto))
	}
	if a.Best == nil || a.Best == p {
		return out
	}
	for i, o := range q.Objectives {
		line := fmt.Sprintf("%s: %s %s against %s at the best point (%s)", o.Metric, formatStat(p, o.Metric),
			unitOf(o.Metric), formatStat(a.Best, o.Metric), a.Best.Describe(a.Axes))
		if q.Robust && p.WorstAt[i] != "" {
			line += fmt.Sprintf("; its worst neighbour, %s, has %.4g", p.WorstAt[i], p.Values[i])
		}
		out = append(out, line+".")
	}
	return out
}

func scoreOf(p *Entry) float64 {
	if p == nil {
		return math.NaN()
	}
	return p.Score
}

// formatStat spells a metric's mean with its confidence half-width and
// seed count: "12.98 ± 0.05 (3 seeds)", or "12.98 (1 seed)".
func formatStat(p *Entry, metric string) string {
	st, ok := p.Metrics[metric]
	if !ok {
		return "no value"
	}
	return FormatStat(st)
}

// FormatStat spells a summary: "12.98 ± 0.05 (3 seeds)", or "12.98 (1 seed)".
func FormatStat(st store.Stat) string {
	if st.N < 2 {
		return fmt.Sprintf("%.4g (1 seed)", st.Mean)
	}
	return fmt.Sprintf("%.4g ± %.2g (%d seeds)", st.Mean, st.HalfWidth, st.N)
}

func unitOf(metric string) string {
	if m := model.LookupMetric(metric); m != nil {
		return m.Unit
	}
	switch {
	case strings.HasSuffix(metric, "_us"):
		return "µs"
	case strings.HasSuffix(metric, "_mbps"):
		return "MB/s"
	}
	return ""
}

// isAppMetric reports whether name can be a metric of a closed-loop app
// (model.AppResult): a name the store takes for one, in µs or MB/s.
func isAppMetric(name string) bool {
	return store.IsAppMetricName(name) && (strings.HasSuffix(name, "_us") || strings.HasSuffix(name, "_mbps"))
}
