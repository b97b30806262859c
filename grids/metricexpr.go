package grids

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
)

// MetricExpr is a compiled boolean expression over a finished point: its
// metrics (every name of model.MetricList, as float64, NaN where the point
// has no value) and its model parameters (as in where constraints: integers
// as int, floats as float, durations as float microseconds, enums as
// strings, on/off as bool). `ccsweep best --where` and the where list of a
// [refine] table are MetricExprs, e.g. "fairness_jain >= 0.95 &&
// ccti_timer <= 500". A name that is no metric or parameter but has the
// shape of a closed-loop app's metric (lowercase letters, digits and '_',
// ending in _us or _mbps, e.g. "train_iteration_mean_us < 500") is read as
// one, NaN where the point has no such metric; AppMetrics lists them, for
// the caller to check against the metrics it has. It is safe for
// concurrent use.
type MetricExpr struct {
	// Src is the expression as written.
	Src   string
	prog  *vm.Program
	apps  []string // the apps' metrics it reads
	reads []string // schemes' parameters it reads without reading the scheme (see constraint)
}

// CompileMetricExpr compiles src, which must be a boolean expression; the
// error says what is wrong in one line, with the column.
func CompileMetricExpr(src string) (*MetricExpr, error) {
	env := metricEnv(nil, nil)
	apps := appMetricsIn(src, env)
	for _, name := range apps {
		env[name] = math.NaN()
	}
	prog, err := expr.Compile(src, expr.Env(env), expr.AsBool(), expr.DisableBuiltin("now"))
	if err != nil {
		return nil, fmt.Errorf("%q: %s", src, exprMessage(err))
	}
	return &MetricExpr{Src: src, prog: prog, apps: apps, reads: unguardedSchemeParams(prog.Node())}, nil
}

// AppMetrics returns the names of apps' metrics e reads, in the order
// they first appear.
func (e *MetricExpr) AppMetrics() []string { return slices.Clone(e.apps) }

// appMetricsIn returns the identifiers of src (if it parses) that env does
// not hold and that have the shape of an app's metric, without repeats.
func appMetricsIn(src string, env map[string]any) []string {
	tree, err := parser.Parse(src)
	if err != nil {
		return nil // Compile reports it
	}
	var v identVisitor
	ast.Walk(&tree.Node, &v)
	var out []string
	for _, name := range v.names {
		if _, ok := env[name]; !ok && isAppMetricShape(name) && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

type identVisitor struct{ names []string }

func (v *identVisitor) Visit(n *ast.Node) {
	if id, ok := (*n).(*ast.IdentifierNode); ok {
		v.names = append(v.names, id.Value)
	}
}

// isAppMetricShape reports whether name can be a closed-loop app's metric
// (model's naming: LABEL_..._us or LABEL_..._mbps, lowercase).
func isAppMetricShape(name string) bool {
	if name == "" || len(name) > 128 || name[0] < 'a' || name[0] > 'z' ||
		!(strings.HasSuffix(name, "_us") || strings.HasSuffix(name, "_mbps")) {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Eval evaluates e for a point with the given parameters (canonical text;
// those not given take params.DefaultConfig's values) and metric values (a
// metric not given is NaN, so that every comparison with it is false).
func (e *MetricExpr) Eval(params []Param, metrics map[string]float64) (bool, error) {
	env := metricEnv(params, metrics)
	for _, name := range e.apps {
		v, ok := metrics[name]
		if !ok {
			v = math.NaN()
		}
		env[name] = v
	}
	if err := checkSchemeReads(e.reads, env, e.Src); err != nil {
		return false, fmt.Errorf("%q: %w", e.Src, err)
	}
	out, err := expr.Run(e.prog, env)
	if err != nil {
		return false, fmt.Errorf("%q: %s", e.Src, exprMessage(err))
	}
	ok, _ := out.(bool)
	return ok, nil
}

// metricEnv returns the environment of a MetricExpr: the configuration of
// values over the defaults, and every metric of model.MetricList.
func metricEnv(values []Param, metrics map[string]float64) map[string]any {
	c := params.DefaultConfig()
	for _, p := range values {
		c.Set(p.Name, p.Value) // a stored point's values parse; a bad one keeps the default
	}
	env := make(map[string]any)
	setEnv(env, &c, nil)
	for _, m := range model.MetricList() {
		v, ok := metrics[m.Name]
		if !ok {
			v = math.NaN()
		}
		env[m.Name] = v
	}
	return env
}
