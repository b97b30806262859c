package grids

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// CanonicalFormat names the version of the encoding Canonical produces for
// grids of built-in scenarios; a grid that runs scenario files embeds them
// and is ccsweep-grid/2. DecodeCanonical reads both.
const CanonicalFormat = canonicalPrefix + "1"

// canonicalPrefix starts every version's format name: "ccsweep-grid/N".
const canonicalPrefix = "ccsweep-grid/"

// canonicalVersion is the newest format version DecodeCanonical reads.
const canonicalVersion = 2

// CanonicalGrid is the canonical form of a grid, the grid as run: every
// sub-grid with its inherited settings resolved and its axes expanded to
// canonical values. It is what Canonical encodes as JSON and what
// DecodeCanonical reads back; databases keep grids in this form.
type CanonicalGrid struct {
	// Format is CanonicalFormat.
	Format      string `json:"format"`
	Name        string `json:"name"`
	Scenario    string `json:"scenario"`
	Description string `json:"description,omitempty"`
	// Grids are the sub-grids in expansion order; there is at least one.
	Grids []CanonicalSubGrid `json:"grids"`
	// Scenarios are the scenario files the sub-grids run, by the name their
	// Scenario gives.
	Scenarios map[string]CanonicalScenario `json:"scenarios,omitempty"`
}

// CanonicalSubGrid is one sub-grid in canonical form (see SubGrid).
type CanonicalSubGrid struct {
	Scenario string `json:"scenario"`
	// Seeds is the number of replications of each point, at least 1.
	Seeds int `json:"seeds"`
	// Base maps each fixed parameter to its canonical value; never nil.
	Base map[string]string `json:"base"`
	// Axes are the swept parameters in expansion order; never nil.
	Axes []CanonicalAxis `json:"axes"`
	// Where holds every constraint of the sub-grid, inherited ones first.
	Where []string `json:"where,omitempty"`
}

// CanonicalAxis is a swept parameter with its canonical values; axes with
// the same nonzero Zip move together and are listed next to each other.
type CanonicalAxis struct {
	Name   string   `json:"name"`
	Values []string `json:"values"`
	Zip    int      `json:"zip,omitempty"`
}

// CanonicalForm returns the grid as run in canonical form. The caller owns
// the result; its slices do not alias g.
func (g *Grid) CanonicalForm() *CanonicalGrid {
	c := &CanonicalGrid{Format: CanonicalFormat, Name: g.Name, Scenario: g.Scenario, Description: g.Description}
	for _, s := range g.Subs {
		cs := CanonicalSubGrid{Scenario: s.Scenario, Seeds: s.Seeds, Base: map[string]string{}, Axes: []CanonicalAxis{},
			Where: slices.Clone(s.Where)}
		for _, b := range s.Base {
			cs.Base[b.Name] = b.Value
		}
		for _, a := range s.Axes {
			cs.Axes = append(cs.Axes, CanonicalAxis{a.Name, slices.Clone(a.Values), a.Zip})
		}
		c.Grids = append(c.Grids, cs)
	}
	if len(g.scenarios) > 0 {
		// Format 1 has no scenario files: a ccsweep that reads only it
		// refuses this text instead of missing the scenarios.
		c.Format = canonicalPrefix + "2"
		c.Scenarios = maps.Clone(g.scenarios)
	}
	return c
}

// Canonical returns CanonicalForm as indented JSON ending in a newline.
// Equal grids give equal text whatever their file layout, comments or
// spelling of values, and the text of a grid never changes within one
// format version: grid identities hash it.
func (g *Grid) Canonical() string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(g.CanonicalForm()); err != nil {
		panic(err) // strings, ints and maps of strings always encode
	}
	return b.String()
}

// DecodeCanonical reads the canonical text of a grid, as Canonical writes
// it, of any format version up to CanonicalFormat. It checks the text's
// shape and format version only; Grid rebuilds the grid. Text of a newer
// format gives an error wrapping ErrFormatTooNew; text that is not a
// canonical grid one wrapping ErrNotCanonical.
func DecodeCanonical(text []byte) (*CanonicalGrid, error) {
	var c CanonicalGrid
	if err := json.Unmarshal(text, &c); err != nil {
		return nil, fmt.Errorf("decode canonical grid: %w: %w", ErrNotCanonical, err)
	}
	version, ok := strings.CutPrefix(c.Format, canonicalPrefix)
	n, err := strconv.Atoi(version)
	switch {
	case !ok || err != nil || n < 1 || strconv.Itoa(n) != version:
		return nil, fmt.Errorf("decode canonical grid %q: %w: format %q, want %s", c.Name, ErrNotCanonical, c.Format, CanonicalFormat)
	case n > canonicalVersion:
		return nil, fmt.Errorf("decode canonical grid %q: %w: it is %s, this ccsweep reads up to %s; use a newer ccsweep",
			c.Name, ErrFormatTooNew, c.Format, canonicalPrefix+strconv.Itoa(canonicalVersion))
	case len(c.Grids) == 0:
		return nil, fmt.Errorf("decode canonical grid %q: %w: no sub-grids", c.Name, ErrNotCanonical)
	}
	// Register the scenario files, so that the points' scenarios are known.
	for _, name := range slices.Sorted(maps.Keys(c.Scenarios)) {
		if err := c.Scenarios[name].register(name); err != nil {
			return nil, fmt.Errorf("decode canonical grid %q: %w", c.Name, err)
		}
	}
	return &c, nil
}

// ParseCanonical is DecodeCanonical followed by CanonicalGrid.Grid.
func ParseCanonical(text []byte) (*Grid, error) {
	c, err := DecodeCanonical(text)
	if err != nil {
		return nil, err
	}
	return c.Grid()
}

// Grid rebuilds the grid c records: its points, with where constraints
// evaluated, are those of the grid that was run, and so are their IDs
// under the same model version. Values are kept as spelled in c. Unlike
// Parse it neither looks the scenarios up nor checks each point with
// params.Config.Validate: the grid was checked when it was run, maybe by
// another version of the model. It fails when a parameter is unknown to
// this model or a value or constraint does not parse or evaluate, when c is
// malformed (an empty or repeated value, zip axes apart or of unequal
// length, seeds below 1), or when it has more than MaxPoints points. To
// count the points, Grid visits every combination of a sub-grid with where
// constraints once.
func (c *CanonicalGrid) Grid() (*Grid, error) {
	g := &Grid{Name: c.Name, Scenario: c.Scenario, Description: c.Description, scenarios: c.Scenarios}
	for _, name := range slices.Sorted(maps.Keys(c.Scenarios)) {
		if err := c.Scenarios[name].register(name); err != nil {
			return nil, fmt.Errorf("canonical grid %q: %w", c.Name, err)
		}
	}
	for i := range c.Grids {
		s, err := c.Grids[i].subGrid(whereEnv(workload.LookupScenario(c.Grids[i].Scenario)))
		if err != nil {
			return nil, fmt.Errorf("canonical grid %q: grids[%d]: %w", c.Name, i, err)
		}
		s.key = fmt.Sprintf("grids[%d]", i)
		g.Subs = append(g.Subs, s)
	}
	if s, msg := g.tooBig(); s != nil {
		return nil, fmt.Errorf("canonical grid %q: %s: %s", c.Name, s.key, msg)
	}
	for _, s := range g.Subs {
		n, _ := s.combos()
		if len(s.where) == 0 {
			g.count += n * s.Seeds
			continue
		}
		n = 0
		if err := s.visit(func([]int, *params.Config) bool { n++; return true }); err != nil {
			if we, ok := err.(*whereError); ok {
				err = fmt.Errorf("where %q: %s", we.c.src, exprMessage(we.err))
			}
			return nil, fmt.Errorf("canonical grid %q: %s: %w", c.Name, s.key, err)
		}
		g.count += n * s.Seeds
	}
	return g, nil
}

// subGrid rebuilds one sub-grid, compiling its constraints against env.
func (cs *CanonicalSubGrid) subGrid(env map[string]any) (*SubGrid, error) {
	if cs.Seeds < 1 {
		return nil, fmt.Errorf("seeds %d: want at least 1", cs.Seeds)
	}
	s := &SubGrid{Scenario: cs.Scenario, Seeds: cs.Seeds, line: 1, sc: workload.LookupScenario(cs.Scenario)}
	zips := 0
	for _, ca := range cs.Axes {
		a, err := s.canonicalAxis(ca)
		if err != nil {
			return nil, err
		}
		if s.axis(ca.Name) != nil {
			return nil, fmt.Errorf("axis %s: swept twice", ca.Name)
		}
		switch last := len(s.dims) - 1; {
		case ca.Zip == 0:
			s.dims = append(s.dims, []*axis{a})
		case last >= 0 && s.dims[last][0].zip == ca.Zip:
			if n := len(s.dims[last][0].vals); len(a.vals) != n {
				return nil, fmt.Errorf("axis %s: %d values, but its zip group has %d", ca.Name, len(a.vals), n)
			}
			s.dims[last] = append(s.dims[last], a)
		case ca.Zip == zips+1:
			zips++
			s.dims = append(s.dims, []*axis{a})
		default:
			return nil, fmt.Errorf("axis %s: zip %d, want 0, %d or %d (a zip group's axes are listed together)",
				ca.Name, ca.Zip, zips, zips+1)
		}
		s.Axes = append(s.Axes, Axis{Name: a.param.Name, Kind: a.param.Kind, Unit: a.param.Unit, Values: a.texts, Zip: a.zip})
	}
	for _, name := range slices.Sorted(maps.Keys(cs.Base)) {
		p := s.param(name)
		if p == nil {
			return nil, fmt.Errorf("base %s: %w", name, params.ErrUnknownParam)
		}
		if s.axis(name) != nil {
			return nil, fmt.Errorf("base %s: also swept", name)
		}
		text := cs.Base[name]
		v, err := p.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("base %s: %w", name, err)
		}
		s.base = append(s.base, &setting{param: p, val: v, text: text, key: "base." + name, line: 1})
		s.Base = append(s.Base, Param{Name: name, Value: text})
	}
	s.setColumns()
	for _, src := range cs.Where {
		prog, err := compileExpr(env, src)
		if err != nil {
			return nil, fmt.Errorf("where %q: %s", src, exprMessage(err))
		}
		s.where = append(s.where, &constraint{src: src, prog: prog, key: "where", line: 1})
		s.Where = append(s.Where, src)
	}
	return s, nil
}

// canonicalAxis rebuilds one axis of a canonical sub-grid.
func (s *SubGrid) canonicalAxis(ca CanonicalAxis) (*axis, error) {
	p := s.param(ca.Name)
	switch {
	case p == nil:
		return nil, fmt.Errorf("axis %s: %w", ca.Name, params.ErrUnknownParam)
	case len(ca.Values) == 0:
		return nil, fmt.Errorf("axis %s: no values", ca.Name)
	case len(ca.Values) > MaxAxisValues:
		return nil, fmt.Errorf("axis %s: %d values, more than the limit of %d", ca.Name, len(ca.Values), MaxAxisValues)
	}
	table := "sweep"
	if ca.Zip != 0 {
		table = "zip"
	}
	a := &axis{param: p, key: ca.Name, line: 1, table: table, tableLine: 1, zip: ca.Zip}
	seen := make(map[string]bool, len(ca.Values))
	for _, text := range ca.Values {
		if seen[text] {
			return nil, fmt.Errorf("axis %s: value %q listed twice", ca.Name, text)
		}
		seen[text] = true
		v, err := p.Parse(text)
		if err != nil {
			return nil, fmt.Errorf("axis %s: %w", ca.Name, err)
		}
		a.vals = append(a.vals, v)
		a.texts = append(a.texts, text)
		a.env = append(a.env, envValue(p, v))
	}
	return a, nil
}
