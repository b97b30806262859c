package grids

import (
	"fmt"
	"math"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/ccsweep/ccsweep/model"
)

// MetricExpr is a compiled boolean expression over a finished point: its
// metrics (every name of model.MetricList, as float64, NaN where the point
// has no value) and its model parameters (as in where constraints: integers
// as int, floats as float, durations as float microseconds, enums as
// strings, on/off as bool). `ccsweep best --where` and the where list of a
// [refine] table are MetricExprs, e.g. "fairness_jain >= 0.95 &&
// ccti_timer <= 500". It is safe for concurrent use.
type MetricExpr struct {
	// Src is the expression as written.
	Src  string
	prog *vm.Program
}

// CompileMetricExpr compiles src, which must be a boolean expression; the
// error says what is wrong in one line, with the column.
func CompileMetricExpr(src string) (*MetricExpr, error) {
	prog, err := expr.Compile(src, expr.Env(metricEnv(nil, nil)), expr.AsBool(), expr.DisableBuiltin("now"))
	if err != nil {
		return nil, fmt.Errorf("%q: %s", src, exprMessage(err))
	}
	return &MetricExpr{Src: src, prog: prog}, nil
}

// Eval evaluates e for a point with the given parameters (canonical text;
// those not given take model.DefaultConfig's values) and metric values (a
// metric not given is NaN, so that every comparison with it is false).
func (e *MetricExpr) Eval(params []Param, metrics map[string]float64) (bool, error) {
	out, err := expr.Run(e.prog, metricEnv(params, metrics))
	if err != nil {
		return false, fmt.Errorf("%q: %s", e.Src, exprMessage(err))
	}
	ok, _ := out.(bool)
	return ok, nil
}

// metricEnv returns the environment of a MetricExpr: the configuration of
// params over the defaults, and every metric of model.MetricList.
func metricEnv(params []Param, metrics map[string]float64) map[string]any {
	c := model.DefaultConfig()
	for _, p := range params {
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
