package grids

import (
	"errors"
	"fmt"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// checkScenarios reports what only a sub-grid's scenario can tell
// (model.CheckConfig): a victim_mask port that the topology does
// not have, and phase and sample values whose runs would keep more samples
// than a run may. Each distinct victim_mask value is checked once; the
// samples, at the longest phase and the shortest sample the sub-grid sets.
// Problems name the line that sets the parameter.
func (g *Grid) checkScenarios(ps *problems) {
	for _, s := range g.Subs {
		sc := workload.LookupScenario(s.Scenario)
		if sc == nil {
			continue // reported where the scenario is read
		}
		for _, v := range s.values("victim_mask") {
			c := params.DefaultConfig()
			if c.Set("victim_mask", v) != nil {
				continue // reported where the value is read
			}
			if err := model.CheckConfig(sc, c); err != nil {
				s.report(ps, "victim_mask", err)
				break
			}
		}
		c := params.DefaultConfig()
		first := true
		for _, v := range s.values("phase") {
			if t, err := engine.ParseTime(v); err == nil && (first || t > c.Phase) {
				c.Phase, first = t, false
			}
		}
		first = true
		for _, v := range s.values("sample") {
			if t, err := engine.ParseTime(v); err == nil && (first || t < c.Sample) {
				c.Sample, first = t, false
			}
		}
		if _, err := model.CheckWork(sc, c, 0); err != nil {
			s.report(ps, "sample", err)
		}
		s.checkVLs(ps)
	}
}

// checkVLs checks, when s's scenario file leaves its routing's VLs to the
// grid (CheckScenarioConfig), one point of each distinct value of vls and
// the scenario's own parameters, reporting the first that lacks them at
// the scenario file's line, with the point.
func (s *SubGrid) checkVLs(ps *problems) {
	if s.sc == nil {
		return
	}
	if _, ok := vlsChecks.Load(s.sc.Name); !ok {
		return
	}
	seen := map[string]bool{}
	s.visit(func(idx []int, c *params.Config) bool { // a where error is reported by validate
		key := fmt.Sprint(c.VLs)
		for d, dim := range s.dims {
			for _, a := range dim {
				if s.sc.Param(a.param.Name) != nil {
					key += "\x00" + a.texts[idx[d]]
				}
			}
		}
		if seen[key] {
			return true
		}
		seen[key] = true
		var e *Error
		if errors.As(CheckScenarioConfig(s.sc, *c), &e) {
			p := e.Problems[0]
			if at := s.describe(idx); at != "" {
				p.Msg += " (at " + at + ")"
			}
			ps.list = append(ps.list, p)
			return false
		}
		return true
	})
}

// values returns the canonical values sub-grid s gives parameter name: its
// axis values, its fixed value, or the model's default.
func (s *SubGrid) values(name string) []string {
	for _, a := range s.Axes {
		if a.Name == name {
			return a.Values
		}
	}
	for _, b := range s.Base {
		if b.Name == name {
			return []string{b.Value}
		}
	}
	c := params.DefaultConfig()
	return []string{c.Canonical(name)}
}

// report adds err about parameter name at the line that sets it.
func (s *SubGrid) report(ps *problems, name string, err error) {
	key, line := s.locate(name)
	msg := err.Error()
	var pe *params.ParamError
	if errors.As(err, &pe) {
		msg = pe.Reason
		if p := params.LookupParam(pe.Name); p != nil {
			msg = p.Format(pe.Value) + ": " + pe.Reason
		}
	}
	ps.add(line, key, "%s", msg)
}
