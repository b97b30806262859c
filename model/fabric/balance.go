package fabric

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FabricInfo describes a scenario's fabric as its routing leaves it: what
// `ccsweep fabric` prints. Build one with InspectFabric or InspectScenario.
type FabricInfo struct {
	Hosts, Switches int
	// Links counts the links by data rate, ascending.
	Links []LinkRate
	// Levels is the highest Level of a switch: a tree's number of switch
	// levels; 0 where the topology has none (meshes, imported fabrics).
	Levels int
	// Routing is the routing algorithm, LMC its LIDs per host (2^LMC).
	Routing string
	LMC     int
	// Roots are the switches the routing climbs to: updn's roots, ftree's
	// top level; empty for minhop and dor.
	Roots []string
	// VLsNeeded is the number of VLs the routing's service levels need
	// (1 for minhop, updn and ftree, which give every path SL 0); VLs is
	// the number the scenario has, which the deadlock check uses.
	VLsNeeded, VLs int
	// Deadlock is empty where no VL's channel dependency graph has a cycle,
	// else the cycle the check found.
	Deadlock string
	// Balance is the all-to-all path balance.
	Balance Balance
	// Compared, where set (CompareTables), is how far these tables are
	// from a routing engine's on the same fabric.
	Compared *TablesCompared

	f      *Fabric
	routes *Routes
}

// TablesCompared counts the forwarding-table entries that differ between
// two routings of one fabric (FabricInfo.CompareTables): Engine is the
// other routing's name, Entries the entries compared (every switch but
// aggregation nodes, which have no tables in a subnet manager's dump, and
// every host's LIDs: path 0 alone where the two LMCs differ), Differ those
// that name different ports.
type TablesCompared struct {
	Engine          string
	Differ, Entries int
	// BaseLIDsOnly: the two routings give hosts different numbers of LIDs.
	BaseLIDsOnly bool
}

// CompareTables sets fi.Compared to the entries of fi's tables that differ
// from other's, a routing of the same fabric (such as the scenario's
// engine beside a subnet manager's dump); it is an error where the two
// fabrics differ in size.
func (fi *FabricInfo) CompareTables(other *FabricInfo) error {
	if len(fi.f.sws) != len(other.f.sws) || len(fi.f.hosts) != len(other.f.hosts) {
		return fmt.Errorf("the fabrics differ: %d switches and %d hosts against %d and %d",
			len(fi.f.sws), len(fi.f.hosts), len(other.f.sws), len(other.f.hosts))
	}
	c := &TablesCompared{Engine: other.Routing, BaseLIDsOnly: fi.routes.LMC != other.routes.LMC}
	c.Differ, c.Entries, _, _ = fi.f.differingEntries(fi.routes, other.routes)
	fi.Compared = c
	return nil
}

// differingEntries counts the entries of a and b, every switch but
// aggregation nodes (which have no tables in a subnet manager's dump) and
// every LID of every host (path 0 alone where the LMCs differ), that name
// different ports; it returns the count, the number of entries and the
// first that differs (switch, and a's LID; -1, -1 for none).
func (f *Fabric) differingEntries(a, b *Routes) (n, of, firstSw, firstLID int) {
	firstSw, firstLID = -1, -1
	paths := 1
	if a.LMC == b.LMC {
		paths = 1 << a.LMC
	}
	for s, node := range f.sws {
		if f.t.Nodes[node].Adapter {
			continue
		}
		for g := range f.hosts {
			for p := range paths {
				of++
				if a.port(int32(s), int32(a.LID(g, p))) != b.port(int32(s), int32(b.LID(g, p))) {
					if n == 0 {
						firstSw, firstLID = s, a.LID(g, p)
					}
					n++
				}
			}
		}
	}
	return n, of, firstSw, firstLID
}

// Topology returns the fabric described.
func (fi *FabricInfo) Topology() *Topology { return fi.f.t }

// LinkRate is the number of links of one data rate: host links (a host to
// anything) and switch links (switch to switch).
type LinkRate struct {
	Gbps                   float64
	HostLinks, SwitchLinks int
}

// Balance counts the routes crossing each directed link out of a switch
// (switch to switch and switch to host) when every host port sends to
// every other host port on its base LID (path 0), pairs of ports of one
// adapter excepted. Links is the number of such directed links; Max, Mean
// and P99 (nearest rank) are over all of them, idle ones included. A
// switch's link to a host carries a route from every other host, so Max is
// at least hosts - 1; SwitchMax and SwitchMean are over the SwitchLinks
// directed links between switches alone, the figure routing engines differ
// in (OpenSM's 630 on the 648-port Clos).
type Balance struct {
	Links       int
	Max, P99    int64
	Mean        float64
	SwitchLinks int
	SwitchMax   int64
	SwitchMean  float64
	perPort     []int64 // routes out of each global port; 0 for a host's
	linkPorts   []int32 // the global ports counted
}

// InspectFabric routes t with the named algorithm and 2^lmc LIDs per host
// and describes the result. Unlike ComputeRoutes it reports a channel cycle
// on vls VLs in FabricInfo.Deadlock instead of refusing it, and dor is
// routed with as many VLs as it needs (FabricInfo.VLsNeeded) whatever vls
// is. Its errors wrap ErrBadScenario: an unknown algorithm, a topology the
// algorithm does not route, a host that does not reach another.
func InspectFabric(t *Topology, algorithm string, lmc, vls int) (*FabricInfo, error) {
	return InspectFabricWith(t, algorithm, lmc, vls, RoutingOptions{})
}

// InspectFabricWith is InspectFabric with routing options (roots, compute
// nodes; ComputeRoutesWith).
func InspectFabricWith(t *Topology, algorithm string, lmc, vls int, opts RoutingOptions) (*FabricInfo, error) {
	f, err := prepareFabric(t, algorithm, lmc, vls, opts)
	if err != nil {
		return nil, err
	}
	r, roots, err := f.route(algorithm, lmc, MaxVLs)
	if err != nil {
		return nil, fmt.Errorf("%w: routing %s: %w", ErrBadScenario, algorithm, err)
	}
	return describeFabric(f, r, algorithm, roots, vls)
}

// describeFabric describes f routed by r (InspectFabric).
func describeFabric(f *Fabric, r *Routes, algorithm string, roots []int32, vls int) (*FabricInfo, error) {
	t := f.t
	info := &FabricInfo{Hosts: len(f.hosts), Switches: len(f.sws), Routing: algorithm, LMC: r.LMC,
		VLsNeeded: 1, VLs: vls, f: f, routes: r}
	for _, l := range t.Links {
		i, found := slices.BinarySearchFunc(info.Links, l.Gbps, func(lr LinkRate, g float64) int { return cmp.Compare(lr.Gbps, g) })
		if !found {
			info.Links = slices.Insert(info.Links, i, LinkRate{Gbps: l.Gbps})
		}
		if t.Nodes[l.A].Host || t.Nodes[l.B].Host {
			info.Links[i].HostLinks++
		} else {
			info.Links[i].SwitchLinks++
		}
	}
	for _, n := range f.sws {
		info.Levels = max(info.Levels, t.Nodes[n].Level)
	}
	for _, s := range roots {
		info.Roots = append(info.Roots, t.Nodes[f.sws[s]].Name)
	}
	for _, row := range r.SLs {
		for _, sl := range row {
			info.VLsNeeded = max(info.VLsNeeded, int(sl)+1)
		}
	}
	if err := f.check(r, vls); err != nil {
		var ce *cycleError
		if !errors.As(err, &ce) {
			return nil, fmt.Errorf("%w: routing %s: %w", ErrBadScenario, algorithm, err)
		}
		info.Deadlock = err.Error()
	}
	info.Balance = f.balance(r)
	return info, nil
}

// adapters returns, for every host, the number of its adapter: hosts are
// ports of one adapter when the topology was read from ibnetdiscover and
// their names differ only in the "/PORT" suffix ParseIBNetDiscover gives
// the ports of an adapter with several linked; every other host is an
// adapter of its own.
func (f *Fabric) adapters() []int32 {
	ids := make([]int32, len(f.hosts))
	seen := map[string]int32{}
	for h, n := range f.hosts {
		name := f.t.Nodes[n].Name
		if f.t.Kind == "ibnetdiscover" {
			if i := strings.LastIndexByte(name, '/'); i > 0 {
				if _, err := strconv.Atoi(name[i+1:]); err == nil {
					name = name[:i]
				}
			}
		}
		id, ok := seen[name]
		if !ok {
			id = int32(len(seen))
			seen[name] = id
		}
		ids[h] = id
	}
	return ids
}

// balance counts the all-to-all routes on every directed link out of a
// switch (see Balance). The routes to one LID form a tree (each switch has
// one next hop towards it), so the count on a switch's link towards the
// LID is the number of sources at or below the switch in that tree: one
// depth-first pass over the tree per destination, O(hosts · (switches +
// hosts)) in all, instead of walking every one of the hosts² paths.
func (f *Fabric) balance(r *Routes) Balance {
	nSw := len(f.sws)
	adapter := f.adapters()
	byAdapter := map[int32][]int32{}
	hostsAt := make([]int64, nSw) // hosts attached to each switch
	for h, a := range adapter {
		byAdapter[a] = append(byAdapter[a], int32(h))
		if s := f.attach[h]; s >= 0 {
			hostsAt[s]++
		}
	}
	b := Balance{perPort: make([]int64, len(f.peer))}
	below := make([]int64, nSw) // sources at or below each switch
	child := make([]int32, nSw) // first child in the tree, or -1
	sibling := make([]int32, nSw)
	via := make([]int32, nSw) // the global port a switch leaves by towards the LID
	var stack []int32
	for g := range f.hosts {
		dst := f.attach[g]
		if dst < 0 {
			continue // a host linked to no switch: its routes cross no switch
		}
		lid := g << r.LMC
		copy(below, hostsAt)
		for _, h := range byAdapter[adapter[g]] {
			if s := f.attach[h]; s >= 0 {
				below[s]-- // g itself and the other ports of its adapter send it nothing
			}
		}
		for s := range child {
			child[s] = -1
		}
		for s := range nSw {
			if int32(s) == dst {
				continue
			}
			out := r.LFT[s][lid]
			if out == NoRoute {
				continue
			}
			first, _ := f.ports(int32(s))
			x := f.next(first + out)
			if x < 0 {
				continue
			}
			via[s] = first + out
			sibling[s], child[x] = child[x], int32(s)
		}
		// Post-order from dst over the tree: a switch's count is final once
		// its children are added. Switches whose route never reaches dst
		// (none, where the check passed) are not visited.
		stack = append(stack[:0], dst)
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			if c := child[s]; c >= 0 {
				child[s] = sibling[c] // unlink c: s is revisited after c's subtree
				stack = append(stack, c)
				continue
			}
			stack = stack[:len(stack)-1]
			if s == dst {
				first, _ := f.ports(s)
				b.perPort[first+f.attachPort[g]] += below[s]
				continue
			}
			b.perPort[via[s]] += below[s]
			below[f.next(via[s])] += below[s]
		}
	}
	var total, switchTotal int64
	var counts []int64
	for s := range nSw {
		first, end := f.ports(int32(s))
		for gp := first; gp < end; gp++ {
			if f.peer[gp] < 0 {
				continue
			}
			n := b.perPort[gp]
			b.linkPorts = append(b.linkPorts, gp)
			counts = append(counts, n)
			total += n
			if f.next(gp) >= 0 {
				b.SwitchLinks++
				b.SwitchMax = max(b.SwitchMax, n)
				switchTotal += n
			}
		}
	}
	if b.SwitchLinks > 0 {
		b.SwitchMean = float64(switchTotal) / float64(b.SwitchLinks)
	}
	b.Links = len(counts)
	if b.Links > 0 {
		slices.Sort(counts)
		b.Max = counts[len(counts)-1]
		b.P99 = counts[int(math.Ceil(0.99*float64(len(counts))))-1]
		b.Mean = float64(total) / float64(len(counts))
	}
	return b
}
