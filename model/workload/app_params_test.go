package workload

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// TestMutAppParamRanges checks every app sweep parameter's range at both
// ends and one past: the same ranges as a scenario file's [[app]] keys
// (grids' scenfile_app.go: size 0 to 2^30, iterations 1 to 2^24, ranks 0 to
// 2^20-1, ranks_per_host 1 to 1024, patterns 1 to 1000, root 0 to 2^20-1,
// shm_gbps 0.001 to 10000), start_phase a phase of the scenario (0 to
// phases-1) and the times 0 to 1 s.
// Kills app_params.go's ranks bound `1<<20-1` to `1<<20+1` (both mutators
// that make it), and any other end moved.
func TestMutAppParamRanges(t *testing.T) {
	sp := ScenarioSpec{Phases: 4, Apps: []AppSpec{DefaultApp("a", "ring")}}
	ps := map[string]*params.Param{}
	for _, p := range sp.appParams() {
		ps[p.Name] = p.Param
	}
	type rng struct{ lo, hi any }
	sec := engine.Second
	for name, r := range map[string]rng{
		"a.size":           {0, 1 << 30},
		"a.iterations":     {1, 1 << 24},
		"a.ranks":          {0, 1<<20 - 1},
		"a.ranks_per_host": {1, 1024},
		"a.patterns":       {1, 1000},
		"a.root":           {0, 1<<20 - 1},
		"a.start_phase":    {0, 3},
		"a.compute":        {engine.Time(0), sec},
		"a.send_overhead":  {engine.Time(0), sec},
		"a.recv_overhead":  {engine.Time(0), sec},
		"a.shm_latency":    {engine.Time(0), sec},
		"a.shm_gbps":       {0.001, 10000.0},
	} {
		p := ps[name]
		if p == nil {
			t.Errorf("no parameter %s", name)
			continue
		}
		checkRange(t, p, r.lo, r.hi)
		delete(ps, name)
	}
	for name := range ps {
		t.Errorf("parameter %s not checked", name)
	}
}

// checkRange checks that p accepts lo and hi and refuses the value just
// below lo and just above hi (a whole number, a picosecond, or 1e-9 of a
// float's end).
func checkRange(t *testing.T, p *params.Param, lo, hi any) {
	t.Helper()
	var below, above any
	switch l := lo.(type) {
	case int:
		below, above = l-1, hi.(int)+1
	case engine.Time:
		below, above = l-1, hi.(engine.Time)+1
	case float64:
		below, above = l-1e-9, hi.(float64)*(1+1e-9)
	}
	for _, v := range []any{lo, hi} {
		if _, err := p.Parse(v); err != nil {
			t.Errorf("%s = %v: %v", p.Name, v, err)
		}
	}
	for _, v := range []any{below, above} {
		if _, err := p.Parse(v); err == nil {
			t.Errorf("%s = %v accepted, outside %v..%v", p.Name, v, lo, hi)
		}
	}
}

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
