package fabric

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
)

// NoRoute marks a forwarding-table entry of a switch that cannot reach the
// destination, or (updn) has no legal route to it. The check of every
// routing follows every route from every host, so no packet ever reads
// such an entry.
const NoRoute = -1

// MaxVLs bounds the data virtual lanes (IB has VL0-VL14 for data).
const MaxVLs = 15

// RoutingAlgorithms are the routing engines ComputeRoutes knows, as a subnet
// manager's routing engines:
//
//   - minhop: shortest paths; among the equal-cost output ports of a switch,
//     the one with the fewest LIDs routed through it so far (ties to the
//     lowest port), LIDs taken in increasing order, as OpenSM's minhop
//     spreads them. Deadlock-free only where the topology makes it so
//     (trees); the check refuses it elsewhere.
//   - updn: up*/down* (routing_updn.go): no path goes down and then up, so
//     it is deadlock-free on any topology; spread like minhop.
//   - ftree: fat trees and folded Clos networks (routing_ftree.go): up to a
//     common ancestor then down, the up port chosen by destination mod k.
//   - dor: dimension-order routing on meshes and tori (routing_dor.go), with
//     a service level per path that keeps each VL free of cycles.
var RoutingAlgorithms = []string{"minhop", "updn", "ftree", "dor"}

// Routes is a fabric's forwarding state as a subnet manager programs it:
// LIDs for every host port, a linear forwarding table per switch and the
// service level each path travels on.
//
// Host h (index into Topology.Hosts) owns the 2^LMC LIDs h<<LMC ..
// h<<LMC + 2^LMC - 1; path p of h is LID h<<LMC | p, and each path of a
// host is routed on a different route where one exists.
type Routes struct {
	LMC int
	// LFT[s][lid] is the switch-local output port (counting from 0) of
	// switch s (index into Topology.Switches) towards lid, or NoRoute;
	// len(LFT[s]) is the number of LIDs, len(Topology.Hosts()) << LMC.
	LFT [][]int32
	// SLs[src][lid], when not nil, is the service level a packet from host
	// src to lid travels on (dor's deadlock-free VL assignment); nil: SL 0.
	SLs [][]uint8
	// DOR, when not nil, computes the service levels (and a run's
	// switches their forwarding) from coordinates, and LFT and SLs are nil
	// (ComputeRunRoutes).
	DOR *DORRouter
	// FTree, when not nil, is ftree's forwarding kept compact, the same
	// as LFT entry for entry (FTreeRouter): a run on a large fabric keeps
	// it instead of tables (then LFT is nil). nil where a list of equal
	// ports is too long to pack (more than 255 ports).
	FTree *FTreeRouter
}

// port returns switch s's local output port towards lid, or NoRoute: its
// table's entry, or what the compact or computed forwarding gives.
func (r *Routes) port(s, lid int32) int32 {
	switch {
	case r.LFT != nil:
		return r.LFT[s][lid]
	case r.FTree != nil:
		return r.FTree.Port(s, lid)
	}
	return r.DOR.Port(s, lid)
}

// LID returns path p's LID of host h.
func (r *Routes) LID(h, p int) int { return h<<r.LMC | p }

// SL returns the service level of packets from host src to lid. A flow of
// service level fsl travels on VL (fsl + SL) mod vls; the check of
// ComputeRoutes covers flows of service level 0 (for minhop, updn and ftree,
// which give every path SL 0, it covers every VL).
func (r *Routes) SL(src, lid int) int {
	switch {
	case r.SLs != nil:
		return int(r.SLs[src][lid])
	case r.DOR != nil:
		return r.DOR.sl(src, lid)
	}
	return 0
}

// ComputeRoutes routes t with the named algorithm (RoutingAlgorithms) and
// 2^lmc LIDs per host (lmc 0 to 7), for vls data VLs, and checks the result:
// every host reaches every LID of every other host by following the
// forwarding tables, and no VL's channel dependency graph has a cycle. Its
// errors wrap ErrBadScenario and name the problem (a pair of hosts that
// cannot reach each other, a topology the algorithm does not route, a cycle
// of channels). The result depends only on its arguments; t is only read,
// so calls may run concurrently.
func ComputeRoutes(t *Topology, algorithm string, lmc, vls int) (*Routes, error) {
	return ComputeRoutesWith(t, algorithm, lmc, vls, RoutingOptions{})
}

// RoutingOptions are what a subnet manager may be told about a fabric
// besides its shape, as OpenSM's root GUID file (-a) and compute node GUID
// file (-u) tell it: the switches updn and ftree take as roots, and the
// hosts ftree ranks switches from. Each entry is a node's name or its GUID
// (Node.GUID) as hex digits with 0x, e.g. "0x0002c90200410a20"; empty:
// found by ranking (see routing_updn.go and routing_ftree.go).
type RoutingOptions struct {
	Roots        []string
	ComputeNodes []string
	// AllowDeadlock keeps a routing whose channel dependencies form a
	// cycle (a routing a cluster runs, such as minhop on a ring), which
	// ComputeRoutes refuses; a run that then deadlocks ends with an error
	// wrapping ErrDeadlock.
	AllowDeadlock bool
}

// prepareFabric checks the routing's settings and t's connectivity and
// returns t's fabric with opts applied, ready to route.
func prepareFabric(t *Topology, algorithm string, lmc, vls int, opts RoutingOptions) (*Fabric, error) {
	if err := checkRouting(algorithm, lmc, vls); err != nil {
		return nil, err
	}
	f := NewFabric(t)
	if err := f.connected(); err != nil {
		return nil, err
	}
	if err := f.setOptions(opts); err != nil {
		return nil, err
	}
	return f, nil
}

// ComputeRoutesWith is ComputeRoutes with routing options (roots and
// compute nodes); a name or GUID that is not a switch (a host for
// ComputeNodes) of t is an error.
func ComputeRoutesWith(t *Topology, algorithm string, lmc, vls int, opts RoutingOptions) (*Routes, error) {
	return ComputeRunRoutes(t, algorithm, lmc, vls, opts, false)
}

// FTreeTablesUpTo is the most forwarding entries (switches × LIDs) for
// which a run's ftree keeps tables, a byte an entry in the run: up to a
// megabyte they stay in the cache, and a lookup is one load, faster than
// the compact form's few (BenchmarkFTreeLookup). Above it a run keeps the
// compact form alone. A variable for tests.
var FTreeTablesUpTo = 1 << 20

// FTreeKeepsTables reports whether a run's ftree on a fabric of switches
// switches and lids LIDs keeps tables (FTreeTablesUpTo).
func FTreeKeepsTables(switches, lids int) bool {
	return int64(switches)*int64(lids) <= int64(FTreeTablesUpTo)
}

// ComputeRunRoutes is ComputeRoutesWith; with computed, dor on a complete
// mesh or torus (DORRouter.complete) returns Routes that compute
// forwarding and service levels from coordinates (Routes.dor), in
// O(switches + hosts) of memory and time instead of switches × LIDs of
// tables and a check that follows every route: the same routes, which the
// construction proves (the same errors too: what complete accepts, the
// tables and the check accept). With computed, ftree on a fabric of more
// than FTreeTablesUpTo forwarding entries returns its compact forwarding
// alone (Routes.FTree, no LFT), checked as tables are.
func ComputeRunRoutes(t *Topology, algorithm string, lmc, vls int, opts RoutingOptions, computed bool) (*Routes, error) {
	f, err := prepareFabric(t, algorithm, lmc, vls, opts)
	if err != nil {
		return nil, err
	}
	f.compactOnly = computed && algorithm == "ftree" && !FTreeKeepsTables(len(f.sws), len(f.hosts)<<lmc)
	if computed && algorithm == "dor" {
		d, err := f.dorSetup(lmc)
		if err == nil && d.need > vls {
			err = f.dorVLError(lmc, d.orders, len(d.dateline), d.need)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: routing %s: %w", ErrBadScenario, algorithm, err)
		}
		if d.complete(f) {
			return &Routes{LMC: lmc, DOR: d}, nil
		}
	}
	r, _, err := f.route(algorithm, lmc, vls)
	if err == nil && f.compactOnly && r.FTree == nil { // lists too long to pack: tables
		f.compactOnly = false
		r, _, err = f.route(algorithm, lmc, vls)
	}
	if err == nil {
		err = f.check(r, vls)
		var ce *cycleError
		if opts.AllowDeadlock && errors.As(err, &ce) {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%w: routing %s: %w", ErrBadScenario, algorithm, err)
	}
	return r, nil
}

// route fills the forwarding tables with the named algorithm, unchecked,
// and returns the switches it took as roots (updn's roots, ftree's top
// level; nil for minhop and dor).
func (f *Fabric) route(algorithm string, lmc, vls int) (r *Routes, roots []int32, err error) {
	switch algorithm {
	case "minhop":
		r = f.minHop(lmc)
	case "updn":
		if f.rootSet != nil {
			r, roots, err = f.upDownGiven(lmc)
		} else {
			r, _, roots = f.upDownRoutes(lmc)
		}
	case "ftree":
		r, roots, err = f.fatTree(lmc)
	case "dor":
		r, err = f.dimensionOrder(lmc, vls)
	}
	return r, roots, err
}

// Fabric is a Topology indexed for routing: every port of every node has a
// global number, node n's ports being base[n] .. base[n]+Ports-1.
type Fabric struct {
	t     *Topology
	hosts []NodeID // host index -> node
	sws   []NodeID // switch index -> node
	sw    []int32  // node -> switch index, or -1 for a host
	host  []int32  // node -> host index, or -1 for a switch
	base  []int32  // node -> its first global port
	owner []NodeID // global port -> its node
	peer  []int32  // global port -> the global port at the other end of its link, or -1
	// compactOnly has ftree keep its compact forwarding alone
	// (Routes.FTree), without tables: a run's routing.
	compactOnly bool
	// attach[h] is the switch index host h hangs off, or -1 where its
	// port leads nowhere or to another host; attachPort[h] is that
	// switch's local port to h.
	attach, attachPort []int32
	// rootSet are the switches RoutingOptions.Roots names, nil where the
	// routing finds its roots; compute marks the hosts of
	// RoutingOptions.ComputeNodes, nil for every host.
	rootSet []int32
	compute []bool
}

// setOptions resolves opts' names and GUIDs into f.rootSet and f.compute.
func (f *Fabric) setOptions(opts RoutingOptions) error {
	find := func(what, key string, host bool) (NodeID, error) {
		for i, n := range f.t.Nodes {
			if n.Host != host || n.Name != key && (n.GUID == 0 || !strings.EqualFold(key, fmt.Sprintf("0x%016x", n.GUID)) &&
				!strings.EqualFold(key, fmt.Sprintf("0x%x", n.GUID))) {
				continue
			}
			return NodeID(i), nil
		}
		kind := map[bool]string{true: "host", false: "switch"}[host]
		return -1, fmt.Errorf("%w: %s %q: no %s of the fabric has that name or GUID", ErrBadScenario, what, key, kind)
	}
	f.rootSet, f.compute = nil, nil
	for _, k := range opts.Roots {
		n, err := find("root", k, false)
		if err != nil {
			return err
		}
		if !slices.Contains(f.rootSet, f.sw[n]) {
			f.rootSet = append(f.rootSet, f.sw[n])
		}
	}
	slices.Sort(f.rootSet)
	if len(opts.ComputeNodes) > 0 {
		f.compute = make([]bool, len(f.hosts))
		for _, k := range opts.ComputeNodes {
			n, err := find("compute node", k, true)
			if err != nil {
				return err
			}
			f.compute[f.host[n]] = true
		}
	}
	return nil
}

// NewFabric indexes t for routing.
func NewFabric(t *Topology) *Fabric {
	f := &Fabric{t: t, hosts: t.Hosts(), sws: t.Switches(),
		sw: make([]int32, len(t.Nodes)), host: make([]int32, len(t.Nodes)), base: make([]int32, len(t.Nodes)+1)}
	for i := range t.Nodes {
		f.sw[i], f.host[i] = -1, -1
	}
	for i, n := range f.hosts {
		f.host[n] = int32(i)
	}
	for i, n := range f.sws {
		f.sw[n] = int32(i)
	}
	for i, nd := range t.Nodes {
		f.base[i+1] = f.base[i] + int32(nd.Ports)
	}
	nPorts := f.base[len(t.Nodes)]
	f.owner = make([]NodeID, nPorts)
	f.peer = make([]int32, nPorts)
	for i, nd := range t.Nodes {
		for p := range nd.Ports {
			f.owner[f.base[i]+int32(p)] = NodeID(i)
		}
	}
	for i := range f.peer {
		f.peer[i] = -1
	}
	for _, l := range t.Links {
		a, b := f.base[l.A]+int32(l.APort), f.base[l.B]+int32(l.BPort)
		f.peer[a], f.peer[b] = b, a
	}
	f.attach = make([]int32, len(f.hosts))
	f.attachPort = make([]int32, len(f.hosts))
	for h, n := range f.hosts {
		f.attach[h], f.attachPort[h] = -1, -1
		if pp := f.peer[f.base[n]]; pp >= 0 && f.sw[f.owner[pp]] >= 0 {
			f.attach[h] = f.sw[f.owner[pp]]
			f.attachPort[h] = pp - f.base[f.owner[pp]]
		}
	}
	return f
}

// ports returns the global port numbers of switch s.
func (f *Fabric) ports(s int32) (first, end int32) {
	n := f.sws[s]
	return f.base[n], f.base[n+1]
}

// next returns the switch at the other end of global port gp, or -1 where
// the port leads to a host or nowhere.
func (f *Fabric) next(gp int32) int32 {
	if p := f.peer[gp]; p >= 0 {
		return f.sw[f.owner[p]]
	}
	return -1
}

// connected refuses a topology where some host cannot reach another. Hosts
// do not forward, and have one port each, so two hosts reach each other
// exactly when they are in one connected component.
func (f *Fabric) connected() error {
	comp := f.components()
	for i := 1; i < len(f.hosts); i++ {
		if comp[f.hosts[i]] != comp[f.hosts[0]] {
			return fmt.Errorf("%w: host %s cannot reach host %s: the topology is not connected",
				ErrBadScenario, f.t.Nodes[f.hosts[0]].Name, f.t.Nodes[f.hosts[i]].Name)
		}
	}
	return nil
}

// components labels every node with the lowest node of its connected
// component.
func (f *Fabric) components() []NodeID {
	comp := make([]NodeID, len(f.t.Nodes))
	for i := range comp {
		comp[i] = NodeID(i)
	}
	find := func(n NodeID) NodeID {
		for comp[n] != n {
			comp[n] = comp[comp[n]]
			n = comp[n]
		}
		return n
	}
	for _, l := range f.t.Links {
		a, b := find(l.A), find(l.B)
		if a > b {
			a, b = b, a
		}
		comp[b] = a
	}
	for i := range comp {
		comp[i] = find(NodeID(i))
	}
	return comp
}

// newRoutes returns Routes for 2^lmc LIDs per host with every entry NoRoute.
func (f *Fabric) newRoutes(lmc int) *Routes {
	r := &Routes{LMC: lmc, LFT: make([][]int32, len(f.sws))}
	for s := range r.LFT {
		r.LFT[s] = make([]int32, len(f.hosts)<<lmc)
		for i := range r.LFT[s] {
			r.LFT[s][i] = NoRoute
		}
	}
	return r
}

// candidates are, for every switch, the local output ports a routing engine
// may take towards one destination switch: ports[start[s]:start[s+1]].
type candidates struct {
	start []int32
	ports []int32
}

func (c *candidates) reset() {
	c.start = append(c.start[:0], 0)
	c.ports = c.ports[:0]
}

// add appends port p to the candidates of the switch being listed.
func (c *candidates) add(p int32) { c.ports = append(c.ports, p) }

// done closes the list of the switch being listed.
func (c *candidates) done() { c.start = append(c.start, int32(len(c.ports))) }

// of returns switch s's candidate ports.
func (c *candidates) of(s int32) []int32 { return c.ports[c.start[s]:c.start[s+1]] }

// spreadRoutes fills the forwarding tables of minhop and updn as OpenSM's
// unicast manager does (ucast_mgr_process_tbl and osm_switch_recommend_path
// in OpenSM 3.3): path p of every end port, in OpenSM's order of them
// (routingOrder), before path p+1 of any, and at every switch the candidate port that cands lists
// towards the destination host's switch with the fewest LIDs routed out of
// it so far, the first such in port order. Where lmc > 0, path p > 0 scans
// the ports from the one after path p-1's, takes a port to a switch that
// no earlier path of the host leaves to from this switch where there is
// one (the fewest LIDs among those), and else, among the ports of the
// fewest LIDs, the one to the switch the host's earlier paths leave to
// least often; so a host's LIDs leave by different neighbours where there
// are several: a neighbour of another system (Node.SysGUID: a director
// switch's chassis) before another neighbour of the same system.
func (f *Fabric) spreadRoutes(lmc int, cands func(dst int32, c *candidates)) *Routes {
	r := f.newRoutes(lmc)
	load := make([]int32, len(f.peer)) // LIDs routed out of a port, by global port
	sc := &spreadScratch{sys: f.systems(), next: make([]int32, len(f.peer)),
		stamp: make([]int32, len(f.sws)), uses: make([]int32, len(f.sws)), sysStamp: make([]int32, len(f.sws))}
	for gp := range sc.next {
		sc.next[gp] = f.next(int32(gp))
	}
	order, adapters := f.routingOrder()
	// An aggregation node's LIDs have no entries in r, but weigh on the
	// ports as a host's do; adapterLFT keeps their entries for recommend.
	paths := 1 << lmc
	adapterLFT := make([]int32, adapters*len(f.sws)*paths)
	var c candidates
	for p := range paths {
		cached := int32(-1)
		for _, e := range order {
			if e.sw != cached {
				cands(e.sw, &c)
				cached = e.sw
			}
			for s := range f.sws {
				var entries []int32 // the end port's paths at switch s
				if e.host >= 0 {
					i := int(e.host) << lmc
					entries = r.LFT[s][i : i+paths]
				} else {
					i := (int(e.adapter)*len(f.sws) + s) * paths
					entries = adapterLFT[i : i+paths]
				}
				if int32(s) == e.sw {
					entries[p] = e.port
					continue
				}
				first, _ := f.ports(int32(s))
				best := f.recommend(entries[:p], c.of(int32(s)), first, load, sc)
				if best != NoRoute {
					load[first+best]++
				}
				entries[p] = best
			}
		}
	}
	return r
}

// endPort is a port OpenSM routes LIDs to: host (an index of f.hosts), or
// else adapter (a number of an aggregation node, from 0), on port port of
// switch sw.
type endPort struct {
	host, adapter, sw, port int32
}

// routingOrder returns the end ports linked to switches, hosts and
// aggregation nodes (adapters in OpenSM, which routes their LIDs too), in
// the order OpenSM's unicast manager routes their LIDs
// (sort_ports_by_switch_load in osm_ucast_mgr.c): switch by switch, those
// with more end ports first and among equals in the order of OpenSM's
// switch table (by node GUID, Node.GUID where every switch has one, as
// below), and on a switch by port; and the number of aggregation nodes.
func (f *Fabric) routingOrder() ([]endPort, int) {
	ends, adapters := f.endPorts()
	count := make([]int32, len(f.sws)) // end ports linked to a switch
	for _, e := range ends {
		count[e.sw]++
	}
	sws := make([]int32, len(f.sws))
	for s := range sws {
		sws[s] = int32(s)
	}
	// OpenSM keys its switch table by the GUID in network byte order and
	// compares keys as integers: on a little-endian machine, the order of
	// the byte-reversed GUIDs. Without GUIDs (a generated fabric) a switch
	// has the one ibsim gives it: a base (low two bytes zero) plus its
	// place among the switches of the net file (WriteIBSimNet).
	key := make([]uint64, len(f.sws))
	guids, next := true, uint64(0)
	for s, n := range f.sws {
		if !f.t.Nodes[n].Adapter {
			key[s], next = next, next+1
			guids = guids && f.t.Nodes[n].GUID != 0
		}
	}
	for s, n := range f.sws {
		if guids {
			key[s] = f.t.Nodes[n].GUID
		}
		key[s] = bits.ReverseBytes64(key[s])
	}
	slices.SortStableFunc(sws, func(a, b int32) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(key[a], key[b]))
	})
	rank := make([]int32, len(f.sws))
	for i, s := range sws {
		rank[s] = int32(i)
	}
	slices.SortFunc(ends, func(a, b endPort) int {
		return cmp.Or(cmp.Compare(rank[a.sw], rank[b.sw]), cmp.Compare(a.port, b.port))
	})
	return ends, adapters
}

// systems numbers the switches' systems: switches that share a system
// image GUID (Node.SysGUID) share a number, and a switch without one has
// a number of its own.
func (f *Fabric) systems() []int32 {
	sys := make([]int32, len(f.sws))
	ids := map[uint64]int32{}
	for s, n := range f.sws {
		g := f.t.Nodes[n].SysGUID
		id, ok := ids[g]
		if g == 0 || !ok {
			id = int32(s)
			if g != 0 {
				ids[g] = id
			}
		}
		sys[s] = id
	}
	return sys
}

// spreadScratch is recommend's: sys numbers the switches' systems
// (systems), next is f.next by global port; uses[x] counts the earlier
// paths to switch x where stamp[x] is the current entry's, and sysStamp[y]
// marks system y used.
type spreadScratch struct {
	sys, next, stamp, uses, sysStamp []int32
	entry                            int32
}

// recommend is spreadRoutes' choice at one switch, whose first port is
// global port first, among its candidate ports ports (ascending) for a LID
// whose host's earlier paths this switch forwards on earlier. As osm_switch_recommend_path with LMC:
// a port to a system that no earlier path leaves to if there is one, else
// to a switch none leaves to, each the first in scan order of the fewest
// LIDs; else the first of the fewest LIDs, ties going to the switch the
// earlier paths leave to least often.
func (f *Fabric) recommend(earlier []int32, ports []int32, first int32, load []int32, sc *spreadScratch) int32 {
	start := int32(0) // scan from the port after the previous path's, round
	if len(earlier) > 0 && earlier[len(earlier)-1] != NoRoute {
		start = earlier[len(earlier)-1] + 1
	}
	sc.entry++
	for _, q := range earlier {
		if q == NoRoute {
			continue
		}
		y := sc.next[first+q]
		if sc.stamp[y] != sc.entry {
			sc.stamp[y], sc.uses[y] = sc.entry, 0
		}
		sc.uses[y]++
		sc.sysStamp[sc.sys[y]] = sc.entry
	}
	const none = int32(NoRoute)
	best, otherSys, otherNode := none, none, none
	leastPaths, leastOtherSys, leastOtherNode, leastUses := int32(math.MaxInt32), int32(math.MaxInt32), int32(math.MaxInt32), int32(math.MaxInt32)
	i, _ := slices.BinarySearch(ports, start) // len(ports) past the last: wraps to the first
	for k := range ports {
		pt := ports[(i+k)%len(ports)]
		paths := load[first+pt]
		x := sc.next[first+pt]
		sysUsed := sc.sysStamp[sc.sys[x]] == sc.entry // earlier paths to x's system
		uses := int32(0)                              // earlier paths to x
		if sc.stamp[x] == sc.entry {
			uses = sc.uses[x]
		}
		used := int32(-1) // earlier paths to x where there are any, else -1
		switch {
		case len(earlier) == 0:
		case !sysUsed:
			if paths < leastOtherSys {
				otherSys, leastOtherSys, leastUses = pt, paths, 0
			}
		case uses == 0:
			if paths < leastOtherNode {
				otherNode, leastOtherNode, leastUses = pt, paths, 0
			}
		default:
			used = uses
		}
		switch {
		case paths < leastPaths:
			best, leastPaths = pt, paths
			if used >= 0 && used < leastUses {
				leastUses = used
			}
		case used >= 0 && paths == leastPaths && used < leastUses:
			best, leastUses = pt, used
		}
	}
	switch {
	case otherSys != none:
		return otherSys
	case otherNode != none:
		return otherNode
	}
	return best
}

// RoutesFromLFTs reads t's forwarding tables from text (ReadLFTs) and
// checks them as ComputeRoutes checks an engine's: every host reaches every
// LID of every other host, and no VL's channel dependencies form a cycle.
// The tables' LIDs per host must be the scenario's 2^lmc; allowDeadlock
// keeps tables with a channel cycle.
func RoutesFromLFTs(t *Topology, name string, text []byte, lmc, vls int, allowDeadlock bool) (*Routes, error) {
	r, _, err := ReadLFTs(t, name, bytes.NewReader(text))
	if err != nil {
		return nil, err
	}
	if r.LMC != lmc {
		return nil, &LFTsError{Name: name, Reason: fmt.Sprintf("the tables give every host %d LIDs (lmc %d), the scenario has lmc %d",
			1<<r.LMC, r.LMC, lmc)}
	}
	if err := NewFabric(t).check(r, vls); err != nil {
		var ce *cycleError
		if !allowDeadlock || !errors.As(err, &ce) {
			return nil, &LFTsError{Name: name, Reason: err.Error()}
		}
	}
	return r, nil
}

// LFTsError is forwarding tables a scenario supplies (routing lfts, from
// the file Name) that do not route its topology: a host they leave
// unreachable, a channel cycle, LIDs per host other than the scenario's. It
// wraps ErrBadScenario.
type LFTsError struct{ Name, Reason string }

func (e *LFTsError) Error() string {
	return fmt.Sprintf("%v: routing lfts %s: %s", ErrBadScenario, e.Name, e.Reason)
}

// Unwrap returns ErrBadScenario.
func (e *LFTsError) Unwrap() error { return ErrBadScenario }

// checkRouting refuses an unknown engine, an lmc out of 0..7 or no VL.
func checkRouting(algorithm string, lmc, vls int) error {
	if !slices.Contains(RoutingAlgorithms, algorithm) {
		return fmt.Errorf("%w: unknown routing %q (known: %s)", ErrBadScenario, algorithm, strings.Join(RoutingAlgorithms, ", "))
	}
	if lmc < 0 || lmc > 7 {
		return fmt.Errorf("%w: lmc %d: want 0 to 7", ErrBadScenario, lmc)
	}
	if vls < 1 {
		return fmt.Errorf("%w: %d VLs: want at least 1", ErrBadScenario, vls)
	}
	return nil
}

// PathOf returns the path (LID offset) of lid.
func (r *Routes) PathOf(lid int32) int { return int(lid) & (1<<r.LMC - 1) }

// endPorts returns the end ports linked to switches, in the fabric's order:
// the hosts, then the aggregation nodes (numbered among themselves), and
// how many aggregation nodes there are.
func (f *Fabric) endPorts() ([]endPort, int) {
	var ends []endPort
	for g, s := range f.attach {
		if s >= 0 {
			ends = append(ends, endPort{host: int32(g), adapter: -1, sw: s, port: f.attachPort[g]})
		}
	}
	adapters := 0
	for a, n := range f.sws {
		if !f.t.Nodes[n].Adapter {
			continue
		}
		first, end := f.ports(int32(a))
		for gp := first; gp < end; gp++ {
			if pp := f.peer[gp]; pp >= 0 && f.host[f.owner[pp]] < 0 && !f.t.Nodes[f.owner[pp]].Adapter {
				ends = append(ends, endPort{host: -1, adapter: int32(adapters), sw: f.sw[f.owner[pp]], port: pp - f.base[f.owner[pp]]})
				break // an aggregation node has one linked port
			}
		}
		adapters++
	}
	return ends, adapters
}
