package grids

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// constraint is one compiled where expression.
type constraint struct {
	src  string
	prog *vm.Program
	key  string
	line int
	// reads holds the schemes' parameters (santos.m) the expression reads
	// without reading the scheme: on a point of another scheme such a
	// parameter has no value (its default is no part of the point), so
	// keep refuses to evaluate it there rather than drop or keep the
	// point by a value it does not have. Set for the constraints of a grid
	// file (compileWhere), not for those of a stored grid (canonical), so
	// that a grid stored before this check expands as it did.
	reads []string
}

// compileWhere compiles the where value n: one expression or a list of them.
func compileWhere(ps *problems, key string, n *node) []*constraint {
	env := whereEnv(ps.sc)
	var cs []*constraint
	for _, e := range stringsOf(ps, key, n, "boolean expressions", "a boolean expression in a string") {
		src := e.val.(string)
		prog, err := compileExpr(env, src)
		if err != nil {
			ps.add(e.line, key, "%q: %s", src, exprMessage(err))
			continue
		}
		cs = append(cs, &constraint{src: src, prog: prog, key: key, line: e.line, reads: unguardedSchemeParams(prog.Node())})
	}
	return cs
}

// unguardedSchemeParams returns the schemes' parameters (santos.m) that
// expression n reads, in order of appearance, or nil if it reads the
// scheme (schemeVar) as well: scheme != "santos" || santos.m > 2 is
// guarded.
func unguardedSchemeParams(n ast.Node) []string {
	var v schemeReads
	ast.Walk(&n, &v)
	if v.scheme {
		return nil
	}
	return v.params
}

// schemeReads is the ast.Visitor of unguardedSchemeParams.
type schemeReads struct {
	params []string
	scheme bool
}

func (v *schemeReads) Visit(n *ast.Node) {
	switch x := (*n).(type) {
	case *ast.IdentifierNode:
		v.scheme = v.scheme || x.Value == schemeVar
	case *ast.MemberNode:
		table, ok := x.Node.(*ast.IdentifierNode)
		field, ok2 := x.Property.(*ast.StringNode)
		if !ok || !ok2 {
			return
		}
		name := table.Value + "." + field.Value
		if p := params.LookupParam(name); p != nil && p.Scheme != "" && !slices.Contains(v.params, name) {
			v.params = append(v.params, name)
		}
	}
}

// whereEnv returns the environment where expressions are compiled
// against: every model parameter with its default value, as envValue gives
// it, and the parameters of scenario sc (nil: none) whose names are
// identifiers (load, k; not bg.load).
func whereEnv(sc *workload.Scenario) map[string]any {
	env := make(map[string]any)
	def := params.DefaultConfig()
	if sc != nil {
		def = sc.Config()
	}
	setEnv(env, &def, sc)
	return env
}

// compileExpr compiles the where expression src against env (whereEnv).
func compileExpr(env map[string]any, src string) (*vm.Program, error) {
	return expr.Compile(src, expr.Env(env), expr.AsBool(), expr.DisableBuiltin("now"))
}

// exprMessage is err on one line: expr's errors add a multi-line snippet.
func exprMessage(err error) string {
	var fe *file.Error
	if errors.As(err, &fe) {
		return fmt.Sprintf("%s (column %d)", fe.Message, fe.Column+1)
	}
	return err.Error()
}

// setEnv stores c's parameter values in env under their names, as
// envValue gives them.
func setEnv(env map[string]any, c *params.Config, sc *workload.Scenario) {
	for _, p := range params.Params() {
		setEnvValue(env, p.Name, envValue(p, c.Get(p.Name)))
	}
	env[schemeVar] = c.CC.Scheme
	if sc != nil {
		for _, p := range sc.ScenarioParams() {
			if !strings.Contains(p.Name, ".") {
				env[p.Name] = envValue(p, sc.Get(c, p.Name))
			}
		}
	}
}

// setEnvValue stores v under name in env; a scheme's parameter
// (santos.m) goes into a table per scheme, so that expressions name it as
// written.
func setEnvValue(env map[string]any, name string, v any) {
	scheme, field, dotted := strings.Cut(name, ".")
	if p := params.LookupParam(name); !dotted || p == nil || p.Scheme == "" {
		env[name] = v
		return
	}
	t, _ := env[scheme].(map[string]any)
	if t == nil {
		t = map[string]any{}
		env[scheme] = t
	}
	t[field] = v
}

// schemeVar names the congestion-control scheme in where expressions:
// "off", "ib", "santos", "nicrate" or "drb" (params.Schemes).
const schemeVar = "scheme"

// envValue is a typed value of parameter p the way where expressions see
// it: durations as float64 microseconds, integers as int, floats as
// float64, enums as strings and on/off as bool. cc, which was on/off before
// it named a scheme, stays a bool, true for every scheme but off; the
// scheme itself is schemeVar.
func envValue(p *params.Param, v any) any {
	if t, ok := v.(engine.Time); ok {
		return t.Micros()
	}
	if p.Name == "cc" {
		return v != "off"
	}
	return v
}

// checkSchemeReads returns an error if a parameter of reads (a scheme's
// parameter read without the scheme, see constraint) belongs to another
// scheme than the point's, whose values are in env; src is the expression.
func checkSchemeReads(reads []string, env map[string]any, src string) error {
	scheme, _ := env[schemeVar].(string)
	for _, name := range reads {
		if p := params.LookupParam(name); !p.AppliesTo(scheme) {
			return fmt.Errorf("reads %s, a parameter of cc %s, on points of cc %s, where it has no value; guard it: scheme != %q || (%s)",
				name, p.Scheme, scheme, p.Scheme, src)
		}
	}
	return nil
}

// keep reports whether the point whose parameter values are in env
// satisfies every constraint of cs, running them on machine.
func keep(machine *vm.VM, cs []*constraint, env map[string]any) (bool, *constraint, error) {
	for _, k := range cs {
		if err := checkSchemeReads(k.reads, env, k.src); err != nil {
			return false, k, err
		}
		out, err := machine.Run(k.prog, env)
		if err != nil {
			return false, k, err
		}
		if ok, _ := out.(bool); !ok {
			return false, nil, nil
		}
	}
	return true, nil, nil
}
