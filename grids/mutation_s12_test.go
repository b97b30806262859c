package grids_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of session 12's sample of grids
// (seed 71; docs/testing.md, "Sampled runs"), after that sample's figure
// was recorded.

// TestComputeNodesAreForFtreeOnly: a scenario's compute nodes rank the
// switches for ftree; updn takes roots only (docs/scenarios.md), so
// compute_nodes beside updn is refused at the routing line, and beside
// ftree accepted. Kills scenfile.go's `spec.Routing == "updn"` negated.
func TestComputeNodesAreForFtreeOnly(t *testing.T) {
	var names []string
	for h := 1; h <= 16; h++ {
		names = append(names, fmt.Sprintf("%q", fmt.Sprintf("H%d", h)))
	}
	hosts := strings.Join(names, ", ") // every host of the k = 4 fat tree
	text := func(alg string) string {
		return "[topology]\nkind = \"fattree\"\nk = 4\n[routing]\nalgorithm = \"" + alg + "\"\ncompute_nodes = [" + hosts + "]\n" +
			"[[traffic]]\npattern = \"uniform\"\narrival = \"poisson\"\nload = 0.1\n"
	}
	if _, err := loadScenarioText(t, text("ftree")); err != nil {
		t.Errorf("compute nodes with ftree: %v", err)
	}
	_, err := loadScenarioText(t, text("updn"))
	if err == nil || !strings.Contains(err.Error(), "s.toml:4: routing: compute nodes are for ftree; updn takes roots only") {
		t.Errorf("compute nodes with updn: error %v, want the ftree-only message at the routing line", err)
	}
}

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

// TestMeshDimsFromTwoTo1024: a mesh's or torus's sizes are whole numbers
// from 2 to 1024 (the scenario file's rule): 2 and 1024 are accepted, 1 and 1025
// refused at the dims line.
func TestMeshDimsFromTwoTo1024(t *testing.T) {
	text := func(dims string) string {
		return "[topology]\nkind = \"mesh\"\ndims = " + dims + "\n" +
			"[[traffic]]\npattern = \"uniform\"\narrival = \"poisson\"\nload = 0.1\n"
	}
	for _, dims := range []string{"[2, 3]", "[1024]"} {
		if _, err := loadScenarioText(t, text(dims)); err != nil {
			t.Errorf("dims = %s: %v", dims, err)
		}
	}
	for _, dims := range []string{"[1, 3]", "[1025]"} {
		_, err := loadScenarioText(t, text(dims))
		if err == nil || !strings.Contains(err.Error(), "s.toml:3: topology.dims: ") || !strings.Contains(err.Error(), "want a whole number from 2 to 1024") {
			t.Errorf("dims = %s: error %v, want the 2-to-1024 message at line 3", dims, err)
		}
	}
}
