package model

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// The routes of a run: its switches' forwarding tables programmed from the
// fabric's routing (Network.route), the adaptive choice at run time
// (adaptiveOut), and InspectScenario.

// route programs every switch's forwarding table from the scenario's
// routing (fabric.ComputeRoutes), in global port numbers.
func (n *Network) route(t *fabric.Topology) error {
	var r *fabric.Routes
	var err error
	opts := n.scenario.RoutingOptions(&n.cfg)
	n.allowDeadlock = opts.AllowDeadlock
	if name, text := n.scenario.LFTsFile(&n.cfg); text != nil {
		r, err = fabric.RoutesFromLFTs(t, name, text, n.scenario.LMCFor(&n.cfg), n.nVL, opts.AllowDeadlock)
	} else {
		r, err = fabric.ComputeRunRoutes(t, n.scenario.RoutingFor(&n.cfg), n.scenario.LMCFor(&n.cfg), n.nVL, opts, true)
	}
	if err != nil {
		return err
	}
	if n.scenario.Adaptive(&n.cfg) {
		ar, err := fabric.AdaptiveGroups(fabric.NewFabric(t), r, n.scenario.RoutingFor(&n.cfg), opts.AllowDeadlock)
		if err != nil {
			return err
		}
		n.ar = *ar
	}
	// The run keeps the LIDs and service levels; its switches keep the
	// tables a byte an entry, and the routing's int32 tables (four
	// times their size, switches × LIDs) go as each is copied. Computed
	// dor keeps no table: each switch computes its forwarding; on a large
	// fabric ftree's switches look theirs up in its compact form
	// (fabric.FTreeRouter), and no tables were made.
	n.routes = &fabric.Routes{LMC: r.LMC, SLs: r.SLs, DOR: r.DOR}
	for s := range n.sws {
		sw := &n.sws[s]
		if sw.nPorts > fabric.MaxSwitchPorts {
			return fmt.Errorf("%w: a switch of %d ports; at most %d", fabric.ErrBadScenario, sw.nPorts, fabric.MaxSwitchPorts)
		}
		if r.DOR != nil {
			sw.dor, sw.index = r.DOR, int32(s)
			continue
		}
		if r.LFT == nil {
			sw.ftree, sw.index = r.FTree, int32(s)
			continue
		}
		sw.lft = make([]uint8, len(r.LFT[s]))
		for lid, p := range r.LFT[s] {
			sw.lft[lid] = lftNoRoute
			if p != fabric.NoRoute {
				sw.lft[lid] = uint8(p) // at most fabric.MaxSwitchPorts (254) ports
			}
		}
		r.LFT[s] = nil
	}
	return nil
}

// adaptiveOut returns the output (global port) switch s forwards packet
// lid to, table being its forwarding table's: the least occupied port of
// its group (fabric.ARState; model/fabric/routing_adaptive.go says how the
// groups are made).
func (n *Network) adaptiveOut(s, lid, table int32) int32 {
	ar := &n.ar
	d := ar.LIDDst[lid]
	if d < 0 || d == s {
		return table
	}
	gi := ar.Group[int(s)*ar.NSw+int(d)]
	if gi < 0 {
		return table
	}
	sw := &n.sws[s]
	g := ar.Ports[gi]
	if !slices.Contains(g, uint8(table-sw.firstPort)) {
		return table
	}
	now := n.sim.Now()
	occupancy := func(o int32) int32 {
		pt := &n.ports[o]
		if pt.linkFree > now {
			return pt.queued + 1
		}
		return pt.queued
	}
	best, bestOcc := table, occupancy(table)
	for _, lp := range g {
		if o := sw.firstPort + int32(lp); o != table {
			if occ := occupancy(o); occ < bestOcc {
				best, bestOcc = o, occ
			}
		}
	}
	return best
}

// InspectScenario routes sc's fabric under cfg with the named routing ("":
// the scenario's, which may be the tables of its [routing] lfts) and
// describes it (fabric.InspectFabric), with the scenario's LMC
// and cfg.VLs.
func InspectScenario(sc *workload.Scenario, cfg params.Config, routing string) (*fabric.FabricInfo, error) {
	t, err := sc.Build(&cfg)
	if err != nil {
		return nil, err
	}
	if name, text := sc.LFTsFile(&cfg); text != nil && routing == "" {
		info, _, err := fabric.InspectLFTs(t, name, bytes.NewReader(text), cfg.VLs)
		return info, err
	}
	if routing == "" {
		routing = sc.RoutingFor(&cfg)
	}
	return fabric.InspectFabricWith(t, routing, sc.LMCFor(&cfg), cfg.VLs, sc.RoutingOptions(&cfg))
}
