package grids_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestParameterAtTheScenariosDefaultIsThePointWithoutIt: a parameter set to
// the value it has anyway is the point without it (docs/sweeps.md), and
// "anyway" is the scenario's own default, not the model's: on a built-in
// scenario whose default of a parameter differs from the model's, the
// parameter at the scenario's value has the ID of the point without it,
// and at the model's value an ID of its own.
func TestParameterAtTheScenariosDefaultIsThePointWithoutIt(t *testing.T) {
	def := params.DefaultConfig()
	found := false
	for _, sc := range workload.Scenarios() {
		cfg := sc.Config()
		for _, name := range params.ParamNames() {
			p := params.LookupParam(name)
			mine, model0 := cfg.Canonical(name), def.Canonical(name)
			if mine == model0 || p.Scheme != "" || name == "preset" || name == "cc" {
				continue
			}
			found = true
			bare := grids.Point{Scenario: sc.Name, Seed: 1}
			at := grids.Point{Scenario: sc.Name, Seed: 1, Params: []grids.Param{{Name: name, Value: mine}}}
			other := grids.Point{Scenario: sc.Name, Seed: 1, Params: []grids.Param{{Name: name, Value: model0}}}
			id := grids.PointID(bare, model.Version)
			if grids.PointID(at, model.Version) != id {
				t.Errorf("%s: %s = %s (the scenario's default) has an ID of its own; want the point without it", sc.Name, name, mine)
			}
			if grids.PointID(other, model.Version) == id {
				t.Errorf("%s: %s = %s (the model's default, not the scenario's) has the ID of the point without it", sc.Name, name, model0)
			}
			break
		}
	}
	if !found {
		t.Fatal("no built-in scenario has a default unlike the model's; the test needs one")
	}
}

// A parameter set to the value its point's preset gives it is the point
// without it (docs/sweeps.md: a parameter at the value it has anyway), for
// every preset that changes some parameter of the testbed, and a value
// other than the preset's is not. Kills point.go's `set("preset", ...) ==
// nil` negated (defaults ignored under a preset).
func TestParameterAtItsPresetsValueIsThePointWithoutIt(t *testing.T) {
	const scenario = "testbed-s1"
	sc := workload.LookupScenario(scenario)
	base := sc.Config()
	checked := 0
	for _, pr := range params.Presets() {
		c := sc.Config()
		if err := sc.Set(&c, "preset", pr.Name); err != nil {
			t.Fatalf("preset %s: %v", pr.Name, err)
		}
		for _, v := range pr.Values {
			name, at := v.Name, c.Canonical(v.Name)
			if at == base.Canonical(name) {
				continue // the preset leaves it as the scenario has it
			}
			// A point's parameters are sorted by name.
			point := func(ps ...grids.Param) grids.Point {
				slices.SortFunc(ps, func(a, b grids.Param) int { return strings.Compare(a.Name, b.Name) })
				return grids.Point{Scenario: scenario, Seed: 1, Params: ps}
			}
			preset := grids.Param{Name: "preset", Value: pr.Name}
			bare := point(preset)
			with := point(grids.Param{Name: name, Value: at}, preset)
			other := point(grids.Param{Name: name, Value: base.Canonical(name)}, preset)
			id := grids.PointID(bare, model.Version)
			if grids.PointID(with, model.Version) != id {
				t.Errorf("preset %s: %s = %s (the preset's value) has an ID of its own; want the point without it", pr.Name, name, at)
			}
			if grids.PointID(other, model.Version) == id {
				t.Errorf("preset %s: %s = %s (not the preset's value) has the ID of the point without it", pr.Name, name, base.Canonical(name))
			}
			checked++
			break
		}
	}
	if checked == 0 {
		t.Fatal("no preset changes a parameter of the testbed; the test needs one")
	}
}
