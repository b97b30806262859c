package grids

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/expr-lang/expr/vm"

	"github.com/ccsweep/ccsweep/grids/param"
	"github.com/ccsweep/ccsweep/grids/point"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Point is one run of a grid: a scenario, the parameters the grid sets and
// a seed. It is point.Point, the type store keeps too; a grid's points hold
// their parameters sorted by name, and a parameter the grid does not
// mention keeps the scenario's value (params.DefaultConfig's for most).
// PointID gives a point's identity, PointConfig its configuration.
type Point = point.Point

// Param is a parameter's name and canonical value: param.Param, the type
// store keeps too.
type Param = param.Param

// PointConfig returns params.DefaultConfig (or the configuration of p's
// scenario) with p's parameters applied, checked with
// params.Config.Validate.
func PointConfig(p Point) (params.Config, error) {
	c := params.DefaultConfig()
	sc := workload.LookupScenario(p.Scenario)
	if sc != nil {
		c = sc.Config()
	}
	for _, q := range p.Params {
		set := c.Set
		if sc != nil {
			set = func(name string, v any) error { return sc.Set(&c, name, v) }
		}
		if err := set(q.Name, q.Value); err != nil {
			return c, fmt.Errorf("point config: %w", err)
		}
	}
	if err := c.Validate(); err != nil {
		return c, fmt.Errorf("point config: %w", err)
	}
	return c, nil
}

// PointID returns the point's identity under the given model version (use
// model.Version): the lowercase hex of the first 16 bytes of the SHA-256 of
// this text, every line ending in "\n":
//
//	ccsweep-point/1
//	model=<modelVersion>
//	scenario=<Scenario>
//	<name>=<value>     one line per entry of Params, sorted by name
//	seed=<Seed in decimal>
//
// but for the parameters whose setting changes nothing, which have no line,
// so that a point that sets a parameter to the value it has anyway is the
// point that leaves it out (one simulation, one identity):
//   - a preset that the scenario has already (params.DefaultPreset unless a
//     scenario file's parameters choose another);
//   - a model parameter set to the value it has in the scenario's
//     configuration with the point's preset, if it sets one, applied (as
//     marking_rate = 1, or cc = "off", on the testbed).
//
// A scenario file's own parameters always have their line.
//
// The encoding never changes: a point keeps its ID, so results already in a
// database are never run again. Databases written before parameters at
// their default lost their line hold such points under LegacyPointID.
func PointID(p Point, modelVersion string) string {
	return id(p, modelVersion, atDefault(p))
}

// LegacyPointID returns the identity ccsweep gave the point before a
// parameter set to its default lost its line in PointID (the same text
// with a line for every parameter but a preset the scenario has already),
// or "" when that is its ID: when the point sets no parameter to its
// default. Readers look a point up under both, so that a database written
// the old way still holds it.
func LegacyPointID(p Point, modelVersion string) string {
	if !slices.ContainsFunc(p.Params, atDefault(p)) {
		return ""
	}
	return id(p, modelVersion, func(Param) bool { return false })
}

// atDefault returns whether a parameter of p is a model parameter other
// than preset set to the value it has without it (see PointID).
func atDefault(p Point) func(Param) bool {
	def := defaults(p)
	return func(q Param) bool {
		if q.Name == "preset" || params.LookupParam(q.Name) == nil {
			return false
		}
		v, ok := def[q.Name]
		return ok && v == q.Value
	}
}

// id hashes the identity text of PointID, leaving out a preset the
// scenario has already and the parameters skip reports.
func id(p Point, modelVersion string, skip func(Param) bool) string {
	if !slices.IsSortedFunc(p.Params, paramOrder) {
		// A point built by hand: its identity is its sorted point's.
		p.Params = slices.SortedFunc(slices.Values(p.Params), paramOrder)
	}
	b := []byte("ccsweep-point/1\nmodel=")
	b = append(b, modelVersion...)
	b = append(b, "\nscenario="...)
	b = append(b, p.Scenario...)
	b = append(b, '\n')
	for _, q := range p.Params {
		if q.Name == "preset" && q.Value == scenarioPreset(p.Scenario) || skip(q) {
			continue
		}
		b = append(b, q.Name...)
		b = append(b, '=')
		b = append(b, q.Value...)
		b = append(b, '\n')
	}
	b = append(b, "seed="...)
	b = strconv.AppendUint(b, p.Seed, 10)
	b = append(b, '\n')
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

// paramOrder orders parameters by name.
func paramOrder(a, b Param) int { return strings.Compare(a.Name, b.Name) }

// defaultsKey is a scenario (nil for an unknown name) and a preset ("" for
// the scenario's own).
type defaultsKey struct {
	sc     *workload.Scenario
	preset string
}

// defaultsCache maps a defaultsKey to its canonical model parameter values
// (map[string]string), or to nil when the preset does not apply.
var defaultsCache sync.Map

// defaults returns the canonical value of every model parameter in the
// configuration p's parameters start from: its scenario's, with p's
// preset applied if p sets one; nil if that preset cannot be applied. No
// model parameter but preset changes another's value, so a parameter whose
// value is its default here changes nothing. The result is shared: do not
// modify it.
func defaults(p Point) map[string]string {
	key := defaultsKey{sc: workload.LookupScenario(p.Scenario)}
	key.preset, _ = p.Value("preset")
	if m, ok := defaultsCache.Load(key); ok {
		return m.(map[string]string)
	}
	c := params.DefaultConfig()
	set := c.Set
	if key.sc != nil {
		c = key.sc.Config()
		set = func(name string, v any) error { return key.sc.Set(&c, name, v) }
	}
	var m map[string]string
	if key.preset == "" || set("preset", key.preset) == nil {
		m = make(map[string]string)
		for _, name := range params.ParamNames() {
			m[name] = c.Canonical(name)
		}
	}
	defaultsCache.Store(key, m)
	return m
}

// scenarioPreset returns the preset the runs of scenario name have
// without one.
func scenarioPreset(name string) string {
	if sc := workload.LookupScenario(name); sc != nil {
		return sc.DefaultPreset()
	}
	return params.DefaultPreset
}

// column is where a point's parameter value comes from: a fixed value or
// an axis of dimension dim.
type column struct {
	name string
	base string
	axis *axis
	dim  int
}

// Points expands the grid: sub-grids in order; within one, the product of
// its dimensions (a [sweep] axis or a zip group each) in file order with
// the last varying fastest, and seeds innermost; points failing a where
// constraint are left out. The result is the same on every call.
func (g *Grid) Points() []Point {
	points := make([]Point, 0, g.count)
	for p := range g.All() {
		points = append(points, p)
	}
	return points
}

// All yields the points of Points one at a time, without holding them all
// in memory: a grid may have up to MaxPoints of them.
func (g *Grid) All() iter.Seq[Point] {
	return func(yield func(Point) bool) {
		for _, s := range g.Subs {
			if !s.all(yield) {
				return
			}
		}
	}
}

// All yields the points of s in the order of Grid.Points, one at a time;
// each point's Params is a new slice the caller may keep. It is safe to
// call concurrently.
func (s *SubGrid) All() iter.Seq[Point] {
	return func(yield func(Point) bool) { s.all(yield) }
}

// all yields the points of s and reports whether yield wants more.
func (s *SubGrid) all(yield func(Point) bool) bool {
	more := true
	// Parse already ran every constraint on every point, so visit cannot
	// fail here.
	_ = s.visit(func(idx []int, _ *params.Config) bool {
		for seed := 1; seed <= s.Seeds && more; seed++ {
			more = yield(s.point(idx, seed))
		}
		return more
	})
	return more
}

// point returns the point of s with axis value indexes idx (one per
// dimension) and the given seed. A parameter of a congestion-control scheme other than the point's is left
// out: it does not apply there (see otherSchemeVaries).
func (s *SubGrid) point(idx []int, seed int) Point {
	values := make([]Param, 0, len(s.columns))
	scheme := ""
	for _, c := range s.columns {
		v := c.base
		if c.axis != nil {
			v = c.axis.texts[idx[c.dim]]
		}
		if c.name == "cc" {
			scheme = params.SchemeOf(v)
		}
		values = append(values, Param{Name: c.name, Value: v})
	}
	if s.schemeParams {
		if scheme == "" {
			scheme = s.config().CC.Scheme
		}
		values = slices.DeleteFunc(values, func(q Param) bool {
			p := s.param(q.Name)
			return p != nil && !p.AppliesTo(scheme)
		})
	}
	return Point{Scenario: s.Scenario, Params: values, Seed: uint64(seed)}
}

// otherSchemeVaries reports whether the combination idx, whose scheme is
// scheme, takes any but the first value of a dimension made only of
// another scheme's parameters. Such a point is the first one's twin (the
// parameters do not apply to it), so a grid sweeping cc = ["ib", "santos"]
// and santos.m = [1, 2, 4] runs ib once, not three times.
func (s *SubGrid) otherSchemeVaries(idx []int, scheme string) bool {
	if !s.schemeParams {
		return false
	}
	for d, dim := range s.dims {
		if idx[d] == 0 {
			continue
		}
		other := true
		for _, a := range dim {
			if a.param.AppliesTo(scheme) {
				other = false
			}
		}
		if other {
			return true
		}
	}
	return false
}

// whereError is a where constraint that failed to evaluate.
type whereError struct {
	c   *constraint
	err error
}

func (e *whereError) Error() string { return e.err.Error() }

// visit calls fn with the axis value indexes (one per dimension) and the
// configuration of every combination that passes the where constraints, in
// expansion order, until fn returns false. fn must not keep idx or c.
func (s *SubGrid) visit(fn func(idx []int, c *params.Config) bool) error {
	base := s.config()
	for _, b := range s.base {
		if err := s.set(&base, b.param.Name, b.val); err != nil {
			return err
		}
	}
	// Only axis values change from point to point: env starts from the
	// base configuration and gets each point's axis values.
	env := make(map[string]any)
	setEnv(env, &base, s.sc)
	var machine vm.VM
	idx := make([]int, len(s.dims))
	presetAxis := s.axis("preset") != nil
	for {
		c := base
		for d, dim := range s.dims {
			for _, a := range dim {
				if err := s.set(&c, a.param.Name, a.vals[idx[d]]); err != nil {
					return err
				}
				setEnvValue(env, a.param.Name, a.env[idx[d]])
				if a.param.Name == "cc" {
					env[schemeVar] = params.SchemeOf(a.texts[idx[d]])
				}
			}
		}
		if presetAxis {
			// A preset axis changes the fields it sets as well.
			for _, name := range params.PresetFields() {
				setEnvValue(env, name, envValue(params.LookupParam(name), c.Get(name)))
			}
		}
		ok, bad, err := keep(&machine, s.where, env)
		if err != nil {
			return &whereError{bad, err}
		}
		if ok && s.otherSchemeVaries(idx, c.CC.Scheme) {
			ok = false
		}
		if ok && !fn(idx, &c) {
			return nil
		}
		d := len(idx) - 1
		for ; d >= 0; d-- {
			if idx[d]++; idx[d] < len(s.dims[d][0].vals) {
				break
			}
			idx[d] = 0
		}
		if d < 0 {
			return nil
		}
	}
}

// combos returns the number of combinations of s's axis values, capped
// just above MaxPoints, and the exact count as a float64.
func (s *SubGrid) combos() (int, float64) {
	n, f := 1, 1.0
	for _, d := range s.dims {
		n = min(n*len(d[0].vals), MaxPoints+1)
		f *= float64(len(d[0].vals))
	}
	return n, f
}

// tooBig returns the first sub-grid at which the grid exceeds MaxPoints,
// counting seeds and before where constraints, and why; or nil.
func (g *Grid) tooBig() (*SubGrid, string) {
	total := 0
	for _, s := range g.Subs {
		n, exact := s.combos()
		if n*s.Seeds > MaxPoints {
			return s, fmt.Sprintf("%.0f points (%.0f combinations × %d seeds), more than the limit of %d",
				exact*float64(s.Seeds), exact, s.Seeds, MaxPoints)
		}
		if total += n * s.Seeds; total > MaxPoints {
			return s, fmt.Sprintf("the grid reaches %d points here, more than the limit of %d", total, MaxPoints)
		}
	}
	return nil, ""
}

// check counts the grid's points, evaluates the where constraints and
// validates every point's configuration.
func (g *Grid) check(ps *problems) {
	if s, msg := g.tooBig(); s != nil {
		ps.add(s.line, s.key, "%s", msg)
		return
	}
	for _, s := range g.Subs {
		n, ok := s.validate(ps)
		if !ok {
			continue
		}
		g.count += n * s.Seeds
	}
}

// invalid is how one parameter made points invalid.
type invalid struct {
	err   error
	point string
	count int
}

// validate checks every point of s with params.Config.Validate, reporting
// each parameter at fault once with an example point. It returns the number
// of points before seeds.
func (s *SubGrid) validate(ps *problems) (int, bool) {
	kept := 0
	bad := make(map[string]*invalid)
	var order []string
	err := s.visit(func(idx []int, c *params.Config) bool {
		kept++
		if err := c.Validate(); err != nil {
			name := ""
			var pe *params.ParamError
			if errors.As(err, &pe) {
				name = pe.Name
			}
			if bad[name] == nil {
				bad[name] = &invalid{err: err, point: s.describe(idx)}
				order = append(order, name)
			}
			bad[name].count++
		}
		return true
	})
	if err != nil {
		if we, ok := err.(*whereError); ok {
			ps.add(we.c.line, we.c.key, "%q: %s", we.c.src, exprMessage(we.err))
		} else {
			ps.add(s.line, s.key, "%v", err)
		}
		return 0, false
	}
	for _, name := range order {
		key, line := s.locate(name)
		b := bad[name]
		msg := b.err.Error()
		var pe *params.ParamError
		if errors.As(b.err, &pe) && params.LookupParam(pe.Name) != nil {
			msg = fmt.Sprintf("%s: %s", params.LookupParam(pe.Name).Format(pe.Value), pe.Reason)
		}
		if b.point != "" {
			msg += fmt.Sprintf(" at %s (%d of %d points; a where constraint can leave such points out)", b.point, b.count, kept)
		}
		ps.add(line, key, "%s", msg)
	}
	return kept, len(order) == 0
}

// describe spells the axis values at idx, e.g. "ccti_limit=32 ccti_min=64".
func (s *SubGrid) describe(idx []int) string {
	var parts []string
	for d, dim := range s.dims {
		for _, a := range dim {
			parts = append(parts, a.param.Name+"="+a.texts[idx[d]])
		}
	}
	return strings.Join(parts, " ")
}

// locate returns the key and line that set parameter name in s, or those
// of s itself.
func (s *SubGrid) locate(name string) (string, int) {
	if a := s.axis(name); a != nil {
		return a.key, a.line
	}
	for _, b := range s.base {
		if b.param.Name == name {
			return b.key, b.line
		}
	}
	return s.key, s.line
}

// config returns the configuration s's points start from: the model's
// defaults with its scenario's.
func (s *SubGrid) config() params.Config {
	if s.sc != nil {
		return s.sc.Config()
	}
	return params.DefaultConfig()
}

// set sets parameter name in c, a parameter of s's scenario.
func (s *SubGrid) set(c *params.Config, name string, v any) error {
	if s.sc != nil {
		return s.sc.Set(c, name, v)
	}
	return c.Set(name, v)
}

// param returns the parameter called name of s's scenario, or nil.
func (s *SubGrid) param(name string) *params.Param {
	if s.sc != nil {
		return s.sc.Param(name)
	}
	return params.LookupParam(name)
}
