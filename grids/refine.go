package grids

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
)

// Refine asks for adaptive refinement: after the grid's points have run,
// rounds of up to PerRound points each are added between neighbouring points
// on the Axes (midway, on each axis's scale), where Metric differs most
// between the two or where the outcome of a Where constraint differs, until
// Points have been added or no pair of neighbours is worth splitting. Added
// points are ordinary points (stored, resumable, mergeable); package
// sweep/adaptive decides and runs the rounds (RefineStepper).
//
// In a grid file:
//
//	[refine]
//	points    = 40                        # the budget of added points
//	metric    = "victim_gbps"             # split where it changes most
//	where     = ["fairness_jain >= 0.95"] # and where these constraints flip
//	axes      = ["ccti_timer", "marking_rate"]   # default: every numeric axis
//	log       = ["ccti_timer"]            # axes split on a log scale
//	per_round = 10                        # default: a quarter of points
type Refine struct {
	// Points is the budget of added points, at least 1.
	Points int
	// PerRound is the most points one round adds, at least 1.
	PerRound int
	// Metric names a metric of model.MetricList, or is empty when only
	// Where guides the refinement.
	Metric string
	// Where are constraints on metrics and parameters (see MetricExpr)
	// whose boundary the refinement follows: the border of the region
	// ccsweep best would recommend.
	Where []*MetricExpr
	// Axes are the numeric axes refined, in the grid's order.
	Axes []RefineAxis
}

// RefineAxis is an axis refinement splits.
type RefineAxis struct {
	Name string
	Kind params.ParamKind
	// Log splits the axis on a logarithmic scale (its values are positive).
	Log bool
}

var refineKeys = []string{"points", "per_round", "metric", "where", "axes", "log"}

// NumericKind reports whether parameters of kind k have numeric values that
// can be split: integers, floats and durations.
func NumericKind(k params.ParamKind) bool {
	return k == params.KindInt || k == params.KindFloat || k == params.KindDuration
}

// parseRefine reads the [refine] table n; it returns nil after reporting a
// problem.
func (g *Grid) parseRefine(ps *problems, n *node) *Refine {
	t := tableOf(ps, "refine", n)
	if t == nil {
		return nil
	}
	bad := false
	add := func(line int, key, format string, args ...any) {
		ps.add(line, key, format, args...)
		bad = true
	}
	bad = unknownKeys(ps, t, "refine", refineKeys, "refine")
	r := &Refine{}
	positive := func(name string) int {
		m := t.m[name]
		if m == nil {
			return 0
		}
		v, ok := m.val.(int64)
		if !ok || v < 1 || v > MaxPoints {
			add(m.line, "refine."+name, "want a whole number from 1 to %d, not %s", MaxPoints, show(m.val))
			return 0
		}
		return int(v)
	}
	if t.m["points"] == nil {
		add(n.line, "refine", "needs points, the most points refinement may add, e.g. points = 40")
	}
	r.Points, r.PerRound = positive("points"), positive("per_round")
	if r.PerRound == 0 {
		r.PerRound = DefaultPerRound(r.Points)
	}
	if m := t.m["metric"]; m != nil {
		if name, ok := str(ps, "refine.metric", m); !ok {
			bad = true
		} else if model.LookupMetric(name) == nil {
			add(m.line, "refine.metric", "unknown metric %q%s (known: %s)", name, suggest(name, metricNames()), strings.Join(metricNames(), ", "))
		} else {
			r.Metric = name
		}
	}
	if m := t.m["where"]; m != nil {
		for _, e := range stringList(ps, "refine.where", m) {
			x, err := CompileMetricExpr(e.val.(string))
			if err != nil {
				add(e.line, "refine.where", "%v", err)
				continue
			}
			if err := g.checkSchemeReads(x); err != nil {
				add(e.line, "refine.where", "%q: %v", x.Src, err)
				continue
			}
			r.Where = append(r.Where, x)
		}
	}
	if t.m["metric"] == nil && t.m["where"] == nil {
		add(n.line, "refine", "needs a metric to follow, where constraints whose boundary to follow, or both")
	}
	axes := g.Axes()
	numeric := func(name string) *Axis {
		for i := range axes {
			if axes[i].Name == name && NumericKind(axes[i].Kind) {
				return &axes[i]
			}
		}
		return nil
	}
	if m := t.m["axes"]; m != nil {
		for _, e := range stringList(ps, "refine.axes", m) {
			name := e.val.(string)
			a := numeric(name)
			switch {
			case a == nil && params.LookupParam(name) == nil:
				add(e.line, "refine.axes", "unknown parameter %q%s", name, suggest(name, params.ParamNames()))
			case a == nil:
				add(e.line, "refine.axes", "%s is not a numeric axis of the grid: refinement splits swept numbers, durations and integers", name)
			default:
				r.Axes = append(r.Axes, RefineAxis{Name: name, Kind: a.Kind})
			}
		}
	} else {
		r.Axes = g.refinableAxes()
		if len(r.Axes) == 0 {
			add(n.line, "refine", "the grid has no numeric axis with two values or more to refine")
		}
	}
	if m := t.m["log"]; m != nil && !g.markLogAxes(ps, "refine.log", m, r.Axes, "one of the refined axes") {
		bad = true
	}
	if bad {
		return nil
	}
	return r
}

// checkSchemeReads returns the error x would give, when evaluated, on the
// first point of g whose scheme lacks a parameter x reads without reading
// the scheme (see constraint.reads).
func (g *Grid) checkSchemeReads(x *MetricExpr) error {
	for _, s := range g.Subs {
		for _, v := range s.ccValues() {
			if err := checkSchemeReads(x.reads, map[string]any{schemeVar: params.SchemeOf(v)}, x.Src); err != nil {
				return err
			}
		}
	}
	return nil
}

// refinableAxes returns the axes a refinement splits when it names none:
// every numeric axis of the grid with two values or more, in the grid's
// order, on a linear scale.
func (g *Grid) refinableAxes() []RefineAxis {
	var out []RefineAxis
	for _, a := range g.Axes() {
		if NumericKind(a.Kind) && len(a.Values) > 1 {
			out = append(out, RefineAxis{Name: a.Name, Kind: a.Kind})
		}
	}
	return out
}

// markLogAxes reads key, a list of axis names, from m and puts those axes
// of axes on a log scale. A name not among axes (notAxis says what they
// are) or an axis with a value that is not positive is a problem; it
// reports whether there was none.
func (g *Grid) markLogAxes(ps *problems, key string, m *node, axes []RefineAxis, notAxis string) bool {
	ok := true
	all := g.Axes()
	for _, e := range stringList(ps, key, m) {
		name := e.val.(string)
		i := slices.IndexFunc(axes, func(a RefineAxis) bool { return a.Name == name })
		if i < 0 {
			ps.add(e.line, key, "%s is not %s", name, notAxis)
			ok = false
			continue
		}
		j := slices.IndexFunc(all, func(a Axis) bool { return a.Name == name })
		for _, v := range all[j].Values {
			if x, num := AxisNumber(name, v); !num || x <= 0 {
				ps.add(e.line, key, "%s has the value %s: a log scale needs positive values", name, v)
				ok = false
				break
			}
		}
		axes[i].Log = true
	}
	return ok
}

// DefaultPerRound is the round size of a refinement of budget points when
// the grid does not say: a quarter of the budget, at least 1.
func DefaultPerRound(points int) int { return max(1, (points+3)/4) }

// stringList returns the strings of n, one string or a list of them,
// reporting other values.
func stringList(ps *problems, key string, n *node) []*node {
	return stringsOf(ps, key, n, "strings", "a string")
}

// stringsOf returns the strings of n, one string or a list of them,
// reporting other values: "want a list of <list>" for n, "want <item>" for
// an element.
func stringsOf(ps *problems, key string, n *node, list, item string) []*node {
	var items []*node
	switch v := n.val.(type) {
	case string:
		items = []*node{n}
	case []*node:
		items = v
	default:
		ps.add(n.line, key, "want a list of %s, not %s", list, show(n.val))
		return nil
	}
	var out []*node
	for _, e := range items {
		if _, ok := e.val.(string); !ok {
			ps.add(e.line, key, "want %s, not %s", item, show(e.val))
			continue
		}
		out = append(out, e)
	}
	return out
}

// AxisNumber returns the canonical value v of the numeric parameter name
// as a number: integers and floats as they are, durations in picoseconds.
func AxisNumber(name, v string) (float64, bool) {
	p := params.LookupParam(name)
	if p == nil || !NumericKind(p.Kind) {
		return 0, false
	}
	x, err := p.Parse(v)
	if err != nil {
		return 0, false
	}
	f := toFloat(x)
	return f, f == f
}

// AxisValue returns the canonical spelling of the number x (as AxisNumber
// gives it) for the numeric parameter name: integers rounded to the nearest
// whole number, durations to the nanosecond, floats to 12 significant
// digits.
func AxisValue(name string, x float64) (string, bool) {
	p := params.LookupParam(name)
	if p == nil || !NumericKind(p.Kind) {
		return "", false
	}
	var raw any
	switch p.Kind {
	case params.KindInt:
		raw = int64(math.Round(x))
	case params.KindDuration:
		raw = engine.Time(math.Round(x/float64(engine.Nanosecond))) * engine.Nanosecond
	default:
		raw = round12(x)
	}
	v, err := p.Parse(raw)
	if err != nil {
		return "", false
	}
	return p.Format(v), true
}

// RefineWith returns the refinement `ccsweep run --refine points` asks
// for: the grid's [refine] with its budget set to points (and its metric
// to metric, if not empty), or, for a grid without one, the refinement of
// every numeric axis with two values or more, on a linear scale, following
// metric. It fails when points is below 1, metric is unknown, or the grid
// has no such axis.
func (g *Grid) RefineWith(points int, metric string) (*Refine, error) {
	if points < 1 {
		return nil, fmt.Errorf("refine %d points: want at least 1", points)
	}
	if metric != "" && model.LookupMetric(metric) == nil {
		return nil, fmt.Errorf("refine by %q: unknown metric%s (known: %s)", metric, suggest(metric, metricNames()), strings.Join(metricNames(), ", "))
	}
	if g.Refine != nil {
		r := *g.Refine
		r.Points = points
		if metric != "" {
			r.Metric = metric
		}
		return &r, nil
	}
	if metric == "" {
		metric = metricNames()[0]
	}
	r := &Refine{Points: points, PerRound: DefaultPerRound(points), Metric: metric, Axes: g.refinableAxes()}
	if len(r.Axes) == 0 {
		return nil, fmt.Errorf("grid %s has no numeric axis with two values or more to refine", g.Name)
	}
	return r, nil
}

// Adaptive reports whether the grid asks for rounds after its own points:
// a [refine] or [calibrate] table, or a seed target in any sub-grid.
func (g *Grid) Adaptive() bool {
	if g.Refine != nil || g.Calibrate != nil {
		return true
	}
	for _, s := range g.Subs {
		if s.Target != nil {
			return true
		}
	}
	return false
}
