package fabric

import (
	"fmt"
	"slices"
)

// Up*/down* routing.
//
// Roots: first OpenSM's own (minHopRoots: the switches with more than 90 %
// of the end ports at one hop count and no more than 5 % at another),
// where some qualify, none of them linked to another, and they give every
// switch with a host a legal route (since model ib-11). Else, when every
// switch has a Level (a tree's generator set them), the
// roots are all the switches of the highest Level, a tree's top. Otherwise
// (a fabric read from ibnetdiscover) the switches are ranked by their hop
// count from the nearest switch with a host, and the roots are the live
// switches (those hosts reach) of the greatest rank: the spines of a Clos
// or fat tree, found from the adapters as its Levels would give them.
// Where every live switch has a host, or those roots leave some switch
// with a host without a legal route to some destination (see below; a
// switch without hosts that has none is on no route there, as a spine
// that lost its cable to one leaf is on no route to that leaf), the root
// is the one central switch:
// the live switch of least eccentricity (greatest hop count to another
// live switch), ties to the least total hop count to the others, then to
// the lowest switch index.
// Every switch's rank is its hop count from the nearest root, and switches
// are ordered by (rank, switch index): crossing a link towards the earlier
// switch goes up, towards the later one goes down. That order is total, so
// the up links form no cycle, and a path that never goes down and then up
// cannot close a cycle of channel dependencies: up*/down* is deadlock-free
// on any topology.
//
// Paths: for each destination switch, a breadth-first search outwards from
// it labels every switch with the length of its route and whether that
// route goes only down. A switch that can reach the destination going only
// down at its least distance does so (at an equal distance the down-only
// route wins, because switches above may then route through it); any
// other switch goes up to a neighbour one hop closer. A destination-based
// table holds one route per switch, so a switch whose shortest legal route
// goes up cannot also serve as the down-only tail of a longer route from
// above; the search keeps the first, and a route is the shortest legal one
// consistent with the routes of the switches it passes. With one root every
// switch has a route no longer than up to the root and down again; if
// several roots leave some switch with hosts without a route to some
// destination, routing falls back to the central switch. Among a switch's equal routes, ports are spread as
// minhop spreads them (spreadRoutes).

// upDownRoutes routes up*/down* and returns the position of every switch in
// the up*/down* order (a link from s to x goes up when pos[x] < pos[s]) and
// the roots it took.
func (f *Fabric) upDownRoutes(lmc int) (*Routes, []int32, []int32) {
	if len(f.sws) == 0 {
		return f.newRoutes(lmc), nil, nil
	}
	live := f.liveSwitches()
	hosted := make([]bool, len(f.sws))
	for _, s := range f.attach {
		if s >= 0 {
			hosted[s] = true
		}
	}
	for _, roots := range [][]int32{f.minHopRoots(), f.topSwitches(), f.farthestSwitches()} {
		if roots == nil {
			continue
		}
		pos := f.upDownOrder(roots)
		if r, bad := f.upDownWith(pos, hosted, lmc); bad < 0 {
			return r, pos, roots
		}
	}
	roots := []int32{f.centralSwitch(live)}
	pos := f.upDownOrder(roots)
	r, _ := f.upDownWith(pos, live, lmc)
	return r, pos, roots
}

// upDownWith routes up*/down* for the order pos; bad is a switch of need
// that has no legal route to some destination, or -1: for the first host,
// in the fabric's order, that some switch of need has no legal route to,
// the first such switch. A switch's route
// only leads to switches that have one, so where every switch with a host
// has a route every host reaches every other; a switch without hosts that
// has no legal route to a destination is on no route to it, and its entry
// stays NoRoute.
func (f *Fabric) upDownWith(pos []int32, need []bool, lmc int) (r *Routes, bad int32) {
	n := len(f.sws)
	dist := make([]int32, n)
	down := make([]bool, n)
	var frontier, next []int32
	badTo := make([]int32, n) // by destination switch: the first switch of need without a route to it, or -1
	for i := range badTo {
		badTo[i] = -1
	}
	r = f.spreadRoutes(lmc, func(dst int32, c *candidates) {
		for i := range dist {
			dist[i], down[i] = -1, false
		}
		dist[dst], down[dst] = 0, true
		frontier = append(frontier[:0], dst)
		for len(frontier) > 0 {
			next = next[:0]
			for _, x := range frontier {
				first, end := f.ports(x)
				for gp := first; gp < end; gp++ {
					y := f.next(gp)
					if y < 0 {
						continue
					}
					up := pos[x] < pos[y] // the hop y -> x goes up
					if !up && !down[x] {
						continue // down then up
					}
					if dist[y] < 0 {
						dist[y], down[y] = dist[x]+1, !up
						next = append(next, y)
					} else if dist[y] == dist[x]+1 && !up {
						down[y] = true
					}
				}
			}
			frontier, next = next, frontier
		}
		c.reset()
		for s := range n {
			d := dist[s]
			if d < 0 && need[s] && badTo[dst] < 0 {
				badTo[dst] = int32(s)
			}
			if d > 0 {
				first, end := f.ports(int32(s))
				for gp := first; gp < end; gp++ {
					x := f.next(gp)
					if x < 0 || dist[x] != d-1 {
						continue
					}
					if down[s] && pos[x] > pos[s] && down[x] || !down[s] && pos[x] < pos[s] {
						c.add(gp - first)
					}
				}
			}
			c.done()
		}
	})
	for _, dst := range f.attach {
		if dst >= 0 && badTo[dst] >= 0 {
			return r, badTo[dst]
		}
	}
	return r, -1
}

// minHopRoots returns the switches OpenSM's updn takes as roots when it is
// given none (updn_find_root_nodes_by_min_hop in osm_ucast_updn.c): a
// switch is a root when, of its hop counts to the end ports (hosts and
// aggregation nodes, each at the switch it hangs off), exactly one value is
// held by more than 90 % of them and no other by more than 5 %. On a Clos
// or fat tree those are its spines, less any spine that lost a cable to a
// leaf (that leaf's hosts sit two hops further). It returns nil where no
// switch qualifies (OpenSM then falls back to minhop), where two roots are
// linked (OpenSM takes such a link as up both ways, which no order of
// up*/down* expresses: the 648-port Clos, whose leaves of 18 hosts qualify
// too), and on fabrics of over 2^28 switch-port pairs, where the search
// from every switch would take seconds (ccsweep's own rule stands in).
func (f *Fabric) minHopRoots() []int32 {
	ends, _ := f.endPorts()
	if len(ends) == 0 || int64(len(f.sws))*int64(len(f.peer)) > 1<<28 {
		return nil
	}
	count := make([]int32, len(f.sws))
	for _, e := range ends {
		count[e.sw]++
	}
	most, some := 0.9*float64(len(ends)), 0.05*float64(len(ends))
	dist := make([]int32, len(f.sws))
	var queue, hist, roots []int32
	for s, n := range f.sws {
		if f.t.Nodes[n].Adapter {
			continue // an aggregation node is an adapter to OpenSM
		}
		queue = f.hops(int32(s), dist, queue)
		hist = hist[:0]
		for _, x := range queue {
			for int(dist[x]) >= len(hist) {
				hist = append(hist, 0)
			}
			hist[dist[x]] += count[x]
		}
		overMost, overSome := 0, 0
		for _, h := range hist {
			if float64(h) > most {
				overMost++
			}
			if float64(h) > some {
				overSome++
			}
		}
		if overMost == 1 && overSome == 1 {
			roots = append(roots, int32(s))
		}
	}
	isRoot := make([]bool, len(f.sws))
	for _, r := range roots {
		isRoot[r] = true
	}
	for _, r := range roots {
		first, end := f.ports(r)
		for gp := first; gp < end; gp++ {
			if x := f.next(gp); x >= 0 && isRoot[x] {
				return nil
			}
		}
	}
	return roots
}

// topSwitches returns the switches of the highest Level when every switch
// has a Level, else nil.
func (f *Fabric) topSwitches() []int32 {
	top := 0
	for _, n := range f.sws {
		l := f.t.Nodes[n].Level
		if l <= 0 {
			return nil
		}
		top = max(top, l)
	}
	var roots []int32
	for s, n := range f.sws {
		if f.t.Nodes[n].Level == top {
			roots = append(roots, int32(s))
		}
	}
	return roots
}

// farthestSwitches returns the switches farthest from the hosts: each
// switch that hosts reach is ranked by its hop count from the nearest
// switch a host hangs off (those rank 0), and the roots are the switches
// of the greatest rank, the top of a tree whose leaves hold the hosts
// however it was read. Dead ends (aggregation nodes, and switch-like
// nodes without hosts linked to one switch only, such as routers) are not
// ranked. It returns nil when that rank is 0 (every other live switch has
// a host: no tier above the hosts' switches to climb to).
func (f *Fabric) farthestSwitches() []int32 {
	var hostSwitches []int32
	for _, s := range f.attach {
		if s >= 0 {
			hostSwitches = append(hostSwitches, s)
		}
	}
	rank := f.hopsFrom(hostSwitches)
	// A dead end is no root: a node that is an adapter (a SHARP aggregation
	// node) or a switch-like node with links to one switch only and no
	// host (a router, a switch hanging off the fabric).
	for s := range rank {
		if f.deadEnd(int32(s)) {
			rank[s] = -1
		}
	}
	top := slices.Max(append(rank, 0)) // -1: a switch no host reaches, or a dead end
	if top == 0 {
		return nil
	}
	var roots []int32
	for s, r := range rank {
		if r == top {
			roots = append(roots, int32(s))
		}
	}
	return roots
}

// deadEnd reports whether switch-like node s is a dead end: an adapter (a
// SHARP aggregation node), or linked to one switch only and to no host (a
// router, a switch hanging off the fabric).
func (f *Fabric) deadEnd(s int32) bool {
	if f.t.Nodes[f.sws[s]].Adapter {
		return true
	}
	first, end := f.ports(s)
	nb := int32(-1)
	for gp := first; gp < end; gp++ {
		if f.peer[gp] < 0 {
			continue
		}
		x := f.next(gp)
		if x < 0 || nb >= 0 && nb != x {
			return false // a host, or a second switch
		}
		nb = x
	}
	return nb >= 0
}

// liveSwitches marks the switches in the connected component of the hosts.
func (f *Fabric) liveSwitches() []bool {
	live := make([]bool, len(f.sws))
	if len(f.hosts) == 0 {
		return live
	}
	comp := f.components()
	for s, n := range f.sws {
		live[s] = comp[n] == comp[f.hosts[0]]
	}
	return live
}

// centralSwitch returns the live switch of least eccentricity, ties to the
// least total hop count to the other live switches, then to the lowest
// index; 0 when no switch is live.
func (f *Fabric) centralSwitch(live []bool) int32 {
	dist := make([]int32, len(f.sws))
	var queue []int32
	best, bestEcc, bestSum := int32(0), int32(-1), int64(0)
	for s := range f.sws {
		if !live[s] {
			continue
		}
		queue = f.hops(int32(s), dist, queue)
		ecc, sum := int32(0), int64(0)
		for x, d := range dist {
			if live[x] {
				ecc = max(ecc, d)
				sum += int64(d)
			}
		}
		if bestEcc < 0 || ecc < bestEcc || ecc == bestEcc && sum < bestSum {
			best, bestEcc, bestSum = int32(s), ecc, sum
		}
	}
	return best
}

// upDownGiven routes up*/down* from the roots RoutingOptions named: an
// error names a switch with hosts they leave without a legal route.
func (f *Fabric) upDownGiven(lmc int) (*Routes, []int32, error) {
	hosted := make([]bool, len(f.sws))
	for _, s := range f.attach {
		if s >= 0 {
			hosted[s] = true
		}
	}
	r, bad := f.upDownWith(f.upDownOrder(f.rootSet), hosted, lmc)
	if bad >= 0 {
		return nil, nil, fmt.Errorf("the roots given leave switch %s without a legal up*/down* route to some host", f.t.Nodes[f.sws[bad]].Name)
	}
	return r, f.rootSet, nil
}

// upDownOrder ranks switches by hop count from the nearest root (switches
// no root reaches last) and returns each switch's position in the order of
// (rank, switch index).
func (f *Fabric) upDownOrder(roots []int32) []int32 {
	n := len(f.sws)
	rank := f.hopsFrom(roots)
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
		if rank[i] < 0 {
			rank[i] = int32(n)
		}
	}
	slices.SortFunc(order, func(a, b int32) int {
		if rank[a] != rank[b] {
			return int(rank[a] - rank[b])
		}
		return int(a - b)
	})
	pos := make([]int32, n)
	for i, s := range order {
		pos[s] = int32(i)
	}
	return pos
}

// hopsFrom returns each switch's hop count from the nearest of from (0 for
// those), -1 for a switch none of them reaches: a breadth-first search.
func (f *Fabric) hopsFrom(from []int32) []int32 {
	rank := make([]int32, len(f.sws))
	for i := range rank {
		rank[i] = -1
	}
	queue := make([]int32, 0, len(f.sws))
	for _, s := range from {
		if rank[s] < 0 {
			rank[s] = 0
			queue = append(queue, s)
		}
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		first, end := f.ports(u)
		for gp := first; gp < end; gp++ {
			if v := f.next(gp); v >= 0 && rank[v] < 0 {
				rank[v] = rank[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return rank
}
