package fabric

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Adaptive routing ([routing] adaptive = true, the adaptive parameter), as
// NVIDIA's AR groups: a switch forwards a packet out of the least occupied
// port of the packet's AR group instead of its forwarding table's port.
//
// The group. Switch s's group towards destination switch d (the switch the
// destination host hangs off) holds its equal-cost ports: those whose
// switch at the other end is one hop nearer d than s is, as a subnet
// manager fills an AR group on a fat tree (every up port towards a common
// ancestor). Where those choices would let the channel dependencies form a
// cycle (the check below; never on fat trees), every group keeps only the
// equal-cost ports s's own forwarding table sends some LID of d's hosts
// to, so the routing engine decides which ports may be used (updn's legal
// ports, minhop's spread) and adaptive routing only chooses among them per
// packet; if that still has a cycle, the scenario is refused. A group of
// fewer than two ports is no group. A packet to a LID whose table port at
// s is not in the group (a non-minimal table route) keeps the table's
// port; at d the table's port to the host is taken. Groups are kept per
// switch and destination switch (an int32 each, the port lists shared
// between equal groups), not per destination LID.
//
// The choice (model/routes.go, at run time). Among the group's ports the one with the fewest packets
// waiting for it (all VLs), plus one where its link is busy; ties go to the
// table's own port, then to the lowest port. The choice is made where the
// model routes a packet: as it is forwarded to the switch (transmit).
//
// What is guaranteed. Every adaptive hop brings a packet one hop nearer its
// destination switch, and table hops follow the checked tables, so no
// packet loops. Before the run, every choice a packet could make is
// checked as a routing is: for every LID, the switches a packet to it can
// reach from any host under any choices, every one with a route, none in a
// loop, and the channel dependencies of all those choices on one graph
// without a cycle; a cycle is refused as for a routing engine (allowed
// with allow_deadlock). On fat trees and Clos networks under ftree, updn
// and minhop the groups are the up ports towards a common ancestor, so
// the choices only go up then down and no cycle exists; the check proves it
// for each fabric rather than assuming it. dor routes by VL (its SLs) and
// takes no adaptive choice: adaptive is refused with it. The nicrate
// scheme's resource paths and drb's path probes follow the tables.

// ARState is a run's adaptive routing groups.
type ARState struct {
	On     bool
	NSw    int
	LIDDst []int32   // LID -> the switch its host hangs off
	Group  []int32   // s*nSw + d -> index into ports, or -1: no group
	Ports  [][]uint8 // groups: switch-local ports, increasing
}

// AdaptiveGroups builds the AR groups of f routed by r (see above) and
// checks every choice they allow; allowDeadlock keeps groups whose
// channel dependencies form a cycle.
func AdaptiveGroups(f *Fabric, r *Routes, algorithm string, allowDeadlock bool) (*ARState, error) {
	if r.SLs != nil || algorithm == "dor" {
		return nil, fmt.Errorf("%w: adaptive routing chooses among equal-cost ports of one VL; dor keeps each path in its dimension order and SL (use minhop, updn, ftree or lfts)", ErrBadScenario)
	}
	ar := buildGroups(f, r, false)
	err := f.checkAdaptive(r, ar)
	var ce *cycleError
	if errors.As(err, &ce) {
		// Every equal-cost port is too many here: only the ports the
		// tables themselves use towards each destination switch.
		ar = buildGroups(f, r, true)
		err = f.checkAdaptive(r, ar)
	}
	if err != nil && (!allowDeadlock || !errors.As(err, &ce)) {
		return nil, fmt.Errorf("%w: adaptive routing: %w", ErrBadScenario, err)
	}
	return ar, nil
}

// buildGroups makes the AR groups of f routed by r: for every switch and
// destination switch d, its ports one hop nearer d, or (tablesOnly) those
// of them its table sends some LID of d's hosts to.
func buildGroups(f *Fabric, r *Routes, tablesOnly bool) *ARState {
	nSw := len(f.sws)
	ar := &ARState{On: true, NSw: nSw, LIDDst: make([]int32, len(f.hosts)<<r.LMC), Group: make([]int32, nSw*nSw)}
	for i := range ar.Group {
		ar.Group[i] = -1
	}
	hostsOf := make([][]int32, nSw)
	for h, a := range f.attach {
		for p := range 1 << r.LMC {
			ar.LIDDst[h<<r.LMC|p] = a
		}
		if a >= 0 {
			hostsOf[a] = append(hostsOf[a], int32(h))
		}
	}
	interned := map[string]int32{}
	dist := make([]int32, nSw)
	var queue []int32
	var set []uint8
	for d := range nSw {
		if len(hostsOf[d]) == 0 {
			continue
		}
		// Hops from every switch to d.
		for i := range dist {
			dist[i] = -1
		}
		dist[d] = 0
		queue = append(queue[:0], int32(d))
		for i := 0; i < len(queue); i++ {
			s := queue[i]
			first, end := f.ports(s)
			for gp := first; gp < end; gp++ {
				if x := f.next(gp); x >= 0 && dist[x] < 0 {
					dist[x] = dist[s] + 1
					queue = append(queue, x)
				}
			}
		}
		for s := range nSw {
			if s == d || dist[s] <= 0 {
				continue
			}
			first, end := f.ports(int32(s))
			set = set[:0]
			if tablesOnly {
				for _, h := range hostsOf[d] {
					for p := range 1 << r.LMC {
						o := r.port(int32(s), int32(int(h)<<r.LMC|p))
						if o == NoRoute || slices.Contains(set, uint8(o)) {
							continue
						}
						if x := f.next(first + o); x >= 0 && dist[x] == dist[s]-1 {
							set = append(set, uint8(o))
						}
					}
				}
			} else {
				for gp := first; gp < end; gp++ {
					if x := f.next(gp); x >= 0 && dist[x] == dist[s]-1 {
						set = append(set, uint8(gp-first))
					}
				}
			}
			if len(set) < 2 {
				continue
			}
			slices.Sort(set)
			key := string(set)
			gi, ok := interned[key]
			if !ok {
				gi = int32(len(ar.Ports))
				interned[key] = gi
				ar.Ports = append(ar.Ports, slices.Clone(set))
			}
			ar.Group[s*nSw+d] = gi
		}
	}
	return ar
}

// choices returns the local ports switch s may forward lid to: its group
// towards lid's switch where the table's port is in it, else the table's.
func (ar *ARState) choices(s int32, lid int, table int32, one *[1]uint8) []uint8 {
	d := ar.LIDDst[lid]
	if d >= 0 && d != s {
		if gi := ar.Group[int(s)*ar.NSw+int(d)]; gi >= 0 {
			if g := ar.Ports[gi]; slices.Contains(g, uint8(table)) {
				return g
			}
		}
	}
	one[0] = uint8(table)
	return one[:]
}

// checkAdaptive checks every choice ar allows on f routed by r, as check
// does a routing's: for each LID, every switch a packet to it reaches from
// any host has a route, the choices never loop, and the channel
// dependencies of all choices of all LIDs form no cycle.
func (f *Fabric) checkAdaptive(r *Routes, ar *ARState) error {
	nSw := len(f.sws)
	turnBase := make([]int64, nSw+1)
	for s := range f.sws {
		p := int64(f.t.Nodes[f.sws[s]].Ports)
		turnBase[s+1] = turnBase[s] + p*p
	}
	turns := make([]uint64, (turnBase[nSw]+63)/64)
	seen := make([]int32, nSw) // lid+1 where reached for lid
	indeg := make([]int32, nSw)
	var reached []int32
	type entry struct{ s, in int32 } // switch s entered at its global port in
	var entries []entry
	var one [1]uint8
	for lid := range ar.LIDDst {
		g := lid >> r.LMC
		reached, entries = reached[:0], entries[:0]
		for h, a := range f.attach {
			if h != g && a >= 0 && seen[a] != int32(lid+1) {
				seen[a], indeg[a] = int32(lid+1), 0
				reached = append(reached, a)
			}
		}
		for i := 0; i < len(reached); i++ {
			s := reached[i]
			node := f.sws[s]
			table := r.port(s, int32(lid))
			if table == NoRoute {
				return f.unreachable(int(f.hostNear(s)), g, lid, "switch "+f.t.Nodes[node].Name+" has no route")
			}
			first, _ := f.ports(s)
			for _, o := range ar.choices(s, lid, table, &one) {
				gp := first + int32(o)
				pp := f.peer[gp]
				if pp < 0 {
					return f.unreachable(int(f.hostNear(s)), g, lid, fmt.Sprintf("%s port %d is not linked", f.t.Nodes[node].Name, o+1))
				}
				if hi := f.host[f.owner[pp]]; hi >= 0 {
					if int(hi) != g {
						return f.unreachable(int(f.hostNear(s)), g, lid, "it arrives at host "+f.t.Nodes[f.owner[pp]].Name)
					}
					continue
				}
				x := f.sw[f.owner[pp]]
				if seen[x] != int32(lid+1) {
					seen[x], indeg[x] = int32(lid+1), 0
					reached = append(reached, x)
				}
				indeg[x]++
				entries = append(entries, entry{x, pp})
			}
		}
		// The choices loop where some reached switch is left with
		// predecessors after removing, in topological order, those
		// without (Kahn).
		order := slices.Clone(reached)
		done := 0
		var ready []int32
		for _, s := range order {
			if indeg[s] == 0 {
				ready = append(ready, s)
			}
		}
		for len(ready) > 0 {
			s := ready[len(ready)-1]
			ready = ready[:len(ready)-1]
			done++
			first, _ := f.ports(s)
			for _, o := range ar.choices(s, lid, r.port(s, int32(lid)), &one) {
				if x := f.next(first + int32(o)); x >= 0 {
					if indeg[x]--; indeg[x] == 0 {
						ready = append(ready, x)
					}
				}
			}
		}
		if done < len(order) {
			for _, s := range order {
				if indeg[s] > 0 {
					return f.unreachable(int(f.hostNear(s)), g, lid, "adaptive choices loop through switch "+f.t.Nodes[f.sws[s]].Name)
				}
			}
		}
		for _, e := range entries {
			first, _ := f.ports(e.s)
			row := turnBase[e.s] + int64(e.in-first)*int64(f.t.Nodes[f.sws[e.s]].Ports)
			for _, o := range ar.choices(e.s, lid, r.port(e.s, int32(lid)), &one) {
				bit := row + int64(o)
				turns[bit>>6] |= 1 << (bit & 63)
			}
		}
	}
	if cycle := f.findCycle(turns, turnBase); cycle != nil {
		e := &cycleError{vl: 0, ports: cycle}
		for _, gp := range cycle {
			n := f.owner[gp]
			e.names = append(e.names, fmt.Sprintf("%s port %d", f.t.Nodes[n].Name, gp-f.base[n]+1))
		}
		return e
	}
	return nil
}

// hostNear returns a host to name in an error about switch s: one that
// hangs off it, or the first host.
func (f *Fabric) hostNear(s int32) int32 {
	for h, a := range f.attach {
		if a == s {
			return int32(h)
		}
	}
	return 0
}

// ARGroupsString describes t's AR groups under routing algorithm with
// 2^lmc LIDs per host (tests and docs): "SWITCH->DEST: p1,p2" per group,
// ports counting from 1, switches in order.
func ARGroupsString(t *Topology, algorithm string, lmc int, opts RoutingOptions) (string, error) {
	r, err := ComputeRoutesWith(t, algorithm, lmc, 1, opts)
	if err != nil {
		return "", err
	}
	f := NewFabric(t)
	ar, err := AdaptiveGroups(f, r, algorithm, opts.AllowDeadlock)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for s := range ar.NSw {
		for d := range ar.NSw {
			gi := ar.Group[s*ar.NSw+d]
			if gi < 0 {
				continue
			}
			var ps []string
			for _, p := range ar.Ports[gi] {
				ps = append(ps, strconv.Itoa(int(p)+1))
			}
			fmt.Fprintf(&b, "%s->%s: %s\n", t.Nodes[f.sws[s]].Name, t.Nodes[f.sws[d]].Name, strings.Join(ps, ","))
		}
	}
	return b.String(), nil
}
