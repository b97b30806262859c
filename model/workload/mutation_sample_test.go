package workload

import (
	"fmt"
	"testing"

	"github.com/ccsweep/ccsweep/model/params"
)

// Tests written against the survivors of session 10's 300-mutant sampled
// mutation run of model (docs/testing.md, "Sampled runs"), for the code
// that has since moved to this package; each names the mutant it kills.

// TestMutAppParamBounds checks the ranges of two of an app's sweep
// parameters at their last value and the next: its root, as a scenario
// file's root (grids' scenfile_app.go: 0 to 2^20-1, the largest rank
// count), and its start_phase, a phase of the scenario (0 to phases-1; 3
// phases here).
// Kills app_params.go's root bound `1<<20-1` turned into `1<<20+1` and
// `max(sp.Phases, 1)-1` turned into `+1`.
func TestMutAppParamBounds(t *testing.T) {
	for _, c := range []struct {
		app, program, param string
		last                int
	}{
		{"bc", "bcast", "bc.root", 1<<20 - 1},
		{"pp", "pingpong", "pp.start_phase", 2},
	} {
		sp := ScenarioSpec{Phases: 3, Apps: []AppSpec{DefaultApp(c.app, c.program)}}
		var param *params.Param
		for _, p := range sp.appParams() {
			if p.Name == c.param {
				param = p.Param
			}
		}
		if param == nil {
			t.Fatalf("no parameter %s", c.param)
		}
		if _, err := param.Parse(c.last); err != nil {
			t.Errorf("%s = %d: %v", c.param, c.last, err)
		}
		if _, err := param.Parse(c.last + 1); err == nil {
			t.Errorf("%s = %d accepted, past its range", c.param, c.last+1)
		}
	}
}

// TestMutClos648VictimsCrossTheFabric checks clos648-hotspot's victims
// against closHotspot's comment: each sends to the host at its hot node's
// position on the leaf half the fabric away from its own (36 leaves of 18:
// 18 leaves on), so never to its own leaf.
// Kills clos648.go's `sh.leaves/2` turned into `*2` (every victim sends
// within its own leaf).
func TestMutClos648VictimsCrossTheFabric(t *testing.T) {
	sp := clos648Hotspot()
	hostOf := func(name string) int {
		var h int
		if _, err := fmt.Sscanf(name, "H%d", &h); err != nil {
			t.Fatalf("host %q: %v", name, err)
		}
		return h - 1
	}
	victims := 0
	for _, f := range sp.Flows {
		if f.Role != Victim {
			continue
		}
		victims++
		var k, i int
		if _, err := fmt.Sscanf(f.Name, "V%d.%d", &k, &i); err != nil {
			t.Fatalf("victim %q: %v", f.Name, err)
		}
		src, dst := hostOf(f.Src), hostOf(f.Dst)
		wantLeaf := (src/18 + 18) % 36
		if dst/18 != wantLeaf || dst%18 != (82*(k-1))%18 {
			t.Errorf("%s: %s (leaf %d) to %s (leaf %d, position %d), want leaf %d, position %d",
				f.Name, f.Src, src/18, f.Dst, dst/18, dst%18, wantLeaf, (82*(k-1))%18)
		}
	}
	if victims != 32 {
		t.Errorf("%d victims, want 32", victims)
	}
}

// TestMutBareLoadOnlyWhereTheTrafficSetsIt checks the bare parameter
// "load" of a scenario file: listed for a traffic that sets a load, not
// for one that saturates and sets none (each traffic's own NAME.load is
// listed either way); the same for hot_nodes.
// Kills scenfile.go's `ts.Load > 0` turned into `>= 0` and
// `ts.HotNodes > 0` negated.
func TestMutBareLoadOnlyWhereTheTrafficSetsIt(t *testing.T) {
	for _, c := range []struct {
		ts   TrafficSpec
		bare bool
	}{
		{TrafficSpec{Name: "all", Pattern: "uniform", Arrival: "saturate"}, false},
		{TrafficSpec{Name: "all", Pattern: "uniform", Arrival: "poisson", Load: 0.5}, true},
	} {
		hot := c.ts
		hot.Pattern, hot.HotNodes = "hotspot", map[bool]int{true: 2, false: 0}[c.bare]
		c.ts = hot
		sp := ScenarioSpec{Phases: 1, Traffic: []TrafficSpec{c.ts}}
		names := map[string]bool{}
		for _, p := range sp.params() {
			names[p.Name] = true
		}
		if names["load"] != c.bare || !names["all.load"] {
			t.Errorf("traffic %s, load %v: bare load listed %v (want %v), all.load listed %v",
				c.ts.Arrival, c.ts.Load, names["load"], c.bare, names["all.load"])
		}
		if names["hot_nodes"] != c.bare || !names["all.hot_nodes"] {
			t.Errorf("hot_nodes %d: bare hot_nodes listed %v (want %v), all.hot_nodes listed %v",
				c.ts.HotNodes, names["hot_nodes"], c.bare, names["all.hot_nodes"])
		}
	}
}
