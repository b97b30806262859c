package grids

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Limits on the size of a grid.
const (
	// MaxPoints is the most points a grid may expand to, counting seeds and
	// before where constraints drop any.
	MaxPoints = 10_000_000
	// MaxAxisValues is the most values one range may produce.
	MaxAxisValues = 1_000_000
)

// Grid is a parsed and validated grid file, or a grid rebuilt from its
// canonical form by ParseCanonical. It is read-only once made and safe for
// concurrent use.
type Grid struct {
	// Name names the grid; it is a valid file name stem (letters, digits,
	// '.', '_', '-'), used for the default database file name.
	Name string
	// Scenario is the top-level built-in scenario; a sub-grid may override it.
	Scenario string
	// Description is free text, possibly empty.
	Description string
	// Path is the file the grid came from, as given to Load or Parse;
	// empty for a grid from ParseCanonical.
	Path string
	// Subs are the sub-grids whose points, concatenated in this order, make
	// up the grid: the top level (when it has [sweep] or [zip], or when there
	// is no [[grid]]) and then every [[grid]] in file order. There is at
	// least one.
	Subs []*SubGrid
	// Refine, if not nil, asks for points added between the grid's points
	// where a metric changes most or a constraint's outcome changes (the
	// [refine] table).
	Refine *Refine
	// Calibrate, if not nil, asks for a search that fits the grid's numeric
	// axes to measurements (the [calibrate] table).
	Calibrate *Calibrate

	count int
	// scenarios are the scenario files the grid's sub-grids run.
	scenarios map[string]CanonicalScenario
}

// SubGrid is one Cartesian product of a grid: its fixed parameters, its axes
// and the constraints that drop some of its points.
type SubGrid struct {
	// Scenario is the scenario its points run: a built-in scenario's name,
	// or a file scenario's registered name (workload.NewScenario).
	Scenario string
	sc       *workload.Scenario
	// Base holds the fixed parameters, canonically spelled and sorted by
	// name: top-level parameters and [base], then the sub-grid's own, which
	// override them; parameters swept by the sub-grid are left out.
	Base []Param
	// Axes are the swept parameters in expansion order, the last varying
	// fastest.
	Axes []Axis
	// Where holds the constraints a point must satisfy, top-level ones first.
	Where []string
	// Seeds is the number of replications of each point, seeds 1..Seeds.
	Seeds int
	// Target, if not nil, asks for more seeds per point until a precision
	// is reached (seeds = { min, max, ci, metric }); Seeds is then its Min.
	Target *SeedTarget

	key     string // the key and line problems about the whole sub-grid point at
	line    int
	base    []*setting
	dims    [][]*axis // axes that move together, in expansion order
	where   []*constraint
	columns []column // base and axis values of a point, sorted by name
	// schemeParams: it sets a congestion-control scheme's parameter, which
	// applies only at the points of that scheme (point, otherSchemeVaries).
	schemeParams bool
}

// Axis is one swept parameter of a sub-grid.
type Axis struct {
	// Name is the model parameter's name.
	Name string
	// Kind is the parameter's value type.
	Kind params.ParamKind
	// Unit names the unit of numeric values ("bytes", "time", ...), possibly
	// empty.
	Unit string
	// Values are the axis values, canonically spelled (params.Param.Format),
	// in order.
	Values []string
	// Zip is 0 for an axis crossed with all others ([sweep]) and k ≥ 1 for
	// the members of the sub-grid's k-th zip group, which move together.
	Zip int
}

// setting is a fixed parameter value and where it was given.
type setting struct {
	param *params.Param
	val   any // typed, as params.Param.Parse returns
	text  string
	key   string
	line  int
}

// Load reads and parses the grid file at path, a regular file of at most
// MaxFileSize bytes (see ReadFile); see Parse.
func Load(path string) (*Grid, error) {
	data, err := ReadFile(path, MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("read grid: %w", err)
	}
	return Parse(path, data)
}

// Parse parses and validates the grid file data; path names it in Problems
// and Grid.Path. Every point is expanded and checked with
// params.Config.Validate, so a grid that Parse accepts runs no invalid point.
// A rejected file gives an *Error listing every problem found.
func Parse(path string, data []byte) (*Grid, error) {
	ps := &problems{file: path}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a UTF-8 byte order mark, as some editors write
	root, tp := decodeTOML(data)
	if tp != nil {
		tp.File = path
		ps.list = append(ps.list, *tp)
		return nil, ps.err()
	}
	g := &Grid{Path: path}
	g.parse(root, ps)
	if len(ps.list) == 0 {
		g.checkSchemes(ps)
	}
	if len(ps.list) == 0 {
		g.check(ps)
	}
	if len(ps.list) == 0 {
		g.checkScenarios(ps)
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return g, nil
}

// gridKeys are the keys of a grid file that are not model parameters.
var gridKeys = []string{"name", "scenario", "description", "seeds", "where", "base", "sweep", "zip", "grid", "refine", "calibrate"}

// subKeys are the keys of a [[grid]] that are not model parameters.
var subKeys = []string{"scenario", "seeds", "where", "base", "sweep", "zip"}

func (g *Grid) parse(root *table, ps *problems) {
	if n := root.m["name"]; n == nil {
		ps.add(1, "name", "missing: every grid needs a name, e.g. name = \"fig11\"")
	} else if s, ok := str(ps, "name", n); ok {
		if len(s) > MaxNameLen {
			ps.add(n.line, "name", "is %d characters long; a name has at most %d", len(s), MaxNameLen)
		} else if !ValidName(s) {
			ps.add(n.line, "name", "%q must be a file name stem: letters, digits, '.', '_' or '-'", s)
		}
		g.Name = s
	}
	if n := root.m["scenario"]; n == nil {
		ps.add(1, "scenario", "missing: want one of %s", strings.Join(workload.ScenarioNames(), ", "))
	}
	if n := root.m["description"]; n != nil {
		g.Description, _ = str(ps, "description", n)
	}
	top := parseSub(ps, root, "", nil)
	g.Scenario = top.Scenario

	var subs []*SubGrid
	if n := root.m["grid"]; n != nil {
		list, ok := n.val.([]*node)
		if !ok {
			ps.add(n.line, "grid", "want sub-grids as [[grid]] tables, not %s", show(n.val))
		}
		for i, e := range list {
			key := fmt.Sprintf("grid[%d]", i)
			t, ok := e.val.(*table)
			if !ok {
				ps.add(e.line, key, "want a table, not %s", show(e.val))
				continue
			}
			s := parseSub(ps, t, key, top)
			s.key, s.line = key, e.line
			subs = append(subs, s)
		}
	}
	if len(subs) == 0 || root.m["sweep"] != nil || root.m["zip"] != nil {
		subs = append([]*SubGrid{top}, subs...)
	}
	g.Subs = subs
	g.scenarios = ps.scenarios
	if n := root.m["refine"]; n != nil {
		g.Refine = g.parseRefine(ps, n)
	}
	if n := root.m["calibrate"]; n != nil {
		g.Calibrate = g.parseCalibrate(ps, n)
	}
}

// parseSub reads the sub-grid in t: the top level when parent is nil, else
// a [[grid]] element inheriting from parent. prefix is the element's key.
func parseSub(ps *problems, t *table, prefix string, parent *SubGrid) *SubGrid {
	s := &SubGrid{key: prefix, line: 1}
	var own []*setting
	var whereNode *node
	if parent != nil {
		s.Scenario, s.Seeds, s.Target = parent.Scenario, parent.Seeds, parent.Target
		s.where = slices.Clone(parent.where)
	} else {
		s.Seeds = 1
	}
	if parent != nil {
		s.sc = parent.sc
	}
	t = flattenSchemes(t)
	if n := t.m["scenario"]; n != nil { // first: it tells which parameters there are
		key := dotted(prefix, "scenario")
		if name, ok := str(ps, key, n); ok {
			switch {
			case IsScenarioFile(name):
				s.sc = ps.loadScenario(n.line, key, name)
				if s.sc != nil {
					name = s.sc.Name
				}
			case workload.LookupScenario(name) == nil:
				ps.add(n.line, key, "unknown scenario %q (known: %s, or a scenario file NAME.toml)", name, strings.Join(workload.ScenarioNames(), ", "))
			default:
				s.sc = workload.LookupScenario(name)
			}
			s.Scenario = name
		}
	}
	ps.sc = s.sc
	for _, k := range t.keys {
		n, key := t.m[k], dotted(prefix, k)
		switch {
		case k == "scenario":
		case k == "seeds":
			s.Seeds, s.Target = parseSeeds(ps, key, n), nil
			if t, ok := n.val.(*table); ok {
				if s.Target = parseSeedTarget(ps, key, t, n.line); s.Target != nil {
					s.Seeds = s.Target.Min
				}
			}
		case k == "where":
			whereNode = n
		case k == "base":
			if bt := tableOf(ps, key, n); bt != nil {
				bt = flattenSchemes(bt)
				for _, bk := range bt.keys {
					if set := parseSetting(ps, dotted(key, bk), bk, bt.m[bk]); set != nil {
						own = append(own, set)
					}
				}
			}
		case k == "sweep" || k == "zip":
			s.parseAxes(ps, key, n)
		case k == "name" || k == "description" || k == "grid" || k == "refine" || k == "calibrate":
			if parent != nil {
				ps.add(n.line, key, "%s belongs at the top level, not in a [[grid]]", k)
			} // else Grid.parse reads it
		case ps.param(k) != nil:
			if set := parseSetting(ps, key, k, n); set != nil {
				own = append(own, set)
			}
		case parent == nil:
			ps.add(n.line, key, "unknown key%s", suggest(k, append(slices.Clone(gridKeys), ps.paramNames()...)))
		default:
			if hint := suggest(k, append(slices.Clone(subKeys), ps.paramNames()...)); hint != "" {
				ps.add(n.line, key, "unknown key%s", hint)
			} else {
				ps.add(n.line, key, "unknown key: a [[grid]] takes %s and model parameters", strings.Join(subKeys, ", "))
			}
		}
	}
	if whereNode != nil {
		s.where = append(s.where, compileWhere(ps, dotted(prefix, "where"), whereNode)...)
	}
	for _, c := range s.where {
		s.Where = append(s.Where, c.src)
	}
	s.resolveSettings(ps, parent, own)
	if parent == nil && len(s.dims) > 0 {
		s.key, s.line = s.dims[0][0].table, s.dims[0][0].tableLine
	}
	return s
}

// resolveSettings merges inherited and own fixed parameters into s.base and
// reports parameters given twice.
func (s *SubGrid) resolveSettings(ps *problems, parent *SubGrid, own []*setting) {
	swept := make(map[string]*axis)
	for _, d := range s.dims {
		for _, a := range d {
			swept[a.param.Name] = a
		}
	}
	byName := make(map[string]*setting)
	if parent != nil {
		for _, b := range parent.base {
			byName[b.param.Name] = b
		}
	}
	seen := make(map[string]*setting)
	for _, b := range own {
		name := b.param.Name
		if prev := seen[name]; prev != nil {
			ps.add(b.line, b.key, "already set by %s on line %d", prev.key, prev.line)
			continue
		}
		seen[name] = b
		if a := swept[name]; a != nil {
			ps.add(a.line, a.key, "also fixed by %s on line %d: a parameter is either fixed or swept", b.key, b.line)
			continue
		}
		byName[name] = b
	}
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		if swept[name] == nil {
			b := byName[name]
			s.base = append(s.base, b)
			s.Base = append(s.Base, Param{Name: name, Value: b.text})
		}
	}
	s.setColumns()
}

// setColumns sets s.columns from s.base and s.dims: where each parameter
// of a point comes from, sorted by name.
func (s *SubGrid) setColumns() {
	s.columns, s.schemeParams = nil, false
	for _, b := range s.base {
		s.columns = append(s.columns, column{name: b.param.Name, base: b.text})
		s.schemeParams = s.schemeParams || b.param.Scheme != ""
	}
	for d, dim := range s.dims {
		for _, a := range dim {
			s.columns = append(s.columns, column{name: a.param.Name, axis: a, dim: d})
			s.schemeParams = s.schemeParams || a.param.Scheme != ""
		}
	}
	slices.SortFunc(s.columns, func(a, b column) int { return strings.Compare(a.name, b.name) })
}

// parseSetting reads a fixed parameter value.
func parseSetting(ps *problems, key, name string, n *node) *setting {
	p := lookupParam(ps, key, name, n.line)
	if p == nil {
		return nil
	}
	v, ok := parseValue(ps, key, "", p, n)
	if !ok {
		return nil
	}
	return &setting{param: p, val: v, text: p.Format(v), key: key, line: n.line}
}

// lookupParam returns the model parameter name, reporting a problem about
// key if there is none.
func lookupParam(ps *problems, key, name string, line int) *params.Param {
	p := ps.param(name)
	switch {
	case p != nil:
	case slices.Contains(gridKeys, name):
		ps.add(line, key, "%s is a grid key, not a parameter: in TOML it must come before the first [table] header", name)
	default:
		ps.add(line, key, "unknown parameter%s", suggest(name, ps.paramNames()))
	}
	return p
}

// parseValue converts the scalar n to p's typed value, reporting a problem
// about key (with what, e.g. "from", before the value) if it cannot.
func parseValue(ps *problems, key, what string, p *params.Param, n *node) (any, bool) {
	label := strings.TrimSpace(what + " " + show(n.val))
	switch n.val.(type) {
	case string, int64, float64, bool:
	case []*node, *table:
		ps.add(n.line, key, "want a single value, not %s", show(n.val))
		return nil, false
	default:
		ps.add(n.line, key, "%s: dates and times are not parameter values", label)
		return nil, false
	}
	if msg := typeMismatch(p, n.val); msg != "" {
		ps.add(n.line, key, "%s: %s", label, msg)
		return nil, false
	}
	v, err := p.Parse(n.val)
	if err != nil {
		ps.add(n.line, key, "%s: %s", label, reason(err))
		return nil, false
	}
	return exact(ps, key, label, p, v, n.line)
}

// typeMismatch says what is wrong when a TOML value's type does not fit
// parameter p: a number written as text ("127"), a number for a switch
// (cc = 1) or a switch for a number. Text is what --set gives, so model
// accepts it; a grid file has types and says what it means.
func typeMismatch(p *params.Param, v any) string {
	switch p.Kind {
	case params.KindInt, params.KindFloat:
		switch x := v.(type) {
		case string:
			if _, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
				return "want a number, not text: write it without quotes"
			}
			return "want a number"
		case bool:
			return "want a number, not true or false"
		}
	case params.KindBool:
		switch v.(type) {
		case int64, float64:
			return "want true or false (or \"on\", \"off\"), not a number"
		}
	case params.KindDuration:
		if _, ok := v.(bool); ok {
			return "want a duration with a unit, e.g. \"150us\", not true or false"
		}
	}
	return ""
}

// exact checks that v survives its canonical spelling, which is what point
// identities and PointConfig use.
func exact(ps *problems, key, label string, p *params.Param, v any, line int) (any, bool) {
	text := p.Format(v)
	back, err := p.Parse(text)
	switch {
	case err != nil:
		ps.add(line, key, "%s: %s", label, reason(err))
		return nil, false
	case back != v:
		ps.add(line, key, "%s: not supported, its canonical spelling %q reads back as %s; use whole nanoseconds",
			label, text, p.Format(back))
		return nil, false
	}
	return v, true
}

func reason(err error) string {
	if pe, ok := err.(*params.ParamError); ok {
		return pe.Reason
	}
	return err.Error()
}

func parseSeeds(ps *problems, key string, n *node) int {
	v, ok := n.val.(int64)
	switch {
	case isTable(n):
		// a seed target: parseSeedTarget reads it
	case !ok:
		ps.add(n.line, key, "want a whole number of replications, not %s", show(n.val))
	case v < 1:
		ps.add(n.line, key, "%d must be at least 1", v)
	case v > MaxPoints:
		ps.add(n.line, key, "%d is more than the limit of %d points", v, MaxPoints)
	default:
		return int(v)
	}
	return 1
}

func str(ps *problems, key string, n *node) (string, bool) {
	s, ok := n.val.(string)
	if !ok {
		ps.add(n.line, key, "want a string, not %s", show(n.val))
	}
	return s, ok
}

func tableOf(ps *problems, key string, n *node) *table {
	t, ok := n.val.(*table)
	if !ok {
		ps.add(n.line, key, "want a table, not %s", show(n.val))
	}
	return t
}

func dotted(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// show spells a TOML value in messages.
func show(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case []*node:
		return "a list"
	case *table:
		return "a table"
	}
	return fmt.Sprintf("%v", v)
}

// suggest returns " (did you mean X?)" for the candidate closest to name,
// or "" if none is close: one edit for every three bytes of name, at most two.
func suggest(name string, candidates []string) string {
	best, bestD := "", min(max(1, len(name)/3), 2)+1
	for _, c := range candidates {
		if d := distance(name, c); d > 0 && d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Count returns the number of points Points returns.
func (g *Grid) Count() int { return g.count }

// Axes returns every parameter swept by any sub-grid, in order of first
// appearance, with the union of its values in order of first appearance;
// Zip is that of the first sub-grid sweeping it. Use SubGrid.Axes for the
// exact axes of each sub-grid.
func (g *Grid) Axes() []Axis {
	var axes []Axis
	at := make(map[string]int)
	seen := make(map[string]bool)
	for _, s := range g.Subs {
		for _, a := range s.Axes {
			i, ok := at[a.Name]
			if !ok {
				i = len(axes)
				at[a.Name] = i
				axes = append(axes, Axis{Name: a.Name, Kind: a.Kind, Unit: a.Unit, Zip: a.Zip})
			}
			for _, v := range a.Values {
				if !seen[a.Name+"="+v] {
					seen[a.Name+"="+v] = true
					axes[i].Values = append(axes[i].Values, v)
				}
			}
		}
	}
	return axes
}

// unknownKeys reports every key of table t (at prefix) that is not one of
// allowed, with a suggestion, and says whether there was one. With name
// set, the message also lists what "a [name] table takes".
func unknownKeys(ps *problems, t *table, prefix string, allowed []string, name string) bool {
	bad := false
	for _, k := range t.keys {
		if slices.Contains(allowed, k) {
			continue
		}
		bad = true
		if name == "" {
			ps.add(t.m[k].line, dotted(prefix, k), "unknown key%s", suggest(k, allowed))
		} else {
			ps.add(t.m[k].line, dotted(prefix, k), "unknown key%s (a [%s] table takes %s)", suggest(k, allowed), name, strings.Join(allowed, ", "))
		}
	}
	return bad
}

// Files lists the files the grid was read from, as paths a process in the
// current directory can open: the grid file, each scenario file and the
// files those name, and the measurements of [calibrate]. It is empty for a
// grid from ParseCanonical. Commands refuse to write an output over any of
// them.
func (g *Grid) Files() []string {
	if g.Path == "" {
		return nil
	}
	dir := filepath.Dir(g.Path)
	rel := func(base, name string) string {
		if filepath.IsAbs(name) {
			return name
		}
		return filepath.Join(base, name)
	}
	files := []string{g.Path}
	for _, name := range slices.Sorted(maps.Keys(g.scenarios)) {
		cs := g.scenarios[name]
		p := rel(dir, cs.Path)
		files = append(files, p)
		for _, f := range slices.Sorted(maps.Keys(cs.Files)) {
			files = append(files, rel(filepath.Dir(p), f))
		}
	}
	if g.Calibrate != nil && g.Calibrate.Data != nil {
		files = append(files, g.Calibrate.Data.Path)
	}
	return files
}
