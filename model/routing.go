package model

import (
	"fmt"
	"slices"
)

// noRoute marks a forwarding-table entry of a switch that cannot reach the
// destination. Routing refuses a topology where any host cannot reach
// another, so such a switch is cut off from every host and no packet ever
// reads it.
const noRoute = -1

// Routing algorithms, as a subnet manager's routing engines.
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
	// switch s (index into Topology.Switches) towards lid, or noRoute.
	LFT [][]int32
	// sl[src][lid], when not nil, is the service level a packet from host
	// src to lid travels on (dor's deadlock-free VL assignment); nil: SL 0.
	sl [][]uint8
}

// LID returns path p's LID of host h.
func (r *Routes) LID(h, p int) int { return h<<r.LMC | p }

// SL returns the service level of packets from host src to lid.
func (r *Routes) SL(src, lid int) int {
	if r.sl == nil {
		return 0
	}
	return int(r.sl[src][lid])
}

// ComputeRoutes routes t with the named algorithm (RoutingAlgorithms) and
// 2^lmc LIDs per host, for vls data VLs, and checks the result: every host
// reaches every LID and no VL's channel dependency graph has a cycle. Its
// errors wrap ErrBadScenario and name the problem (a pair of hosts that
// cannot reach each other, a cycle of channels).
func ComputeRoutes(t *Topology, algorithm string, lmc, vls int) (*Routes, error) {
	if !slices.Contains(RoutingAlgorithms, algorithm) {
		return nil, fmt.Errorf("%w: unknown routing %q (known: minhop, updn, ftree, dor)", ErrBadScenario, algorithm)
	}
	if lmc < 0 || lmc > 7 {
		return nil, fmt.Errorf("%w: lmc %d: want 0 to 7", ErrBadScenario, lmc)
	}
	if algorithm != "minhop" || lmc != 0 {
		return nil, fmt.Errorf("%w: routing %q with lmc %d is not implemented yet", ErrBadScenario, algorithm, lmc)
	}
	return minHopLowest(t)
}

// minHopLowest is min-hop routing with ties broken by the lowest port
// number: a breadth-first search from each destination host.
func minHopLowest(t *Topology) (*Routes, error) {
	hosts, sws := t.Hosts(), t.Switches()
	r := &Routes{LFT: make([][]int32, len(sws))}
	for s := range sws {
		r.LFT[s] = make([]int32, len(hosts))
	}
	// port[node][local] = peer node, -1 unlinked
	peer := make([][]NodeID, len(t.Nodes))
	for i := range t.Nodes {
		peer[i] = make([]NodeID, t.Nodes[i].Ports)
		for p := range peer[i] {
			peer[i][p] = -1
		}
	}
	for _, l := range t.Links {
		peer[l.A][l.APort] = l.B
		peer[l.B][l.BPort] = l.A
	}
	dist := make([]int, len(t.Nodes))
	adj := t.neighbours()
	for h, dst := range hosts {
		t.hopsTo(adj, dst, dist)
		for _, src := range hosts {
			if dist[src] < 0 {
				return nil, fmt.Errorf("%w: host %s cannot reach host %s: the topology is not connected",
					ErrBadScenario, t.Nodes[src].Name, t.Nodes[dst].Name)
			}
		}
		for s, node := range sws {
			r.LFT[s][h] = noRoute
			if dist[node] < 0 {
				continue
			}
			for p, v := range peer[node] {
				if v >= 0 && dist[v] == dist[node]-1 {
					r.LFT[s][h] = int32(p)
					break
				}
			}
		}
	}
	return r, nil
}

// route programs every switch's forwarding table from the scenario's
// routing (ComputeRoutes), in global port numbers.
func (n *Network) route(t *Topology) error {
	r, err := ComputeRoutes(t, n.scenario.routing(), n.scenario.LMC, n.nVL)
	if err != nil {
		return err
	}
	n.routes = r
	for s := range n.sws {
		sw := &n.sws[s]
		sw.lft = make([]int32, len(r.LFT[s]))
		for lid, p := range r.LFT[s] {
			sw.lft[lid] = noRoute
			if p != noRoute {
				sw.lft[lid] = sw.firstPort + p
			}
		}
	}
	return nil
}
