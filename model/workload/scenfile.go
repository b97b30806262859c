package workload

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
)

// ScenarioSpec is a scenario described as data, as a scenario file gives
// it (grids reads the files): a topology, a routing, greedy flows and
// generated traffic, the model parameters it changes, and its length.
type ScenarioSpec struct {
	Name        string
	Description string
	// Phases is the run's length in phases; the last one is the
	// measurement window.
	Phases int
	// Defaults are model parameters (params.Params) the scenario sets, by
	// name, before a grid's or --set's values.
	Defaults map[string]string
	// Topology is the generator (fattree, clos, mesh, torus) or
	// "ibnetdiscover"; Topo its parameters. The link rates come from the
	// run's host_link_gbps and switch_link_gbps unless the clos preset sets
	// them.
	Topology string
	Topo     fabric.TopoParams
	// Fabric is the text of an ibnetdiscover output and FabricName where it
	// came from, for Topology "ibnetdiscover".
	Fabric     []byte
	FabricName string
	Routing    string
	LMC        int
	// LFTs is the text of forwarding tables a subnet manager computed (an
	// opensm-lfts.dump, ibroute or dump_lfts.sh output; ReadLFTs) and
	// LFTsName where it came from: when set, the scenario is routed by
	// them (Routing "lfts") instead of a routing engine.
	LFTs     []byte
	LFTsName string
	// Roots and ComputeNodes are the routing's roots and compute nodes
	// (RoutingOptions): names or GUIDs.
	Roots        []string
	ComputeNodes []string
	// AllowDeadlock runs a routing whose channel dependencies form a
	// cycle (RoutingOptions.AllowDeadlock).
	AllowDeadlock bool
	// Adaptive lets every switch choose each packet's output among the
	// equal-cost ports of its group by output queue occupancy
	// (routing_adaptive.go); false: the forwarding tables alone.
	Adaptive bool
	Flows    []FlowSpec
	Traffic  []TrafficSpec
	Apps     []AppSpec
	// Source is everything the spec was read from (the file and the files
	// it includes); its digest identifies the scenario.
	Source []byte

	own []scenParam // a built-in's parameters beyond those params() finds
}

// scenParam is a parameter of a scenario described by a ScenarioSpec (a file
// scenario, or a built-in one registered by registerSpec): a numeric field
// of its topology, routing or traffic that a grid or --set may change. Its
// value lives in a params.Config (its extras) and reaches the spec when a
// run is built.
type scenParam struct {
	*params.Param
	apply func(sp *ScenarioSpec, v any)
}

// NewScenario makes a scenario of spec, registered so that LookupScenario
// finds it under the name it returns: spec.Name, an '@' and the first 12
// hex digits of the SHA-256 of spec.Source, so that a changed file is a
// different scenario. It checks what it can without a run's parameters.
func NewScenario(spec ScenarioSpec) (*Scenario, error) {
	sum := sha256.Sum256(spec.Source)
	sc, err := ScenarioOf(spec.Name+"@"+hex.EncodeToString(sum[:6]), spec)
	if err != nil {
		return nil, err
	}
	registry.Lock()
	defer registry.Unlock()
	if old := registry.files[sc.Name]; old != nil {
		return old, nil
	}
	registry.files[sc.Name] = sc
	return sc, nil
}

// registerSpec registers a built-in scenario described as data, under its
// own name.
func registerSpec(spec ScenarioSpec) {
	sc, err := ScenarioOf(spec.Name, spec)
	if err != nil {
		panic(fmt.Sprintf("built-in scenario %s: %v", spec.Name, err))
	}
	register(sc)
}

// ScenarioOf makes the scenario called name of spec, unregistered:
// LookupScenario does not find it (NewScenario registers one).
func ScenarioOf(name string, spec ScenarioSpec) (*Scenario, error) {
	sc := &Scenario{
		Name:        name,
		Description: spec.Description,
		Phases:      max(spec.Phases, 1),
		Flows:       spec.Flows,
		Traffic:     spec.Traffic,
		Apps:        spec.Apps,
		Routing:     spec.Routing,
		LMC:         spec.LMC,
		spec:        &spec,
	}
	for name, v := range spec.Defaults {
		p := params.LookupParam(name)
		if p == nil {
			return nil, fmt.Errorf("%w %q", params.ErrUnknownParam, name)
		}
		if _, err := p.Parse(v); err != nil {
			return nil, err
		}
	}
	if spec.Topology == "ibnetdiscover" {
		// An error waits for the build, which reports it with the run's
		// other problems.
		if _, warns, err := fabric.ReadIBNetDiscover(spec.FabricName, bytes.NewReader(spec.Fabric)); err == nil {
			sc.Warnings = warns
		}
	}
	if spec.AllowDeadlock {
		sc.Warnings = append(sc.Warnings, "allow_deadlock = true: the routing runs even where its channel dependencies form a cycle; a run that deadlocks ends with an error")
	}
	sc.params = spec.params()
	if len(spec.own) > 0 {
		sc.params = append(sc.params, spec.own...)
		slices.SortFunc(sc.params, func(a, b scenParam) int { return strings.Compare(a.Name, b.Name) })
	}
	sc.Build = func(c *params.Config) (*fabric.Topology, error) { return sc.Resolve(c).build(c) }
	return sc, nil
}

// FileScenarios returns the registered file scenarios, sorted by name.
func FileScenarios() []*Scenario {
	registry.Lock()
	defer registry.Unlock()
	var list []*Scenario
	for _, name := range slices.Sorted(maps.Keys(registry.files)) {
		list = append(list, registry.files[name])
	}
	return list
}

var registry = struct {
	sync.Mutex
	files map[string]*Scenario
}{files: map[string]*Scenario{}}

// build makes the spec's topology under c's link rates.
func (sp *ScenarioSpec) build(c *params.Config) (*fabric.Topology, error) {
	if sp.Topology == "ibnetdiscover" {
		return fabric.ParseIBNetDiscover(sp.FabricName, sp.Fabric)
	}
	if sp.Topology == "testbed" { // built-ins only
		return testbed(c)
	}
	p := sp.Topo
	p.HostGbps, p.SwitchGbps = c.HostLinkGbps, c.SwitchLinkGbps
	return fabric.GenerateTopology(sp.Topology, p)
}

// RoutingOptions returns the roots and compute nodes the scenario gives
// its routing under c (roots is one of a file scenario's parameters).
func (sc *Scenario) RoutingOptions(c *params.Config) fabric.RoutingOptions {
	if sc.spec == nil {
		return fabric.RoutingOptions{}
	}
	sp := sc.Resolve(c)
	return fabric.RoutingOptions{Roots: sp.Roots, ComputeNodes: sp.ComputeNodes, AllowDeadlock: sp.AllowDeadlock}
}

// LFTsFile returns the forwarding tables the scenario is routed by under
// c, and their file's name; nil where a routing engine routes it (a
// routing parameter naming an engine replaces the file's tables).
func (sc *Scenario) LFTsFile(c *params.Config) (string, []byte) {
	if sc.spec == nil {
		return "", nil
	}
	sp := sc.Resolve(c)
	return sp.LFTsName, sp.LFTs
}

// Adaptive reports whether the scenario's switches route adaptively
// under c (model/fabric's routing_adaptive.go).
func (sc *Scenario) Adaptive(c *params.Config) bool {
	return sc.spec != nil && sc.Resolve(c).Adaptive
}

// Resolve returns the spec with c's values of the scenario's parameters;
// nil for a scenario written as Go code, which has no spec.
func (sc *Scenario) Resolve(c *params.Config) *ScenarioSpec {
	if sc.spec == nil {
		return nil
	}
	sp := *sc.spec
	sp.Traffic = slices.Clone(sp.Traffic)
	sp.Apps = slices.Clone(sp.Apps)
	sp.Topo.Dims = slices.Clone(sp.Topo.Dims)
	// Bare names (load) first, then the ones naming a traffic (hot.load),
	// which are more specific.
	for _, qualified := range []bool{false, true} {
		for _, e := range c.Extras() {
			if p := sc.lookupScenParam(e.Name); p != nil && strings.Contains(e.Name, ".") == qualified {
				p.apply(&sp, e.Value)
			}
		}
	}
	sc2 := sp
	return &sc2
}

// LMCFor returns the scenario's LMC under c: a file scenario's lmc is one of
// its parameters.
func (sc *Scenario) LMCFor(c *params.Config) int {
	if sc.spec == nil {
		return sc.LMC
	}
	return sc.Resolve(c).LMC
}

// FlowsFor returns the scenario's greedy flows under c.
func (sc *Scenario) FlowsFor(c *params.Config) []FlowSpec {
	if sc.spec == nil {
		return sc.Flows
	}
	return sc.Resolve(c).Flows
}

// TrafficFor returns the scenario's generated traffic under c.
func (sc *Scenario) TrafficFor(c *params.Config) ([]TrafficSpec, error) {
	if sc.spec == nil {
		return sc.Traffic, nil
	}
	return sc.Resolve(c).Traffic, nil
}

// AppsFor returns the scenario's apps under c.
func (sc *Scenario) AppsFor(c *params.Config) []AppSpec {
	if sc.spec == nil {
		return sc.Apps
	}
	return sc.Resolve(c).Apps
}

// Param returns the parameter called name for runs of sc: a model
// parameter (params.LookupParam) or one of the scenario's own, or nil.
func (sc *Scenario) Param(name string) *params.Param {
	if p := params.LookupParam(name); p != nil {
		return p
	}
	if p := sc.lookupScenParam(name); p != nil {
		return p.Param
	}
	return nil
}

// ScenarioParams returns the scenario's own parameters (those of its
// ScenarioSpec; none for a scenario written as Go code, like the testbed's),
// sorted by name.
func (sc *Scenario) ScenarioParams() []*params.Param {
	var ps []*params.Param
	for _, p := range sc.params {
		ps = append(ps, p.Param)
	}
	return ps
}

func (sc *Scenario) lookupScenParam(name string) *scenParam {
	i, ok := slices.BinarySearchFunc(sc.params, name, func(p scenParam, name string) int { return strings.Compare(p.Name, name) })
	if !ok {
		return nil
	}
	return &sc.params[i]
}

// Config returns params.DefaultConfig with the scenario's defaults
// applied; an imported fabric's host_io_gbps defaults to 0 (each host at
// its link's rate).
func (sc *Scenario) Config() params.Config {
	c := params.DefaultConfig()
	if sc.spec != nil {
		if sc.spec.Topology == "ibnetdiscover" {
			// An imported fabric's hosts move what their links carry
			// (hostio.go), not the testbed's 13 Gbit/s.
			c.HostIOGbps = 0
		}
		for name, v := range sc.spec.Defaults {
			_ = c.Set(name, v) // checked by ScenarioOf
		}
	}
	return c
}

// DefaultPreset returns the preset of sc's configuration (Config):
// DefaultPreset unless the scenario's defaults choose another. Choosing it
// for a run of sc changes nothing.
func (sc *Scenario) DefaultPreset() string {
	if sc.spec != nil {
		if v, ok := sc.spec.Defaults["preset"]; ok {
			if name, err := params.LookupParam("preset").Parse(v); err == nil {
				return name.(string)
			}
		}
	}
	return params.DefaultPreset
}

// Get returns the value of parameter name (a model parameter or one of
// sc's) in c, or nil if there is none.
func (sc *Scenario) Get(c *params.Config, name string) any {
	if p := sc.Param(name); p != nil {
		return p.Get(c)
	}
	return nil
}

// Set sets parameter name (a model parameter or one of sc's) in c.
func (sc *Scenario) Set(c *params.Config, name string, v any) error {
	p := sc.Param(name)
	if p == nil {
		known := params.ParamNames()
		for _, q := range sc.params {
			known = append(known, q.Name)
		}
		return fmt.Errorf("%w %q (known: %s)", params.ErrUnknownParam, name, strings.Join(known, ", "))
	}
	val, err := p.Parse(v)
	if err != nil {
		return err
	}
	p.Set(c, val)
	return nil
}

// params lists the spec's sweepable fields: the generator's numeric
// parameters, lmc, and each traffic's numeric fields both as NAME.field and,
// for the fields the traffic sets, as a bare field name that sets them in
// every traffic that has them.
func (sp *ScenarioSpec) params() []scenParam {
	var out []scenParam
	intP := func(name, doc string, lo, hi float64, def int, apply func(*ScenarioSpec, int)) {
		p := &params.Param{Name: name, Kind: params.KindInt, Min: lo, Max: hi, Doc: doc}
		params.Extra(p, def)
		out = append(out, scenParam{p, func(s *ScenarioSpec, v any) { apply(s, v.(int)) }})
	}
	floatP := func(name, doc string, lo, hi, def float64, apply func(*ScenarioSpec, float64)) {
		p := &params.Param{Name: name, Kind: params.KindFloat, Min: lo, Max: hi, Doc: doc}
		params.Extra(p, def)
		out = append(out, scenParam{p, func(s *ScenarioSpec, v any) { apply(s, v.(float64)) }})
	}
	durP := func(name, doc string, lo, hi, def engine.Time, apply func(*ScenarioSpec, engine.Time)) {
		p := &params.Param{Name: name, Kind: params.KindDuration, Min: float64(lo), Max: float64(hi), Unit: "time", Doc: doc}
		params.Extra(p, def)
		out = append(out, scenParam{p, func(s *ScenarioSpec, v any) { apply(s, v.(engine.Time)) }})
	}
	t := &sp.Topo
	switch sp.Topology {
	case "fattree":
		intP("k", "fat tree: switch half-radix (k-ary n-tree)", 2, 64, t.K, func(s *ScenarioSpec, v int) { s.Topo.K = v })
		intP("levels", "fat tree: levels of switches", 1, 4, t.Levels, func(s *ScenarioSpec, v int) { s.Topo.Levels = v })
	case "clos":
		if t.Preset == "" {
			intP("leaves", "clos: leaf switches", 1, fabric.MaxSwitchPorts, t.Leaves, func(s *ScenarioSpec, v int) { s.Topo.Leaves = v })
			intP("spines", "clos: spine switches", 1, fabric.MaxSwitchPorts, t.Spines, func(s *ScenarioSpec, v int) { s.Topo.Spines = v })
			intP("hosts_per_leaf", "clos: hosts on each leaf", 1, fabric.MaxSwitchPorts, t.HostsPerLeaf, func(s *ScenarioSpec, v int) { s.Topo.HostsPerLeaf = v })
		}
	case "mesh", "torus":
		intP("hosts_per_router", "mesh/torus: hosts on each router", 1, 64, t.HostsPerRouter, func(s *ScenarioSpec, v int) { s.Topo.HostsPerRouter = v })
	}
	intP("lmc", "LIDs per host port: 2^lmc, each routed on its own path", 0, 7, sp.LMC, func(s *ScenarioSpec, v int) { s.LMC = v })
	out = append(out, sp.routingParams()...)
	// Traffic fields: qualified for every traffic, bare for those set.
	type field struct {
		name string
		set  func(*TrafficSpec) bool
	}
	bare := map[string][]int{}
	for i := range sp.Traffic {
		ts := &sp.Traffic[i]
		q := ts.Name + "."
		i := i
		floatP(q+"load", "offered load per sender, fraction of the host link", 0, 1, ts.Load,
			func(s *ScenarioSpec, v float64) { s.Traffic[i].Load = v })
		floatP(q+"hotspot_fraction", "fraction of hosts or traffic towards the hot nodes", 0, 1, ts.HotspotFraction,
			func(s *ScenarioSpec, v float64) { s.Traffic[i].HotspotFraction = v })
		intP(q+"message_size", "message size in bytes (mean for exponential and uniform)", 1, 1<<30, ts.MessageSize,
			func(s *ScenarioSpec, v int) { s.Traffic[i].MessageSize = v })
		intP(q+"hot_nodes", "number of hot nodes (when hot names none)", 1, 1<<20, ts.HotNodes,
			func(s *ScenarioSpec, v int) { s.Traffic[i].HotNodes = v })
		intP(q+"senders", "incast: number of senders (0: every other host)", 0, 1<<20, ts.Senders,
			func(s *ScenarioSpec, v int) { s.Traffic[i].Senders = v })
		intP(q+"start_phase", "phase at which the traffic starts (before the last phase ends)", 0, float64(max(sp.Phases, 1)-1), ts.StartPhase,
			func(s *ScenarioSpec, v int) { s.Traffic[i].StartPhase = v })
		durP(q+"burst", "onoff: mean burst length", engine.Nanosecond, engine.Second, ts.Burst,
			func(s *ScenarioSpec, v engine.Time) { s.Traffic[i].Burst = v })
		for _, f := range []field{
			{"load", func(ts *TrafficSpec) bool { return ts.Load > 0 }},
			{"hotspot_fraction", func(ts *TrafficSpec) bool { return ts.Pattern == "hotspot" }},
			{"hot_nodes", func(ts *TrafficSpec) bool { return ts.HotNodes > 0 }},
			{"senders", func(ts *TrafficSpec) bool { return ts.Pattern == "incast" }},
			{"burst", func(ts *TrafficSpec) bool { return ts.Arrival == "onoff" }},
		} {
			if f.set(ts) {
				bare[f.name] = append(bare[f.name], i)
			}
		}
	}
	for name, idx := range bare {
		idx := idx
		switch name {
		case "load":
			floatP(name, "offered load per sender of every traffic with a load", 0, 1, sp.Traffic[idx[0]].Load,
				func(s *ScenarioSpec, v float64) {
					for _, i := range idx {
						s.Traffic[i].Load = v
					}
				})
		case "hotspot_fraction":
			floatP(name, "hot-spot fraction of every hotspot traffic", 0, 1, sp.Traffic[idx[0]].HotspotFraction,
				func(s *ScenarioSpec, v float64) {
					for _, i := range idx {
						s.Traffic[i].HotspotFraction = v
					}
				})
		case "hot_nodes", "senders":
			def := sp.Traffic[idx[0]].HotNodes
			if name == "senders" {
				def = sp.Traffic[idx[0]].Senders
			}
			intP(name, "every traffic's "+name, 0, 1<<20, def, func(s *ScenarioSpec, v int) {
				for _, i := range idx {
					if name == "senders" {
						s.Traffic[i].Senders = v
					} else {
						s.Traffic[i].HotNodes = v
					}
				}
			})
		case "burst":
			durP(name, "mean burst length of every onoff traffic", engine.Nanosecond, engine.Second, sp.Traffic[idx[0]].Burst,
				func(s *ScenarioSpec, v engine.Time) {
					for _, i := range idx {
						s.Traffic[i].Burst = v
					}
				})
		}
	}
	out = append(out, sp.appParams()...)
	slices.SortFunc(out, func(a, b scenParam) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// routingParams are the spec's routing as parameters a grid may sweep:
// routing (an engine of RoutingAlgorithms, or "lfts" where the scenario
// gives tables; an engine replaces them), roots (names or GUIDs, comma
// separated; "" finds them by ranking) and adaptive.
func (sp *ScenarioSpec) routingParams() []scenParam {
	choices := slices.Clone(fabric.RoutingAlgorithms)
	if sp.LFTs != nil {
		choices = append(choices, "lfts")
	}
	routing := &params.Param{Name: "routing", Kind: params.KindEnum, Choices: choices,
		Doc: "routing engine: " + strings.Join(choices, ", ")}
	params.Extra(routing, sp.Routing)
	roots := &params.Param{Name: "roots", Kind: params.KindString,
		Doc:   "updn and ftree: root switches, names or 0xGUIDs separated by commas; empty: found by ranking",
		Check: func(v string) (string, error) { return strings.Join(splitRoots(v), ","), nil }}
	params.Extra(roots, strings.Join(sp.Roots, ","))
	adaptive := &params.Param{Name: "adaptive", Kind: params.KindBool,
		Doc: "adaptive routing: each switch sends a packet out of the least occupied equal-cost port of its group"}
	params.Extra(adaptive, sp.Adaptive)
	lfts, lftsName := sp.LFTs, sp.LFTsName
	return []scenParam{
		{routing, func(s *ScenarioSpec, v any) {
			s.Routing = v.(string)
			s.LFTs, s.LFTsName = nil, ""
			if s.Routing == "lfts" {
				s.LFTs, s.LFTsName = lfts, lftsName
			}
		}},
		{roots, func(s *ScenarioSpec, v any) { s.Roots = splitRoots(v.(string)) }},
		{adaptive, func(s *ScenarioSpec, v any) { s.Adaptive = v.(bool) }},
	}
}

// splitRoots splits a roots value at its commas, dropping blanks.
func splitRoots(v string) []string {
	var out []string
	for _, r := range strings.Split(v, ",") {
		if r = strings.TrimSpace(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}
