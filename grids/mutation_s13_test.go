package grids_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// A scenario file's defaults: traffics without a name are t1, t2, ... in
// file order, an on-off traffic without a burst has bursts of 10 µs on
// average, and an app's overheads may be 0. A mesh may have three
// dimensions. Kills scenfile.go's default name `i+1` turned into `i-1`,
// the default burst's `10*engine.Microsecond` into `/`, scenfile_app.go's
// durZero `v < 0` into `<=`, and the dims' `len(list) > 3` into `>=`.
func TestScenarioFileDefaultsAtTheirEdges(t *testing.T) {
	const topo = "[topology]\nkind = \"fattree\"\nk = 2\n"
	sc, _, err := grids.ParseScenario("s.toml", []byte(topo+
		"[[traffic]]\npattern = \"uniform\"\narrival = \"onoff\"\nload = 0.5\n"+
		"[[traffic]]\npattern = \"uniform\"\nsources = [\"H1\"]\n"+
		"[[app]]\nprogram = \"ring\"\nsend_overhead = \"0s\"\nrecv_overhead = \"0ns\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Config()
	ts, err := sc.TrafficFor(&c)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Name != "t1" || ts[1].Name != "t2" {
		t.Fatalf("traffic names %v, want t1 and t2", ts)
	}
	if ts[0].Burst != 10*engine.Microsecond {
		t.Errorf("an onoff traffic without a burst: burst %v, want 10us", ts[0].Burst)
	}
	if apps := sc.AppsFor(&c); len(apps) != 1 || apps[0].SendOverhead != 0 || apps[0].RecvOverhead != 0 {
		t.Errorf("apps %+v, want one with no send or receive overhead", apps)
	}
	if _, _, err := grids.ParseScenario("m.toml", []byte("[topology]\nkind = \"mesh\"\ndims = [2, 2, 2]\n[[traffic]]\npattern = \"uniform\"\n"), nil); err != nil {
		t.Errorf("a 2x2x2 mesh: %v", err)
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
