package workload

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
)

// builtins are the built-in scenarios docs/scenarios.md, docs/apps.md and
// docs/fabrics.md name, sorted.
var builtins = []string{"clos10368-hotspot", "clos648-hotspot", "clos648-uniform", "testbed-hpcc", "testbed-s1", "testbed-s2"}

// TestBuiltinScenariosListedSortedAndFound checks Scenarios and
// ScenarioNames: the built-ins, sorted by name, the names in the same
// order, each found by LookupScenario as the same scenario; an unknown
// name finds nil; a file scenario (NewScenario) is found by
// LookupScenario but is no built-in.
// Kills Scenarios' `<` to `>` (`<=` is equivalent: the names are
// distinct keys of a map), ScenarioNames appending another field, and
// LookupScenario's `sc != nil` negated.
func TestBuiltinScenariosListedSortedAndFound(t *testing.T) {
	file, err := NewScenario(ScenarioSpec{Name: "listed-file", Topology: "fattree", Source: []byte("listed")})
	if err != nil {
		t.Fatal(err)
	}
	for range 5 { // the map's order changes from call to call
		list := Scenarios()
		var got []string
		for _, sc := range list {
			got = append(got, sc.Name)
		}
		if !slices.Equal(got, builtins) {
			t.Fatalf("Scenarios: %v, want %v", got, builtins)
		}
		if names := ScenarioNames(); !slices.Equal(names, builtins) {
			t.Fatalf("ScenarioNames: %v, want %v", names, builtins)
		}
		for _, sc := range list {
			if LookupScenario(sc.Name) != sc {
				t.Fatalf("LookupScenario(%q) is not the scenario Scenarios lists", sc.Name)
			}
		}
	}
	if LookupScenario(file.Name) != file {
		t.Errorf("LookupScenario(%q) does not find the file scenario", file.Name)
	}
	for _, name := range []string{"", "testbed", "testbed-s3", "listed-file", "TESTBED-S1"} {
		if sc := LookupScenario(name); sc != nil {
			t.Errorf("LookupScenario(%q) = %s, want nil", name, sc.Name)
		}
	}
}

// TestTestbedScenarios checks testbed-s1 and testbed-s2 against SPEC §3:
// H1-H3 on S1, H4-H7 on S2, one S1-S2 link; host links at host_link_gbps
// and S1-S2 at switch_link_gbps (set here to values of their own so that a
// swap shows); the flows, their roles and their phases; the run ends one
// phase after the last flow joins; minhop routing, no LMC, no parameters of
// their own.
// Kills testbed's link rates swapped.
func TestTestbedScenarios(t *testing.T) {
	c := params.DefaultConfig()
	c.HostLinkGbps, c.SwitchLinkGbps = 11, 29
	for _, tc := range []struct {
		name  string
		flows []FlowSpec
	}{
		{"testbed-s1", []FlowSpec{
			{Name: "F1", Src: "H1", Dst: "H4", Role: Victim},
			{Name: "F2", Src: "H2", Dst: "H5", Role: Contributor, StartPhase: 1},
			{Name: "F3", Src: "H3", Dst: "H5", Role: Contributor, StartPhase: 2},
			{Name: "F4", Src: "H6", Dst: "H5", Role: Contributor, StartPhase: 3},
			{Name: "F5", Src: "H7", Dst: "H5", Role: Contributor, StartPhase: 4},
		}},
		{"testbed-s2", []FlowSpec{
			{Name: "F1", Src: "H1", Dst: "H4", Role: Contributor},
			{Name: "F2", Src: "H2", Dst: "H5", Role: Contributor, StartPhase: 1},
			{Name: "F3", Src: "H3", Dst: "H6", Role: Contributor, StartPhase: 2},
		}},
	} {
		sc := LookupScenario(tc.name)
		if sc == nil {
			t.Fatalf("no scenario %s", tc.name)
		}
		if !slices.Equal(sc.FlowsFor(&c), tc.flows) {
			t.Errorf("%s: flows %+v, want %+v", tc.name, sc.FlowsFor(&c), tc.flows)
		}
		if want := len(tc.flows); sc.Phases != want {
			t.Errorf("%s: %d phases, want %d", tc.name, sc.Phases, want)
		}
		if r := sc.RoutingFor(&c); r != "minhop" {
			t.Errorf("%s: routing %q, want minhop", tc.name, r)
		}
		if sc.LMCFor(&c) != 0 || len(sc.ScenarioParams()) != 0 {
			t.Errorf("%s: lmc %d, parameters %v; want 0, none", tc.name, sc.LMCFor(&c), sc.ScenarioParams())
		}
		topo, err := sc.Build(&c)
		if err != nil {
			t.Fatal(err)
		}
		switchOf := map[string]string{}
		var s1s2 []float64
		for _, l := range topo.Links {
			a, b := topo.Nodes[l.A], topo.Nodes[l.B]
			switch {
			case a.Host && !b.Host:
				switchOf[a.Name] = b.Name + fmt.Sprint(l.Gbps)
			case b.Host && !a.Host:
				switchOf[b.Name] = a.Name + fmt.Sprint(l.Gbps)
			default:
				s1s2 = append(s1s2, l.Gbps)
			}
		}
		want := map[string]string{"H1": "S111", "H2": "S111", "H3": "S111", "H4": "S211", "H5": "S211", "H6": "S211", "H7": "S211"}
		if fmt.Sprint(switchOf) != fmt.Sprint(want) || !slices.Equal(s1s2, []float64{29}) {
			t.Errorf("%s: hosts on (switch, Gbit/s) %v, switch links %v; want %v and [29]", tc.name, switchOf, s1s2, want)
		}
	}
}

// TestRoutingFor checks RoutingFor: a scenario's routing, minhop when it
// names none; a file scenario's routing parameter, when a configuration
// sets it, over the file's.
// Kills RoutingFor's `sc.spec != nil` negated (a built-in has no spec to
// resolve: a panic; a file scenario's parameter ignored) and `r == ""`
// negated.
func TestRoutingFor(t *testing.T) {
	c := params.DefaultConfig()
	if r := (&Scenario{Routing: "updn"}).RoutingFor(&c); r != "updn" {
		t.Errorf("built-in with routing updn: %q", r)
	}
	if r := (&Scenario{}).RoutingFor(&c); r != "minhop" {
		t.Errorf("built-in without a routing: %q, want minhop", r)
	}
	for _, routing := range []string{"", "ftree"} {
		sc, err := ScenarioOf("r", ScenarioSpec{Topology: "fattree", Routing: routing})
		if err != nil {
			t.Fatal(err)
		}
		want := routing
		if want == "" {
			want = "minhop"
		}
		c := sc.Config()
		if r := sc.RoutingFor(&c); r != want {
			t.Errorf("file routing %q: %q, want %q", routing, r, want)
		}
		if err := sc.Set(&c, "routing", "updn"); err != nil {
			t.Fatal(err)
		}
		if r := sc.RoutingFor(&c); r != "updn" {
			t.Errorf("file routing %q, routing = updn: %q", routing, r)
		}
		sc.Routing = "dor" // the field is not what a file scenario follows
		if err := sc.Set(&c, "routing", "minhop"); err != nil {
			t.Fatal(err)
		}
		if r := sc.RoutingFor(&c); r != "minhop" {
			t.Errorf("file routing %q, routing = minhop: %q", routing, r)
		}
	}
}

// TestScenarioReason: what decides is whether the error wraps
// fabric.ErrBadScenario, not whether its text looks like one: such an error
// gives its text without the leading "bad scenario: "; any other error,
// even with the same text, or nil, gives "" and false.
// Kills `!errors.Is(...)` negated and the prefix's ": " cut short.
func TestScenarioReason(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		reason string
		ok     bool
	}{
		{"wrapped", fmt.Errorf("%w: routing dor: set vls", fabric.ErrBadScenario), "routing dor: set vls", true},
		{"wrapped twice", fmt.Errorf("build: %w", fmt.Errorf("%w: lmc 9: want 0 to 7", fabric.ErrBadScenario)), "build: bad scenario: lmc 9: want 0 to 7", true},
		{"named scenario", fmt.Errorf("%w s@1: traffic bg: too few hosts", fabric.ErrBadScenario), "bad scenario s@1: traffic bg: too few hosts", true},
		{"lfts error", &fabric.LFTsError{Name: "t.dump", Reason: "no route"}, "routing lfts t.dump: no route", true},
		{"the sentinel alone", fabric.ErrBadScenario, "bad scenario", true},
		{"the text without the type", errors.New("bad scenario: routing dor: set vls"), "", false},
		{"another error", fmt.Errorf("%w: mtu", params.ErrUnknownParam), "", false},
		{"nil", nil, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reason, ok := ScenarioReason(tc.err)
			if reason != tc.reason || ok != tc.ok {
				t.Fatalf("ScenarioReason(%v) = %q, %v; want %q, %v", tc.err, reason, ok, tc.reason, tc.ok)
			}
		})
	}
}
