package grids

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// axis is one swept parameter and where it was given.
type axis struct {
	param *params.Param
	vals  []any // typed, as params.Param.Parse returns
	texts []string
	env   []any // as where expressions see the values
	key   string
	line  int
	// table and tableLine locate the [sweep] or [zip] table holding the axis.
	table     string
	tableLine int
	zip       int
}

// parseAxes reads the [sweep] or [zip] table n (key is "sweep", "zip" or
// "grid[i].sweep", ...) and adds its axes to s. A [zip] may also be an
// array of tables, [[zip]], one zip group each.
func (s *SubGrid) parseAxes(ps *problems, key string, n *node) {
	isZip := strings.HasSuffix(key, "zip")
	var groups []*table
	var lines []int
	switch v := n.val.(type) {
	case *table:
		groups, lines = []*table{v}, []int{n.line}
	case []*node:
		if !isZip {
			ps.add(n.line, key, "want a table of axes, not a list")
			break
		}
		for _, e := range v {
			if t, ok := e.val.(*table); ok {
				groups, lines = append(groups, t), append(lines, e.line)
			} else {
				ps.add(e.line, key, "want [[zip]] tables of axes, not %s", show(e.val))
			}
		}
	default:
		ps.add(n.line, key, "want a table of axes, not %s", show(n.val))
	}
	for gi, t := range groups {
		t = flattenSchemes(t)
		var group []*axis
		for _, k := range t.keys {
			a := parseAxis(ps, dotted(key, k), k, t.m[k])
			if a == nil {
				continue
			}
			a.table, a.tableLine = key, lines[gi]
			if prev := s.axis(a.param.Name); prev != nil {
				ps.add(a.line, a.key, "already swept by %s on line %d", prev.key, prev.line)
				continue
			}
			if !isZip {
				s.dims = append(s.dims, []*axis{a})
				continue
			}
			if len(group) > 0 && len(a.vals) != len(group[0].vals) {
				ps.add(a.line, a.key, "%d values, but %s has %d: zipped axes need equally many",
					len(a.vals), group[0].key, len(group[0].vals))
			}
			group = append(group, a)
		}
		if len(group) > 0 {
			s.dims = append(s.dims, group)
		}
	}
	// Dimensions go in file order, whichever table they came from.
	slices.SortStableFunc(s.dims, func(a, b []*axis) int { return cmp.Compare(a[0].line, b[0].line) })
	s.Axes = s.Axes[:0]
	zips := 0
	for _, d := range s.dims {
		if isZipDim(d) {
			zips++
		}
		for _, a := range d {
			if isZipDim(d) {
				a.zip = zips
			}
			s.Axes = append(s.Axes, Axis{Name: a.param.Name, Kind: a.param.Kind, Unit: a.param.Unit, Values: a.texts, Zip: a.zip})
		}
	}
}

func isZipDim(d []*axis) bool { return strings.HasSuffix(d[0].table, "zip") }

// axis returns the axis of s sweeping the parameter name, or nil.
func (s *SubGrid) axis(name string) *axis {
	for _, d := range s.dims {
		for _, a := range d {
			if a.param.Name == name {
				return a
			}
		}
	}
	return nil
}

// parseAxis reads one axis: a list of values or a range table.
func parseAxis(ps *problems, key, name string, n *node) *axis {
	p := lookupParam(ps, key, name, n.line)
	if p == nil {
		return nil
	}
	a := &axis{param: p, key: key, line: n.line}
	var ok bool
	switch v := n.val.(type) {
	case []*node:
		ok = a.parseList(ps, v)
	case *table:
		ok = a.parseRange(ps, v)
	default:
		ps.add(n.line, key, "want a list of values or a range {from, to, step} or {from, to, count}, not %s; fixed values go in [base]", show(n.val))
	}
	if !ok {
		return nil
	}
	a.env = make([]any, len(a.vals))
	for i, v := range a.vals {
		a.env[i] = envValue(a.param, v)
	}
	return a
}

func (a *axis) parseList(ps *problems, list []*node) bool {
	if len(list) == 0 {
		ps.add(a.line, a.key, "empty list: an axis needs at least one value")
		return false
	}
	ok := true
	seen := make(map[string]bool)
	for _, e := range list {
		v, good := parseValue(ps, a.key, "", a.param, e)
		if !good {
			ok = false
			continue
		}
		text := a.param.Format(v)
		if seen[text] {
			ps.add(e.line, a.key, "%s: duplicate value %s", show(e.val), text)
			ok = false
			continue
		}
		seen[text] = true
		a.vals = append(a.vals, v)
		a.texts = append(a.texts, text)
	}
	return ok
}

// parseRange reads {from, to, step} or {from, to, count[, scale]}.
func (a *axis) parseRange(ps *problems, t *table) bool {
	p, key := a.param, a.key
	ok := true
	for _, k := range t.keys {
		switch k {
		case "from", "to", "step", "count", "scale":
		default:
			ps.add(t.m[k].line, key, "unknown range key %q (a range takes from, to, and step or count with an optional scale)", k)
			ok = false
		}
	}
	if p.Kind != params.KindInt && p.Kind != params.KindFloat && p.Kind != params.KindDuration {
		ps.add(a.line, key, "a range needs a numeric parameter; list the values instead")
		return false
	}
	from, to, step, count, scale := t.m["from"], t.m["to"], t.m["step"], t.m["count"], t.m["scale"]
	switch {
	case from == nil || to == nil:
		ps.add(a.line, key, "a range needs from and to")
		return false
	case step == nil && count == nil:
		ps.add(a.line, key, "a range needs step or count")
		return false
	case step != nil && count != nil:
		ps.add(count.line, key, "a range takes step or count, not both")
		return false
	case step != nil && scale != nil:
		ps.add(scale.line, key, "scale goes with count, not step")
		ok = false
	}
	lo, good1 := parseValue(ps, key, "from", p, from)
	hi, good2 := parseValue(ps, key, "to", p, to)
	if !ok || !good1 || !good2 {
		return false
	}
	if toFloat(lo) > toFloat(hi) {
		ps.add(to.line, key, "from %s is greater than to %s", p.Format(lo), p.Format(hi))
		return false
	}
	var raw []any // int64, float64 or engine.Time values for p.Parse
	if step != nil {
		raw, ok = stepRange(ps, key, p, lo, hi, step)
	} else {
		raw, ok = countRange(ps, key, p, lo, hi, count, scale)
	}
	if !ok {
		return false
	}
	a.vals, a.texts = make([]any, 0, len(raw)), make([]string, 0, len(raw))
	for _, r := range raw {
		v, err := p.Parse(r)
		if err != nil {
			ps.add(a.line, key, "%s: %s", p.Format(r), reason(err))
			return false
		}
		label := p.Format(v)
		if t, isTime := v.(engine.Time); isTime {
			label = strconv.FormatInt(int64(t), 10) + "ps"
		}
		if v, ok = exact(ps, key, label, p, v, a.line); !ok {
			return false
		}
		text := p.Format(v)
		if n := len(a.texts); n > 0 && a.texts[n-1] == text {
			continue // rounding made two values equal
		}
		a.vals = append(a.vals, v)
		a.texts = append(a.texts, text)
	}
	return true
}

// stepRange returns lo, lo+step, ... up to hi inclusive. Integer and
// duration steps are exact; float values are lo + i*step rounded to 12
// significant digits, and hi is kept when rounding error would push it out.
func stepRange(ps *problems, key string, p *params.Param, lo, hi any, n *node) ([]any, bool) {
	label := "step " + show(n.val)
	var step float64 // in the unit of toFloat
	var whole int64  // step for integer and duration parameters
	switch x := n.val.(type) {
	case int64:
		if p.Kind == params.KindDuration && x != 0 {
			ps.add(n.line, key, "%s: want a duration with a unit, e.g. \"50us\"", label)
			return nil, false
		}
		step, whole = float64(x), x
	case float64:
		if p.Kind != params.KindFloat && x != 0 {
			ps.add(n.line, key, "%s: want a whole number", label)
			return nil, false
		}
		step = x
	case string:
		t, err := engine.ParseTime(x)
		switch {
		case p.Kind != params.KindDuration:
			ps.add(n.line, key, "%s: want a number", label)
			return nil, false
		case strings.HasPrefix(strings.TrimSpace(x), "-"):
			step = -1
		case err != nil:
			ps.add(n.line, key, "%s: want a duration with a unit, e.g. \"50us\"", label)
			return nil, false
		default:
			step, whole = float64(t), int64(t)
		}
	default:
		ps.add(n.line, key, "%s: want a number", label)
		return nil, false
	}
	if !(step > 0) || math.IsInf(step, 0) {
		ps.add(n.line, key, "%s must be positive", label)
		return nil, false
	}
	// to counts as reached within a millionth of a step, which absorbs the
	// rounding error of decimal fractions such as 0.1.
	span := math.Floor((toFloat(hi)-toFloat(lo))/step + 1e-6)
	if span+1 > MaxAxisValues {
		ps.add(n.line, key, "%s gives %.0f values, more than the limit of %d", label, span+1, MaxAxisValues)
		return nil, false
	}
	var raw []any
	switch l := lo.(type) {
	case int:
		for i := range (int64(hi.(int))-int64(l))/whole + 1 {
			raw = append(raw, int64(l)+i*whole)
		}
	case engine.Time:
		for i := range (int64(hi.(engine.Time))-int64(l))/whole + 1 {
			raw = append(raw, l+engine.Time(i*whole))
		}
	case float64:
		for i := range int(span) + 1 {
			raw = append(raw, min(round12(l+float64(i)*step), hi.(float64)))
		}
	}
	return raw, true
}

// countRange returns count values from lo to hi, evenly spaced on a linear
// or logarithmic scale and rounded to p's kind: integers to the nearest
// whole number, durations to the nanosecond and floats to 12 significant
// digits.
func countRange(ps *problems, key string, p *params.Param, lo, hi any, n, scale *node) ([]any, bool) {
	count, ok := n.val.(int64)
	switch {
	case !ok:
		ps.add(n.line, key, "count %s: want a whole number", show(n.val))
		return nil, false
	case count < 1:
		ps.add(n.line, key, "count %d must be at least 1", count)
		return nil, false
	case count > MaxAxisValues:
		ps.add(n.line, key, "count %d is more than the limit of %d", count, MaxAxisValues)
		return nil, false
	}
	log := false
	if scale != nil {
		switch scale.val {
		case "lin":
		case "log":
			log = true
		default:
			ps.add(scale.line, key, "scale %s: want \"lin\" or \"log\"", show(scale.val))
			return nil, false
		}
	}
	a, b := toFloat(lo), toFloat(hi)
	if log && a <= 0 {
		ps.add(n.line, key, "a log scale needs from > 0, not %s", p.Format(lo))
		return nil, false
	}
	raw := make([]any, count)
	raw[count-1], raw[0] = hi, lo // from alone when count is 1
	for i := 1; i < int(count)-1; i++ {
		f := float64(i) / float64(count-1)
		x := a + (b-a)*f
		if log {
			x = a * math.Pow(b/a, f)
		}
		x = min(max(x, a), b)
		switch p.Kind {
		case params.KindInt:
			raw[i] = int64(math.Round(x))
		case params.KindDuration:
			ns := engine.Time(math.Round(x/float64(engine.Nanosecond))) * engine.Nanosecond
			raw[i] = min(max(ns, lo.(engine.Time)), hi.(engine.Time))
		default:
			raw[i] = round12(x)
		}
	}
	return raw, true
}

// toFloat returns a typed numeric parameter value as a float64 (durations
// in picoseconds).
func toFloat(v any) float64 {
	switch x := v.(type) {
	case int:
		return float64(x)
	case float64:
		return x
	case engine.Time:
		return float64(x)
	}
	return math.NaN()
}

// round12 rounds x to 12 significant digits, so that float ranges give
// 0.3 rather than 0.30000000000000004.
func round12(x float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 12, 64), 64)
	if err != nil {
		return x
	}
	return r
}
