package grids

import (
	"slices"

	"github.com/ccsweep/ccsweep/model/params"
)

// checkSchemes reports every fixed or swept parameter of a congestion
// control scheme (params.Param.Scheme) that no point of the grid selects
// with cc: such a setting would change nothing. A setting inherited by
// several sub-grids is reported once, at the line that makes it.
func (g *Grid) checkSchemes(ps *problems) {
	selected := map[string]bool{}
	for _, s := range g.Subs {
		for _, v := range s.ccValues() {
			selected[params.SchemeOf(v)] = true
		}
	}
	type place struct {
		key  string
		line int
	}
	reported := map[place]bool{}
	check := func(p *params.Param, key string, line int) {
		if p.Scheme == "" || selected[p.Scheme] || reported[place{key, line}] {
			return
		}
		reported[place{key, line}] = true
		ps.add(line, key, "a parameter of cc %s, which no point of the grid selects: add %q to cc or leave %s out",
			p.Scheme, p.Scheme, p.Name)
	}
	for _, s := range g.Subs {
		for _, b := range s.base {
			check(b.param, b.key, b.line)
		}
		for _, d := range s.dims {
			for _, a := range d {
				check(a.param, a.key, a.line)
			}
		}
	}
}

// ccValues returns the canonical values of cc at the points of s: its
// axis values, its fixed value, or its scenario's.
func (s *SubGrid) ccValues() []string {
	if a := s.axis("cc"); a != nil {
		return slices.Clone(a.texts)
	}
	for _, b := range s.base {
		if b.param.Name == "cc" {
			return []string{b.text}
		}
	}
	c := s.config()
	return []string{c.Canonical("cc")}
}

// flattenSchemes returns t with every sub-table named after a scheme
// (santos = { m = 4 }, or TOML's dotted key santos.m = 4) spelled as the
// parameters it sets ("santos.m"), in place, keeping lines and order.
func flattenSchemes(t *table) *table {
	if !slices.ContainsFunc(t.keys, func(k string) bool { return isSchemeTable(t, k) }) {
		return t
	}
	out := &table{m: make(map[string]*node, len(t.m))}
	for _, k := range t.keys {
		if !isSchemeTable(t, k) {
			out.keys = append(out.keys, k)
			out.m[k] = t.m[k]
			continue
		}
		sub := t.m[k].val.(*table)
		for _, sk := range sub.keys {
			name := k + "." + sk
			if _, dup := out.m[name]; !dup {
				out.keys = append(out.keys, name)
			}
			out.m[name] = sub.m[sk]
		}
	}
	return out
}

// isSchemeTable reports whether key k of t is a table named after a scheme.
func isSchemeTable(t *table, k string) bool {
	_, ok := t.m[k].val.(*table)
	return ok && k != params.SchemeOff && k != params.SchemeIB && slices.Contains(params.Schemes, k)
}
