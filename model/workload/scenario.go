package workload

import (
	"sort"

	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
)

// Scenario is a built-in experiment: a topology, its flows and its length in
// phases. The measurement window is the last phase, when every flow is active.
type Scenario struct {
	Name        string
	Description string
	// Phases is the run's length in phases.
	Phases int
	// Build returns the topology for c's link rates.
	Build func(c *params.Config) (*fabric.Topology, error)
	Flows []FlowSpec
	// Routing names the routing algorithm (RoutingAlgorithms); "" is minhop.
	Routing string
	// LMC gives every host port 2^LMC LIDs, each routed on its own path
	// where the topology has one.
	LMC int
	// Traffic is the scenario's generated workload, beside Flows.
	Traffic []TrafficSpec
	// Apps are the scenario's closed-loop applications (app.go).
	Apps []AppSpec
	// Warnings are what reading a file scenario's fabric worked around
	// (ReadIBNetDiscover's warnings: skipped lines, loopback cables, links
	// whose ends disagree), each "FILE:LINE: what" or "FILE: what" with
	// FILE as the scenario names it; sim and run print them on stderr.
	Warnings []string

	spec   *ScenarioSpec // a file scenario's description; nil for a built-in
	params []scenParam   // a file scenario's own parameters, sorted by name
}

// RoutingFor returns the scenario's routing algorithm under c (a file
// scenario's routing is one of its parameters).
func (sc *Scenario) RoutingFor(c *params.Config) string {
	r := sc.Routing
	if sc.spec != nil {
		r = sc.Resolve(c).Routing
	}
	if r == "" {
		return "minhop"
	}
	return r
}

var scenarios = map[string]*Scenario{}

func register(s *Scenario) { scenarios[s.Name] = s }

// LookupScenario returns the built-in scenario called name, or the file
// scenario NewScenario registered under that name, or nil.
func LookupScenario(name string) *Scenario {
	if sc := scenarios[name]; sc != nil {
		return sc
	}
	registry.Lock()
	defer registry.Unlock()
	return registry.files[name]
}

// Scenarios returns the built-in scenarios sorted by name.
func Scenarios() []*Scenario {
	list := make([]*Scenario, 0, len(scenarios))
	for _, s := range scenarios {
		list = append(list, s)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
	return list
}

// ScenarioNames returns the built-in scenarios' names, sorted.
func ScenarioNames() []string {
	var names []string
	for _, s := range Scenarios() {
		names = append(names, s.Name)
	}
	return names
}

// testbed builds the reference testbed of SPEC §3 (Testbed) with host
// links at HostLinkGbps and S1-S2 at SwitchLinkGbps.
func testbed(c *params.Config) (*fabric.Topology, error) {
	return fabric.Testbed(c.HostLinkGbps, c.SwitchLinkGbps), nil
}

func init() {
	register(&Scenario{
		Name: "testbed-s1",
		Description: "reference testbed, victim and hot spot: F1 H1->H4 (victim); " +
			"F2 H2->H5, F3 H3->H5, F4 H6->H5, F5 H7->H5 join one per phase",
		Phases: 5,
		Build:  testbed,
		Flows: []FlowSpec{
			{Name: "F1", Src: "H1", Dst: "H4", Role: Victim, StartPhase: 0},
			{Name: "F2", Src: "H2", Dst: "H5", Role: Contributor, StartPhase: 1},
			{Name: "F3", Src: "H3", Dst: "H5", Role: Contributor, StartPhase: 2},
			{Name: "F4", Src: "H6", Dst: "H5", Role: Contributor, StartPhase: 3},
			{Name: "F5", Src: "H7", Dst: "H5", Role: Contributor, StartPhase: 4},
		},
	})
	register(&Scenario{
		Name: "testbed-s2",
		Description: "reference testbed, no victim, contention on S1-S2: " +
			"F1 H1->H4, F2 H2->H5, F3 H3->H6 join one per phase",
		Phases: 3,
		Build:  testbed,
		Flows: []FlowSpec{
			{Name: "F1", Src: "H1", Dst: "H4", Role: Contributor, StartPhase: 0},
			{Name: "F2", Src: "H2", Dst: "H5", Role: Contributor, StartPhase: 1},
			{Name: "F3", Src: "H3", Dst: "H6", Role: Contributor, StartPhase: 2},
		},
	})
}
