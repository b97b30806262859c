package workload

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
)

// Tests of a file scenario's accessors (scenfile.go) against their doc
// comments and docs/scenarios.md ("Your own network: scenario files"),
// without building or running anything.

// fileScenario makes an unregistered scenario of spec, failing the test on
// an error.
func fileScenario(t *testing.T, spec ScenarioSpec) *Scenario {
	t.Helper()
	sc, err := ScenarioOf(spec.Name, spec)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// set sets parameter name of sc in c, failing the test on an error.
func set(t *testing.T, sc *Scenario, c *params.Config, name string, v any) {
	t.Helper()
	if err := sc.Set(c, name, v); err != nil {
		t.Fatalf("%s = %v: %v", name, v, err)
	}
}

// TestNewScenarioNamesAndRegisters checks NewScenario's contract: the
// scenario is called NAME@ and the first 12 hex digits of the SHA-256 of
// its source (computed here from crypto/sha256's full digest), LookupScenario
// and FileScenarios find it, a second spec of the same name and source is
// the scenario registered first, another source is another scenario; a spec
// ScenarioOf refuses registers nothing. FileScenarios is sorted by name.
// Kills NewScenario's `err != nil` negated and `old != nil` negated (the
// second spec replaces the first).
func TestNewScenarioNamesAndRegisters(t *testing.T) {
	src := []byte("name = \"reg\"\n[topology]\nkind = \"fattree\"\n")
	sum := sha256.Sum256(src)
	want := fmt.Sprintf("reg@%x", sum)[:len("reg@")+12]
	first, err := NewScenario(ScenarioSpec{Name: "reg", Description: "first", Topology: "fattree", Source: src})
	if err != nil {
		t.Fatal(err)
	}
	if first.Name != want || first.Description != "first" {
		t.Fatalf("name %q, description %q; want %q, first", first.Name, first.Description, want)
	}
	again, err := NewScenario(ScenarioSpec{Name: "reg", Description: "second", Topology: "fattree", Source: src})
	if err != nil || again != first {
		t.Fatalf("the same name and source again: %v, %v; want the first scenario", again, err)
	}
	other, err := NewScenario(ScenarioSpec{Name: "reg", Topology: "fattree", Source: append(src, '\n')})
	if err != nil || other == first || other.Name == first.Name || !strings.HasPrefix(other.Name, "reg@") {
		t.Fatalf("another source: %v, %v; want another scenario", other, err)
	}
	if LookupScenario(want) != first || LookupScenario(other.Name) != other {
		t.Error("LookupScenario does not find the registered scenarios")
	}
	before := FileScenarios()
	bad, err := NewScenario(ScenarioSpec{Name: "bad", Defaults: map[string]string{"no_such_param": "1"}, Source: src})
	if bad != nil || !errors.Is(err, params.ErrUnknownParam) {
		t.Fatalf("unknown default: %v, %v; want nil and ErrUnknownParam", bad, err)
	}
	after := FileScenarios()
	if !slices.Equal(before, after) {
		t.Errorf("a refused spec changed the registered scenarios: %d, then %d", len(before), len(after))
	}
	var names []string
	for _, sc := range after {
		names = append(names, sc.Name)
		if LookupScenario(sc.Name) != sc {
			t.Errorf("FileScenarios lists %s, LookupScenario does not find it", sc.Name)
		}
	}
	if !slices.IsSorted(names) || !slices.Contains(names, first.Name) || !slices.Contains(names, other.Name) {
		t.Errorf("FileScenarios: %v, want sorted, with %s and %s", names, first.Name, other.Name)
	}
}

// TestScenarioParamsOfAFileScenario checks ScenarioParams against
// docs/scenarios.md: a fat tree's k and levels (a clos's leaves, spines and
// hosts_per_leaf unless a preset fixes them; a mesh's or torus's
// hosts_per_router), lmc, routing, roots, adaptive, every traffic field as
// NAME.field, a bare load, hotspot_fraction, hot_nodes, senders and burst
// for the fields a traffic gives, sorted by name; none for a scenario
// written as Go code. Param finds each, and model parameters too.
// Kills the bare names' conditions (`ts.Load > 0` and `ts.HotNodes > 0` to
// `>=`, `ts.Pattern == "hotspot"` and `ts.Arrival == "onoff"` negated),
// `t.Preset == ""` negated, Param's two `p != nil` negated and
// ScenarioParams listing a parameter twice.
func TestScenarioParamsOfAFileScenario(t *testing.T) {
	traffic := []TrafficSpec{
		{Name: "hot", Pattern: "hotspot", Arrival: "onoff", Load: 0.3, HotNodes: 2},
		{Name: "in", Pattern: "incast", Arrival: "saturate"},
	}
	qualified := func(name string) []string {
		var out []string
		for _, f := range []string{"burst", "hot_nodes", "hotspot_fraction", "load", "message_size", "senders", "start_phase"} {
			out = append(out, name+"."+f)
		}
		return out
	}
	routing := []string{"adaptive", "lmc", "roots", "routing"}
	for _, tc := range []struct {
		name string
		spec ScenarioSpec
		want []string
	}{
		{"fattree", ScenarioSpec{Topology: "fattree", Traffic: traffic}, slices.Concat(routing, []string{"k", "levels"},
			[]string{"burst", "hot_nodes"}, qualified("hot"), []string{"hotspot_fraction"}, qualified("in"), []string{"load", "senders"})},
		{"plain traffic", ScenarioSpec{Topology: "fattree", Traffic: []TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "saturate"}}},
			slices.Concat(routing, []string{"k", "levels"}, qualified("u"))},
		{"clos", ScenarioSpec{Topology: "clos"}, slices.Concat(routing, []string{"hosts_per_leaf", "leaves", "spines"})},
		{"clos preset", ScenarioSpec{Topology: "clos", Topo: fabric.TopoParams{Preset: "648"}}, routing},
		{"torus", ScenarioSpec{Topology: "torus"}, slices.Concat(routing, []string{"hosts_per_router"})},
		{"mesh", ScenarioSpec{Topology: "mesh"}, slices.Concat(routing, []string{"hosts_per_router"})},
		{"ibnetdiscover", ScenarioSpec{Topology: "ibnetdiscover"}, routing},
	} {
		slices.Sort(tc.want)
		sc := fileScenario(t, tc.spec)
		var got []string
		for _, p := range sc.ScenarioParams() {
			got = append(got, p.Name)
			if sc.Param(p.Name) != p {
				t.Errorf("%s: Param(%q) is not ScenarioParams' parameter", tc.name, p.Name)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: parameters %v,\nwant %v", tc.name, got, tc.want)
		}
		if sc.Param("threshold") != params.LookupParam("threshold") || sc.Param("nope") != nil {
			t.Errorf("%s: Param finds no model parameter, or finds one that is not", tc.name)
		}
	}
	if ps := (&Scenario{}).ScenarioParams(); len(ps) != 0 {
		t.Errorf("a scenario written as Go code has parameters %v", ps)
	}
}

// TestGetSetOfAFileScenario checks Get and Set: a scenario parameter's
// default is the file's value, Set changes it in c alone; a model parameter
// goes to the Config's field; a value out of range is a *params.ParamError
// that changes nothing; an unknown name is nil for Get and, for Set, an
// error wrapping ErrUnknownParam that lists the model's parameters and
// then the scenario's.
// Kills Set's `p == nil` negated, `err != nil` negated (a refused value
// stored anyway: a panic), and Get's `p != nil` negated.
func TestGetSetOfAFileScenario(t *testing.T) {
	sc := fileScenario(t, ScenarioSpec{Topology: "fattree", Topo: fabric.TopoParams{K: 4, Levels: 3}})
	c := sc.Config()
	if k, lv := sc.Get(&c, "k"), sc.Get(&c, "levels"); k != 4 || lv != 3 {
		t.Fatalf("defaults k %v, levels %v; want 4, 3", k, lv)
	}
	d := c
	set(t, sc, &c, "k", 8)
	if sc.Get(&c, "k") != 8 || sc.Get(&d, "k") != 4 {
		t.Errorf("k set to 8: %v, and in a copy made before %v; want 8, 4", sc.Get(&c, "k"), sc.Get(&d, "k"))
	}
	if sp := sc.Resolve(&c); sp.Topo.K != 8 || sp.Topo.Levels != 3 {
		t.Errorf("resolved k %d, levels %d; want 8, 3", sp.Topo.K, sp.Topo.Levels)
	}
	set(t, sc, &c, "threshold", 3)
	if c.Get("threshold") != 3 || sc.Get(&c, "threshold") != 3 {
		t.Errorf("threshold set to 3: %v", c.Get("threshold"))
	}
	before := slices.Clone(c.Extras())
	var pe *params.ParamError
	if err := sc.Set(&c, "k", 65); !errors.As(err, &pe) || pe.Name != "k" {
		t.Errorf("k = 65 (past 64): %v, want a *params.ParamError", err)
	}
	if err := sc.Set(&c, "k", "four"); !errors.As(err, &pe) {
		t.Errorf("k = four: %v, want a *params.ParamError", err)
	}
	if !slices.Equal(c.Extras(), before) {
		t.Errorf("refused values changed the extras: %v, was %v", c.Extras(), before)
	}
	if sc.Get(&c, "nope") != nil {
		t.Errorf("Get(nope) = %v, want nil", sc.Get(&c, "nope"))
	}
	err := sc.Set(&c, "nope", 1)
	if !errors.Is(err, params.ErrUnknownParam) {
		t.Fatalf("Set(nope): %v, want ErrUnknownParam", err)
	}
	want := fmt.Sprintf("unknown parameter %q (known: %s, adaptive, k, levels, lmc, roots, routing)", "nope", strings.Join(params.ParamNames(), ", "))
	if err.Error() != want {
		t.Errorf("Set(nope): %v,\nwant %s", err, want)
	}
}

// TestRoutingParameters checks the routing as parameters
// (docs/scenarios.md): routing is one of the engines, and lfts only where
// the file gives tables; an engine replaces the tables (LFTsFile none),
// lfts brings them back; roots are names or GUIDs separated by commas,
// blanks dropped, the file's list by default; adaptive true or false, the
// file's by default; RoutingOptions gives the roots, the compute nodes and
// allow_deadlock, nothing for a scenario written as Go code.
// Kills routingParams' `sp.LFTs != nil` negated (session 11's survivor
// scenfile.go:476:13), the routing's `s.Routing == "lfts"` negated,
// RoutingOptions', LFTsFile's and Adaptive's `sc.spec` tests negated.
func TestRoutingParameters(t *testing.T) {
	tables := []byte("tables")
	withLFTs := fileScenario(t, ScenarioSpec{Topology: "ibnetdiscover", Routing: "lfts", LFTs: tables, LFTsName: "t.dump",
		Roots: []string{"S1", "0x2"}, ComputeNodes: []string{"H1"}, AllowDeadlock: true, Adaptive: true})
	without := fileScenario(t, ScenarioSpec{Topology: "fattree", Routing: "ftree"})
	for _, tc := range []struct {
		name    string
		sc      *Scenario
		choices []string
	}{
		{"tables", withLFTs, append(slices.Clone(fabric.RoutingAlgorithms), "lfts")},
		{"no tables", without, fabric.RoutingAlgorithms},
	} {
		if got := tc.sc.Param("routing").Choices; !slices.Equal(got, tc.choices) {
			t.Errorf("%s: routing choices %v, want %v", tc.name, got, tc.choices)
		}
	}
	c := without.Config()
	if err := without.Set(&c, "routing", "lfts"); err == nil {
		t.Error("routing = lfts accepted where the file gives no tables")
	}
	if name, lfts := without.LFTsFile(&c); name != "" || lfts != nil {
		t.Errorf("no tables: LFTsFile %q, %q", name, lfts)
	}

	c = withLFTs.Config()
	if withLFTs.Get(&c, "routing") != "lfts" || withLFTs.Get(&c, "roots") != "S1,0x2" || withLFTs.Get(&c, "adaptive") != true {
		t.Errorf("defaults routing %v, roots %v, adaptive %v; want lfts, S1,0x2, true",
			withLFTs.Get(&c, "routing"), withLFTs.Get(&c, "roots"), withLFTs.Get(&c, "adaptive"))
	}
	if name, lfts := withLFTs.LFTsFile(&c); name != "t.dump" || string(lfts) != "tables" {
		t.Errorf("LFTsFile %q, %q; want the file's", name, lfts)
	}
	want := fabric.RoutingOptions{Roots: []string{"S1", "0x2"}, ComputeNodes: []string{"H1"}, AllowDeadlock: true}
	if got := withLFTs.RoutingOptions(&c); !reflect.DeepEqual(got, want) {
		t.Errorf("RoutingOptions %+v, want %+v", got, want)
	}
	if !withLFTs.Adaptive(&c) {
		t.Error("Adaptive false, the file says true")
	}
	set(t, withLFTs, &c, "routing", "updn")
	set(t, withLFTs, &c, "roots", " S3 ,, 0x4,")
	set(t, withLFTs, &c, "adaptive", "off")
	if name, lfts := withLFTs.LFTsFile(&c); name != "" || lfts != nil {
		t.Errorf("routing = updn: LFTsFile %q, %q; want none", name, lfts)
	}
	if r := withLFTs.RoutingFor(&c); r != "updn" {
		t.Errorf("routing = updn: RoutingFor %q", r)
	}
	if withLFTs.Get(&c, "roots") != "S3,0x4" {
		t.Errorf("roots %q, want S3,0x4", withLFTs.Get(&c, "roots"))
	}
	want.Roots = []string{"S3", "0x4"}
	if got := withLFTs.RoutingOptions(&c); !reflect.DeepEqual(got, want) {
		t.Errorf("roots set: RoutingOptions %+v, want %+v", got, want)
	}
	if withLFTs.Adaptive(&c) {
		t.Error("adaptive = off: Adaptive true")
	}
	set(t, withLFTs, &c, "routing", "lfts")
	if name, lfts := withLFTs.LFTsFile(&c); name != "t.dump" || string(lfts) != "tables" {
		t.Errorf("routing = lfts again: LFTsFile %q, %q; want the file's", name, lfts)
	}
	c = without.Config()
	set(t, without, &c, "adaptive", true)
	if !without.Adaptive(&c) {
		t.Error("adaptive = on: Adaptive false")
	}

	goCode := &Scenario{Routing: "updn"}
	c = params.DefaultConfig()
	if o := goCode.RoutingOptions(&c); !reflect.DeepEqual(o, fabric.RoutingOptions{}) {
		t.Errorf("Go-code scenario: RoutingOptions %+v", o)
	}
	if name, lfts := goCode.LFTsFile(&c); name != "" || lfts != nil || goCode.Adaptive(&c) {
		t.Errorf("Go-code scenario: LFTsFile %q, %q, Adaptive %v", name, lfts, goCode.Adaptive(&c))
	}
}

// TestSplitRoots checks splitRoots: the names between commas, spaces
// trimmed, blanks dropped; nil for none.
// Kills `r != ""` negated.
func TestSplitRoots(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" , ,", nil},
		{"S1", []string{"S1"}},
		{"S1,0x2", []string{"S1", "0x2"}},
		{"  S1 ,, 0x0002c9030000abcd , leaf 3 ", []string{"S1", "0x0002c9030000abcd", "leaf 3"}},
	} {
		if got := splitRoots(tc.in); !slices.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("splitRoots(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestPerRunAccessors checks LMCFor, FlowsFor, TrafficFor and AppsFor: a
// scenario written as Go code gives its fields; a file scenario its file's
// values under c's parameters (lmc, NAME.field), leaving the scenario's own
// lists as they were.
// Kills each accessor's `sc.spec == nil` negated (a Go-code scenario has no
// spec to resolve: a panic) and LMCFor's resolved value ignored.
func TestPerRunAccessors(t *testing.T) {
	flows := []FlowSpec{{Name: "F1", Src: "H1", Dst: "H2", Role: Victim}}
	traffic := []TrafficSpec{{Name: "bg", Pattern: "uniform", Arrival: "poisson", Load: 0.2}}
	apps := []AppSpec{DefaultApp("pp", "pingpong")}
	goCode := &Scenario{LMC: 2, Flows: flows, Traffic: traffic, Apps: apps}
	c := params.DefaultConfig()
	if tr, err := goCode.TrafficFor(&c); goCode.LMCFor(&c) != 2 || !slices.Equal(goCode.FlowsFor(&c), flows) ||
		err != nil || !slices.EqualFunc(tr, traffic, trafficEqual) || !slices.EqualFunc(goCode.AppsFor(&c), apps, appEqual) {
		t.Errorf("Go-code scenario: lmc %d, flows %v, traffic %v (%v), apps %v", goCode.LMCFor(&c), goCode.FlowsFor(&c), tr, err, goCode.AppsFor(&c))
	}

	sc := fileScenario(t, ScenarioSpec{Topology: "fattree", Phases: 3, LMC: 1, Flows: flows, Traffic: traffic, Apps: apps})
	c = sc.Config()
	if sc.LMCFor(&c) != 1 {
		t.Errorf("lmc %d, want the file's 1", sc.LMCFor(&c))
	}
	set(t, sc, &c, "lmc", 3)
	set(t, sc, &c, "bg.load", 0.7)
	set(t, sc, &c, "pp.size", 4096)
	set(t, sc, &c, "pp.start_phase", 2)
	if err := sc.Set(&c, "lmc", 8); err == nil {
		t.Error("lmc = 8 accepted (0-7)")
	}
	if sc.LMCFor(&c) != 3 {
		t.Errorf("lmc = 3: LMCFor %d", sc.LMCFor(&c))
	}
	if !slices.Equal(sc.FlowsFor(&c), flows) {
		t.Errorf("flows %v, want the file's %v", sc.FlowsFor(&c), flows)
	}
	tr, err := sc.TrafficFor(&c)
	if err != nil || len(tr) != 1 || tr[0].Load != 0.7 || tr[0].Pattern != "uniform" {
		t.Errorf("bg.load = 0.7: traffic %+v, %v", tr, err)
	}
	got := sc.AppsFor(&c)
	if len(got) != 1 || got[0].Size != 4096 || got[0].StartPhase != 2 || got[0].Iterations != 8 {
		t.Errorf("pp.size = 4096, pp.start_phase = 2: apps %+v", got)
	}
	if sc.Traffic[0].Load != 0.2 || sc.Apps[0].Size != 8 || traffic[0].Load != 0.2 || apps[0].Size != 8 {
		t.Errorf("resolving changed the scenario's own lists: load %g, size %d", sc.Traffic[0].Load, sc.Apps[0].Size)
	}
}

func trafficEqual(a, b TrafficSpec) bool { return reflect.DeepEqual(a, b) }
func appEqual(a, b AppSpec) bool         { return reflect.DeepEqual(a, b) }

// TestDefaultPreset checks DefaultPreset: params.DefaultPreset unless the
// scenario's defaults choose another, and choosing it for a run of the
// scenario changes nothing in its Config (the scenario's other defaults
// included, a preset field among them).
// Kills `sc.spec != nil` negated (a panic), `ok` and `err == nil`
// negated.
func TestDefaultPreset(t *testing.T) {
	for _, tc := range []struct {
		name     string
		defaults map[string]string
		want     string
	}{
		{"none", nil, params.DefaultPreset},
		{"others", map[string]string{"cc": "on", "threshold": "3"}, params.DefaultPreset},
		{"ccmgr", map[string]string{"preset": "ccmgr", "threshold": "3"}, "ccmgr"},
		{"opa", map[string]string{"preset": "opa"}, "opa"},
	} {
		sc := fileScenario(t, ScenarioSpec{Topology: "fattree", Defaults: tc.defaults})
		if got := sc.DefaultPreset(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
		c := sc.Config()
		d := c
		set(t, sc, &d, "preset", sc.DefaultPreset())
		if !reflect.DeepEqual(c, d) {
			t.Errorf("%s: choosing %s changed the scenario's configuration", tc.name, sc.DefaultPreset())
		}
	}
	if got := (&Scenario{}).DefaultPreset(); got != params.DefaultPreset {
		t.Errorf("Go-code scenario: %q", got)
	}
	// Not through ScenarioOf, which refuses it: a value that is no preset
	// chooses none.
	if got := (&Scenario{spec: &ScenarioSpec{Defaults: map[string]string{"preset": "nope"}}}).DefaultPreset(); got != params.DefaultPreset {
		t.Errorf("preset nope: %q", got)
	}
}

// TestEveryScenarioParameterSetsItsField checks each parameter of a file
// scenario against the field docs/scenarios.md and docs/apps.md say it
// sets: set alone to a value of its range other than the file's, it
// changes that field of the resolved spec and nothing else; a bare traffic
// name sets the field in every traffic that gives it, and a qualified one
// (NAME.field) wins over the bare one.
// Kills (planted by hand) a setter writing another field (spines to
// leaves, an app's send_overhead to recv_overhead, shm_gbps to
// shm_latency), the bare hot_nodes/senders choice negated, a bare name
// setting only its first traffic, Resolve's passes in the other order or
// with `== qualified` negated, and Resolve not copying the traffic list.
func TestEveryScenarioParameterSetsItsField(t *testing.T) {
	traffic := func() []TrafficSpec {
		return []TrafficSpec{
			{Name: "a", Pattern: "hotspot", Arrival: "onoff", Load: 0.2, HotNodes: 1, Burst: 5 * engine.Microsecond},
			{Name: "b", Pattern: "incast", Arrival: "onoff", Load: 0.3, HotNodes: 2, Burst: 7 * engine.Microsecond},
		}
	}
	base := func(topo string) ScenarioSpec {
		return ScenarioSpec{Topology: topo, Phases: 4, Topo: fabric.TopoParams{K: 4, Levels: 2, Leaves: 3, Spines: 2, HostsPerLeaf: 5, HostsPerRouter: 1, Dims: []int{2, 2}},
			Traffic: traffic(), Apps: []AppSpec{DefaultApp("p", "pingpong")}}
	}
	type change struct {
		param string
		value any
		want  func(sp *ScenarioSpec)
	}
	cases := map[string][]change{
		"fattree": {
			{"k", 6, func(sp *ScenarioSpec) { sp.Topo.K = 6 }},
			{"levels", 3, func(sp *ScenarioSpec) { sp.Topo.Levels = 3 }},
			{"lmc", 2, func(sp *ScenarioSpec) { sp.LMC = 2 }},
			{"a.load", 0.5, func(sp *ScenarioSpec) { sp.Traffic[0].Load = 0.5 }},
			{"b.hotspot_fraction", 0.4, func(sp *ScenarioSpec) { sp.Traffic[1].HotspotFraction = 0.4 }},
			{"a.message_size", 512, func(sp *ScenarioSpec) { sp.Traffic[0].MessageSize = 512 }},
			{"b.hot_nodes", 3, func(sp *ScenarioSpec) { sp.Traffic[1].HotNodes = 3 }},
			{"a.senders", 6, func(sp *ScenarioSpec) { sp.Traffic[0].Senders = 6 }},
			{"b.start_phase", 3, func(sp *ScenarioSpec) { sp.Traffic[1].StartPhase = 3 }},
			{"a.burst", "9us", func(sp *ScenarioSpec) { sp.Traffic[0].Burst = 9 * engine.Microsecond }},
			{"load", 0.6, func(sp *ScenarioSpec) { sp.Traffic[0].Load, sp.Traffic[1].Load = 0.6, 0.6 }},
			{"hotspot_fraction", 0.7, func(sp *ScenarioSpec) { sp.Traffic[0].HotspotFraction = 0.7 }},
			{"hot_nodes", 4, func(sp *ScenarioSpec) { sp.Traffic[0].HotNodes, sp.Traffic[1].HotNodes = 4, 4 }},
			{"senders", 5, func(sp *ScenarioSpec) { sp.Traffic[1].Senders = 5 }},
			{"burst", "11us", func(sp *ScenarioSpec) {
				sp.Traffic[0].Burst, sp.Traffic[1].Burst = 11*engine.Microsecond, 11*engine.Microsecond
			}},
			{"p.size", 64, func(sp *ScenarioSpec) { sp.Apps[0].Size = 64 }},
			{"p.iterations", 3, func(sp *ScenarioSpec) { sp.Apps[0].Iterations = 3 }},
			{"p.ranks", 6, func(sp *ScenarioSpec) { sp.Apps[0].Ranks = 6 }},
			{"p.ranks_per_host", 2, func(sp *ScenarioSpec) { sp.Apps[0].RanksPerHost = 2 }},
			{"p.patterns", 10, func(sp *ScenarioSpec) { sp.Apps[0].Patterns = 10 }},
			{"p.root", 1, func(sp *ScenarioSpec) { sp.Apps[0].Root = 1 }},
			{"p.start_phase", 2, func(sp *ScenarioSpec) { sp.Apps[0].StartPhase = 2 }},
			{"p.compute", "3us", func(sp *ScenarioSpec) { sp.Apps[0].Compute = 3 * engine.Microsecond }},
			{"p.send_overhead", "1us", func(sp *ScenarioSpec) { sp.Apps[0].SendOverhead = engine.Microsecond }},
			{"p.recv_overhead", "2us", func(sp *ScenarioSpec) { sp.Apps[0].RecvOverhead = 2 * engine.Microsecond }},
			{"p.shm_latency", "4us", func(sp *ScenarioSpec) { sp.Apps[0].SHMLatency = 4 * engine.Microsecond }},
			{"p.shm_gbps", 80.0, func(sp *ScenarioSpec) { sp.Apps[0].SHMGbps = 80 }},
		},
		"clos": {
			{"leaves", 7, func(sp *ScenarioSpec) { sp.Topo.Leaves = 7 }},
			{"spines", 8, func(sp *ScenarioSpec) { sp.Topo.Spines = 8 }},
			{"hosts_per_leaf", 9, func(sp *ScenarioSpec) { sp.Topo.HostsPerLeaf = 9 }},
		},
		"mesh":  {{"hosts_per_router", 3, func(sp *ScenarioSpec) { sp.Topo.HostsPerRouter = 3 }}},
		"torus": {{"hosts_per_router", 2, func(sp *ScenarioSpec) { sp.Topo.HostsPerRouter = 2 }}},
	}
	for topo, changes := range cases {
		sc := fileScenario(t, base(topo))
		for _, ch := range changes {
			c := sc.Config()
			set(t, sc, &c, ch.param, ch.value)
			want := base(topo)
			ch.want(&want)
			if got := sc.Resolve(&c); !reflect.DeepEqual(*got, want) {
				t.Errorf("%s: %s = %v: resolved\n%+v,\nwant\n%+v", topo, ch.param, ch.value, *got, want)
			}
		}
		if !reflect.DeepEqual(*sc.Resolve(new(params.Config)), base(topo)) {
			t.Errorf("%s: the scenario's own spec changed", topo)
		}
	}
	// The qualified name wins over the bare one, in either order.
	sc := fileScenario(t, base("fattree"))
	for _, order := range [][]string{{"load", "a.load"}, {"a.load", "load"}} {
		c := sc.Config()
		for _, name := range order {
			set(t, sc, &c, name, map[string]float64{"load": 0.9, "a.load": 0.1}[name])
		}
		if tr := sc.Resolve(&c).Traffic; tr[0].Load != 0.1 || tr[1].Load != 0.9 {
			t.Errorf("set %v: loads %g, %g; want 0.1 (a.load), 0.9 (load)", order, tr[0].Load, tr[1].Load)
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

// TestMutHPCCContributorsParameter checks testbed-hpcc's own parameter
// against docs/apps.md: contributors, 0 to 4, default 4, keeps that many of
// F2-F5 in order (0: the uncongested baseline); it is listed among the
// scenario's parameters beside those its spec gives, in name order.
// Kills scenfile.go's `len(spec.own) > 0` negated (the built-in's own
// parameters dropped; LIVED in session 12's second sample, seed 44),
// the own setter keeping the last n flows, and the merged list sorted in
// reverse.
func TestMutHPCCContributorsParameter(t *testing.T) {
	sc := LookupScenario("testbed-hpcc")
	if sc == nil {
		t.Fatal("no scenario testbed-hpcc")
	}
	var names []string
	for _, p := range sc.ScenarioParams() {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, "contributors") || !slices.IsSorted(names) {
		t.Fatalf("parameters %v: want contributors among them, sorted", names)
	}
	p := sc.Param("contributors")
	if p == nil || p.Min != 0 || p.Max != 4 {
		t.Fatalf("contributors: %+v, want a parameter from 0 to 4", p)
	}
	c := sc.Config()
	if v := sc.Get(&c, "contributors"); v != 4 {
		t.Errorf("contributors' default %v, want 4", v)
	}
	all := []string{"F2", "F3", "F4", "F5"}
	for n := 0; n <= 4; n++ {
		set(t, sc, &c, "contributors", n)
		var got []string
		for _, f := range sc.FlowsFor(&c) {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, all[:n]) {
			t.Errorf("contributors = %d: flows %v, want %v", n, got, all[:n])
		}
	}
	if err := sc.Set(&c, "contributors", 5); err == nil {
		t.Error("contributors = 5 accepted (0-4)")
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
