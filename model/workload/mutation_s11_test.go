package workload

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// Tests written against the survivors of session 11's training sample of
// model/workload (docs/testing.md, "Sampled runs": 80 mutants, seed 41);
// each names the mutants it kills. They test the documented behaviour of
// the function around each survivor, not only the one operator.

// goalOK parses text and fails the test on an error.
func goalOK(t *testing.T, text string) *Trace {
	t.Helper()
	tr, err := ParseGOAL([]byte(text))
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return tr
}

// TestMutGOALLimits checks ParseGOAL's documented ranges at their ends and
// one past: a size from 0b to 2^30 bytes, a peer rank 0 to num_ranks-1, a
// tag 0 to 2^31-1, calc 0 to one hour in nanoseconds, a rank block 0 to
// num_ranks-1; each value past an end is an error at its own line, never a
// panic.
// Kills goal.go's `v > 1<<30` to `>=` (size), `v < 0` to `<=` and
// `v > math.MaxInt32` to `>=` (tag), calc's `v < 0` to `<=`, `v > ...` to
// `>=` and `engine.Second/engine.Nanosecond` to `*`, the rank block's
// `t.Ranks-1` to `+1` (rank num_ranks then indexes past seen: a panic), and
// opts' `i+1 >= len(rest)` to `>` (a trailing "tag" without its value
// indexes past the words: a panic).
func TestMutGOALLimits(t *testing.T) {
	const hour = 3600 * 1000 * 1000 * 1000 // ns
	ok := func(op string) Op {
		t.Helper()
		tr := goalOK(t, "num_ranks 3\nrank 0 {\na: "+op+"\n}\n")
		if len(tr.Ops[0]) != 1 {
			t.Fatalf("%q: rank 0 runs %v", op, tr.Ops[0])
		}
		return tr.Ops[0][0]
	}
	for _, c := range []struct {
		op   string
		want Op
	}{
		{"send 0b to 1", Op{Kind: OpSend, Peer: 1}},
		{"send 1073741824b to 2", Op{Kind: OpSend, Peer: 2, Size: 1 << 30}},
		{"recv 8b from 2 tag 0", Op{Kind: OpRecv, Peer: 2, Size: 8}},
		{"recv 8b from 1 tag 2147483647", Op{Kind: OpRecv, Peer: 1, Size: 8, Tag: 1<<31 - 1}},
		{"calc 0", Op{Kind: OpCompute}},
		{fmt.Sprintf("calc %d", hour), Op{Kind: OpCompute, Dur: 3600 * engine.Second}},
	} {
		if got := ok(c.op); got != c.want {
			t.Errorf("%q: %+v, want %+v", c.op, got, c.want)
		}
	}
	for _, c := range []struct{ text, want string }{
		{"num_ranks 3\nrank 0 {\na: send 1073741825b to 1\n}\n", `3: size "1073741825b"`},
		{"num_ranks 3\nrank 0 {\na: send -1b to 1\n}\n", `3: size "-1b"`},
		{"num_ranks 3\nrank 0 {\na: send 8b to 3\n}\n", `3: rank "3": want 0 to 2`},
		{"num_ranks 3\nrank 0 {\na: send 8b to -1\n}\n", `3: rank "-1"`},
		{"num_ranks 3\nrank 0 {\na: send 8b to 1 tag -1\n}\n", `3: tag "-1"`},
		{"num_ranks 3\nrank 0 {\na: send 8b to 1 tag 2147483648\n}\n", `3: tag "2147483648"`},
		{"num_ranks 3\nrank 0 {\na: send 8b to 1 tag\n}\n", `3: "tag": want tag T`},
		{"num_ranks 3\nrank 0 {\na: calc 5 cpu\n}\n", `3: "cpu": want tag T`},
		{fmt.Sprintf("num_ranks 3\nrank 0 {\na: calc %d\n}\n", hour+1), `3: calc "3600000000001"`},
		{"num_ranks 3\nrank 0 {\na: calc -1\n}\n", `3: calc "-1"`},
		{"num_ranks 3\nrank 3 {\n}\n", `2: rank "3": want a whole number from 0 to 2`},
		{"num_ranks 3\nrank -1 {\n}\n", `2: rank "-1"`},
		{"num_ranks 0\n", `1: num_ranks "0"`},
		{"num_ranks 65537\n", `1: num_ranks "65537"`},
	} {
		_, err := ParseGOAL([]byte(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one starting %q", c.text, err, c.want)
		}
	}
	if tr := goalOK(t, "num_ranks 65536\nrank 65535 {\n}\n"); tr.Ranks != 65536 || len(tr.Ops) != 65536 {
		t.Errorf("num_ranks 65536: %d ranks, %d programs", tr.Ranks, len(tr.Ops))
	}
}

// TestMutGOALCycleNamesAnOperationOnIt checks that a cycle of dependencies
// is reported at an operation on the cycle, not at one that merely comes
// first in the rank: here a (line 3) is free and b, c (lines 4, 5) require
// each other, so the error is at line 4.
// Kills goal.go's `d > 0` to `d >= 0` in the cycle report (it names the
// first operation, whatever its in-degree).
func TestMutGOALCycleNamesAnOperationOnIt(t *testing.T) {
	_, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: calc 1\nb: calc 1\nc: calc 1\nb requires c\nc requires b\n}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "4: rank 0: the dependencies form a cycle") {
		t.Errorf("error %v, want a cycle at line 4 (b)", err)
	}
}

// TestMutHPCCApps checks testbed-hpcc's apps against docs/scenarios.md
// ("testbed-hpcc"): ping-pong 8 bytes (loop 8) and 2,000,000 bytes (loop
// 1), natural rings 8 bytes (loop 5) and 2,000,000 bytes (loop 2), random
// rings 8 bytes (3 rings, loop 5) and 2,000,000 bytes (1 ring, loop 2), one
// after another from phase 1 between H1 and H4; the ping-pongs one rank per
// host, the rings two.
// Kills app_hpcc.go's `i < len(apps)` negated (every app one rank per host,
// natural) and `i >= 4` negated (the natural rings random and the random
// ones natural).
func TestMutHPCCApps(t *testing.T) {
	sc := LookupScenario("testbed-hpcc")
	if sc == nil {
		t.Fatal("no scenario testbed-hpcc")
	}
	type app struct {
		name, program    string
		size, iterations int
		perHost          int
		order            string
		patterns         int
		report           string
	}
	want := []app{
		{"pingpong_lat", "pingpong", 8, 8, 1, "natural", 1, "latency"},
		{"pingpong_bw", "pingpong", 2000000, 1, 1, "natural", 1, "bandwidth"},
		{"ring_natural_lat", "ring", 8, 5, 2, "natural", 1, "latency"},
		{"ring_natural_bw", "ring", 2000000, 2, 2, "natural", 1, "bandwidth"},
		{"ring_random_lat", "ring", 8, 5, 2, "random", 3, "latency"},
		{"ring_random_bw", "ring", 2000000, 2, 2, "random", 1, "bandwidth"},
	}
	apps := sc.Apps
	if len(apps) != len(want) {
		t.Fatalf("%d apps, want %d", len(apps), len(want))
	}
	for i, w := range want {
		a := apps[i]
		got := app{a.Name, a.Program, a.Size, a.Iterations, a.RanksPerHost, a.Order, a.Patterns, a.Report}
		if got != w {
			t.Errorf("app %d: %+v, want %+v", i, got, w)
		}
		if len(a.Hosts) != 2 || a.Hosts[0] != "H1" || a.Hosts[1] != "H4" {
			t.Errorf("%s on hosts %v, want H1, H4", a.Name, a.Hosts)
		}
		after, phase := "", 1
		if i > 0 {
			after, phase = want[i-1].name, 0
		}
		if a.After != after || a.StartPhase != phase {
			t.Errorf("%s starts after %q at phase %d, want after %q at phase %d", a.Name, a.After, a.StartPhase, after, phase)
		}
	}
}

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

// TestMutTrafficParams checks a scenario file's traffic parameters
// (docs/scenarios.md: each traffic's load, hotspot_fraction, message_size,
// hot_nodes, senders, start_phase and burst as NAME.field; a bare load,
// hotspot_fraction, hot_nodes, senders or burst sets that field in every
// traffic that gives it): which bare names are listed, their defaults (the
// first such traffic's value), what setting them changes, the qualified
// names' ranges, and that a qualified value wins over a bare one.
// Kills scenfile.go's `ts.Pattern == "hotspot"` and `ts.Pattern == "incast"`
// negated (a bare hotspot_fraction or senders listed for, and applied to,
// traffics that do not give them), `name == "senders"` negated (the bare
// senders' default is hot_nodes' and the reverse), and start_phase's
// `max(sp.Phases, 1)-1` to `+1`.
func TestMutTrafficParams(t *testing.T) {
	sp := ScenarioSpec{Name: "tp", Phases: 3, Topology: "fattree", Traffic: []TrafficSpec{
		{Name: "hot", Pattern: "hotspot", Arrival: "poisson", Load: 0.3, HotNodes: 3, HotspotFraction: 0.25},
		{Name: "in", Pattern: "incast", Arrival: "onoff", Load: 0.5, Senders: 5, Burst: 7 * engine.Microsecond},
		{Name: "bg", Pattern: "uniform", Arrival: "saturate", HotspotFraction: 0.75},
	}}
	sc, err := ScenarioOf("tp", sp)
	if err != nil {
		t.Fatal(err)
	}
	cfg := sc.Config()
	defaults := map[string]any{
		"load": 0.3, "hotspot_fraction": 0.25, "hot_nodes": 3, "senders": 5, "burst": 7 * engine.Microsecond,
	}
	for name, want := range defaults {
		if p := sc.Param(name); p == nil {
			t.Errorf("bare %s not listed", name)
		} else if got := p.Get(&cfg); got != want {
			t.Errorf("bare %s defaults to %v, want %v", name, got, want)
		}
	}
	// Each bare name changes exactly the traffics that give the field.
	set := func(c *params.Config, name string, v any) {
		t.Helper()
		if err := sc.Set(c, name, v); err != nil {
			t.Fatalf("%s = %v: %v", name, v, err)
		}
	}
	c := sc.Config()
	set(&c, "load", 0.9)
	set(&c, "hotspot_fraction", 0.5)
	set(&c, "hot_nodes", 7)
	set(&c, "senders", 2)
	set(&c, "burst", "1us")
	ts, err := sc.TrafficFor(&c)
	if err != nil {
		t.Fatal(err)
	}
	type fields struct {
		load, frac float64
		hot, snd   int
		burst      engine.Time
	}
	got := func(i int) fields {
		return fields{ts[i].Load, ts[i].HotspotFraction, ts[i].HotNodes, ts[i].Senders, ts[i].Burst}
	}
	for i, want := range []fields{
		{0.9, 0.5, 7, 0, 0},
		{0.9, 0, 0, 2, engine.Microsecond},
		{0, 0.75, 0, 0, 0},
	} {
		if g := got(i); g != want {
			t.Errorf("traffic %s after the bare values: %+v, want %+v", ts[i].Name, g, want)
		}
	}
	// A qualified value wins over the bare one, whatever the order set.
	c = sc.Config()
	set(&c, "hot.load", 0.2)
	set(&c, "load", 0.6)
	if ts, _ := sc.TrafficFor(&c); ts[0].Load != 0.2 || ts[1].Load != 0.6 {
		t.Errorf("hot.load 0.2 and load 0.6: loads %v, %v, want 0.2, 0.6", ts[0].Load, ts[1].Load)
	}
	// The spec itself is left alone.
	if sp.Traffic[0].Load != 0.3 || sc.spec.Traffic[0].Load != 0.3 {
		t.Errorf("Resolve changed the spec's load: %v", sc.spec.Traffic[0].Load)
	}
	for name, r := range map[string][2]any{
		"bg.load":             {0.0, 1.0},
		"bg.hotspot_fraction": {0.0, 1.0},
		"bg.message_size":     {1, 1 << 30},
		"bg.hot_nodes":        {1, 1 << 20},
		"bg.senders":          {0, 1 << 20},
		"bg.start_phase":      {0, 2},
		"bg.burst":            {engine.Nanosecond, engine.Second},
	} {
		p := sc.Param(name)
		if p == nil {
			t.Errorf("no parameter %s", name)
			continue
		}
		checkRange(t, p, r[0], r[1])
	}
}

// TestMutScenarioConfigOfAnImportedFabric checks Scenario.Config's
// documented default: an imported fabric's (Topology "ibnetdiscover")
// host_io_gbps is 0, each host at its link's rate; a generated topology's
// is DefaultConfig's 13 Gbit/s; a scenario default wins over both.
// Kills scenfile.go's `sc.spec.Topology == "ibnetdiscover"` negated in
// Config.
func TestMutScenarioConfigOfAnImportedFabric(t *testing.T) {
	for _, c := range []struct {
		topo     string
		defaults map[string]string
		want     float64
	}{
		{"ibnetdiscover", nil, 0},
		{"fattree", nil, 13},
		{"ibnetdiscover", map[string]string{"host_io_gbps": "20"}, 20},
	} {
		sc, err := ScenarioOf("x", ScenarioSpec{Topology: c.topo, Defaults: c.defaults})
		if err != nil {
			t.Fatal(err)
		}
		if cfg := sc.Config(); cfg.HostIOGbps != c.want {
			t.Errorf("%s, defaults %v: host_io_gbps %v, want %v", c.topo, c.defaults, cfg.HostIOGbps, c.want)
		}
	}
}

// smallFabric is an ibnetdiscover output of one switch and two adapters,
// with one stray line that the reader skips with a warning.
const smallFabric = `this line is not ibnetdiscover output
Switch	4 "S-0002c90200410b48"		# "S1" enhanced port 0 lid 4 lmc 0
[1]	"H-0002c903000a1b40"[1](2c903000a1b41) 		# "H1 HCA-1" lid 8 4xDDR
[2]	"H-0002c903000a1b50"[1](2c903000a1b51) 		# "H2 HCA-1" lid 9 4xDDR

Ca	1 "H-0002c903000a1b40"		# "H1 HCA-1"
[1](2c903000a1b41) 	"S-0002c90200410b48"[1]		# lid 8 lmc 0 "S1" lid 4 4xDDR

Ca	1 "H-0002c903000a1b50"		# "H2 HCA-1"
[1](2c903000a1b51) 	"S-0002c90200410b48"[2]		# lid 9 lmc 0 "S1" lid 4 4xDDR
`

// TestMutImportedFabricWarnings checks that a scenario of an imported
// fabric carries what reading the fabric worked around (Scenario.Warnings:
// here the skipped stray line, named by the file), and that a scenario of
// a generated topology has none.
// Kills scenfile.go's `spec.Topology == "ibnetdiscover"` negated in
// ScenarioOf.
func TestMutImportedFabricWarnings(t *testing.T) {
	sc, err := ScenarioOf("imp", ScenarioSpec{Topology: "ibnetdiscover", Fabric: []byte(smallFabric), FabricName: "f.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Warnings) != 1 || !strings.HasPrefix(sc.Warnings[0], "f.txt: skipped 1 line that is not ibnetdiscover output") {
		t.Errorf("warnings %q, want the skipped line of f.txt", sc.Warnings)
	}
	cfg := sc.Config()
	if topo, err := sc.Build(&cfg); err != nil || len(topo.Hosts()) != 2 {
		t.Errorf("the fabric builds: %v", err)
	}
	gen, err := ScenarioOf("gen", ScenarioSpec{Topology: "fattree"})
	if err != nil {
		t.Fatal(err)
	}
	if len(gen.Warnings) != 0 {
		t.Errorf("a generated topology's warnings: %q", gen.Warnings)
	}
}

// TestMutVictimNames checks the names of the Clos hot-spot scenarios'
// victims: V<k>.<j> for hot node k's victims j = 1..4 (clos648Victims per
// hot node), each name once, as they name the flows in results.
// Kills clos648.go's `i%clos648Victims` to `*` and its `+1` to `-1`.
func TestMutVictimNames(t *testing.T) {
	for name, hots := range map[string]int{"clos648-hotspot": 8, "clos10368-hotspot": 32} {
		sc := LookupScenario(name)
		if sc == nil {
			t.Fatalf("no scenario %s", name)
		}
		want := map[string]bool{}
		for k := 1; k <= hots; k++ {
			for j := 1; j <= 4; j++ {
				want[fmt.Sprintf("V%d.%d", k, j)] = true
			}
		}
		n := 0
		for _, f := range sc.Flows {
			if f.Role != Victim {
				continue
			}
			n++
			if !want[f.Name] {
				t.Errorf("%s: victim %s, unexpected or twice", name, f.Name)
			}
			delete(want, f.Name)
		}
		if n != 4*hots || len(want) != 0 {
			t.Errorf("%s: %d victims, missing %v", name, n, want)
		}
	}
}

// TestMutClos10368HotNodes checks clos10368-hotspot's hot nodes against its
// description (clos10368.go): hot node k (0-31) on leaf 9k/2 rounded down,
// at position 37k mod 72, 72 hosts a leaf; the hot nodes are the
// contributors' destinations.
// Kills clos10368.go's `9*k/2*clos10368HostsPerLeaf + 37*k%...` with `+` to
// `-` (still distinct leaves and positions, but other hosts).
func TestMutClos10368HotNodes(t *testing.T) {
	sc := LookupScenario("clos10368-hotspot")
	if sc == nil {
		t.Fatal("no scenario clos10368-hotspot")
	}
	want := map[string]bool{}
	for k := 0; k < 32; k++ {
		leaf, pos := 9*k/2, 37*k%72
		want[fmt.Sprintf("H%d", leaf*72+pos+1)] = true
	}
	got := map[string]bool{}
	for _, f := range sc.Flows {
		if f.Role == Contributor {
			got[f.Dst] = true
		}
	}
	for h := range want {
		if !got[h] {
			t.Errorf("hot node %s has no contributor", h)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d hot nodes, want %d", len(got), len(want))
	}
}

// TestMutGOALRankInsideAnOpenBlock checks that a rank block opened inside
// another (rank 0's, still open) is an error at its line (found by the
// measurement sample, after its figure was recorded).
// Kills goal.go's `rank >= 0` to `>` (rank 0's open block not seen).
func TestMutGOALRankInsideAnOpenBlock(t *testing.T) {
	_, err := ParseGOAL([]byte("num_ranks 2\nrank 0 {\na: calc 1\nrank 1 {\n}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "4: rank 0's block is still open") {
		t.Errorf("error %v, want one at line 4: rank 0's block is still open", err)
	}
}
