package workload

import (
	"fmt"
	"slices"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// The 648-port director switch (reference [002] §1.5): a folded three-stage
// Clos of 36 leaves with 18 hosts each and 18 spines, QDR everywhere, routed
// by ftree (d-mod-k: a packet for the host at position p of its leaf
// crosses spine p+1). [002] simulated 0.5 s of it with every CC feature on
// and all 648 end nodes active, moving about 100 GB, but gives neither the
// traffic nor the parameters; these two scenarios are ccsweep's documented
// stand-ins, with the testbed's IB CC parameters (Table I), 2048-byte MTU
// and 64 KiB messages, and adapters that move 25 Gbit/s of payload (QDR
// ConnectX on PCIe 2.0 x8). Both run four phases of 125 ms: 0.5 s.
//
// clos648-hotspot is what CC is for at this size. Eight hot nodes, on
// different leaves and at different leaf positions (so each is reached
// through its own spine), are each the target of 12 greedy contributors,
// one on each of the 12 leaves after the hot node's. On four of those
// leaves per hot node a victim sends greedily to a cold host at the hot
// node's leaf position, so it climbs to the same spine through the same
// leaf uplink as the contributor beside it and, without CC, waits in the
// spine's input buffer behind packets for the hot node (the testbed's F1,
// 32 times). Every other host (the hot nodes included) sends Poisson
// background traffic to uniform random destinations at 7 % of its link.
// Contributors join at the second phase; IB CC takes about 160 ms to
// throttle them (a BECN per 16 packets against a CCTI timer of 150 µs), so
// the measurement window is the last phase. Some 100 GB cross the fabric.
//
// A switch port measures its fill per VoQ (fill_mode voq): with d-mod-k
// routing every packet for a hot node reaches its leaf through one spine
// link, so the hot node's port is fed by one input, and the testbed's port
// sum, scaled to all 35 other inputs, could never reach the threshold.
//
// clos648-uniform has every host offer its full rate (greedy) to uniform
// random destinations: the fabric's heaviest all-to-all load.
const (
	clos648Hot          = 8  // hot nodes
	clos648Contributors = 12 // contributors per hot node
	clos648Victims      = 4  // victims per hot node
	clos648Leaves       = 36
	clos648HostsPerLeaf = 18
	clos648Phases       = 4
)

// clos648Defaults are the two scenarios' model parameters.
var clos648Defaults = map[string]string{
	"host_io_gbps": "25",
	"phase":        "125ms",
	"cc":           "on",
	"fill_mode":    "voq",
}

func init() {
	registerSpec(clos648Hotspot())
	registerSpec(ScenarioSpec{
		Name:        "clos648-uniform",
		Description: "648-port Clos (36x18, QDR, ftree): every host greedy to uniform random destinations",
		Phases:      clos648Phases,
		Defaults:    clos648Defaults,
		Topology:    "clos",
		Topo:        fabric.TopoParams{Preset: "648"},
		Routing:     "ftree",
		Traffic: []TrafficSpec{{
			Name: "all", Pattern: "uniform", Arrival: "saturate", Role: Background,
		}},
	})
}

// closHotspotShape is a hot-spot scenario's Clos and hot nodes: a host
// index is leaf*perLeaf + position, and ftree's d-mod-k sends a packet for
// the host at position p of its leaf through spine p mod spines.
type closHotspotShape struct {
	name, description string
	topo              fabric.TopoParams // the Clos
	defaults          map[string]string
	leaves, perLeaf   int
	hots              []int // the hot nodes: distinct leaves, distinct positions
}

// clos648Hotspot lays out clos648-hotspot's flows (see above).
func clos648Hotspot() ScenarioSpec {
	// Hot node k is host 82k: leaves 0, 4, 9, …, 31; positions 0, 10, 2, …, 16.
	hots := make([]int, clos648Hot)
	for k := range hots {
		hots[k] = 82 * k
	}
	return closHotspot(closHotspotShape{
		name: "clos648-hotspot",
		description: "648-port Clos (36x18, QDR, ftree): 8 hot nodes of 12 contributors each, " +
			"32 victims beside them, Poisson background at 7 % from the rest",
		topo: fabric.TopoParams{Preset: "648"}, defaults: clos648Defaults,
		leaves: clos648Leaves, perLeaf: clos648HostsPerLeaf, hots: hots,
	})
}

// closHotspot lays out the flows of a hot-spot scenario on a Clos: each
// hot node the target of clos648Contributors greedy contributors, one on
// each of the leaves after its own, clos648Victims victims per hot node
// beside contributors, sending to a cold host at the hot node's position
// half the fabric away (through the hot node's spine), and Poisson
// background at 7 % from every other host (the hot nodes included).
func closHotspot(sh closHotspotShape) ScenarioSpec {
	host := func(leaf, pos int) int { return leaf*sh.perLeaf + pos }
	name := func(h int) string { return fmt.Sprintf("H%d", h+1) }
	used := make([]bool, sh.leaves*sh.perLeaf)
	// take returns the first host of leaf not yet given a role.
	take := func(leaf int) int {
		for pos := range sh.perLeaf {
			if h := host(leaf, pos); !used[h] {
				used[h] = true
				return h
			}
		}
		panic(sh.name + ": leaf full")
	}
	hots := sh.hots
	var flows []FlowSpec
	type victim struct{ hot, leaf int }
	var victims []victim
	for k, hot := range hots {
		used[hot] = true
		hotLeaf := hot / sh.perLeaf
		for j := range clos648Contributors {
			leaf := (hotLeaf + 1 + j) % sh.leaves
			flows = append(flows, FlowSpec{
				Name: fmt.Sprintf("C%d.%d", k+1, j+1), Src: name(take(leaf)), Dst: name(hot),
				Role: Contributor, StartPhase: 1,
			})
			if j%(clos648Contributors/clos648Victims) == 0 {
				victims = append(victims, victim{k, leaf})
			}
		}
	}
	// Victims after every contributor, so that each contributor leaf's
	// first hosts are contributors whatever the order.
	for i, v := range victims {
		hotPos := hots[v.hot] % sh.perLeaf
		dstLeaf := (v.leaf + sh.leaves/2) % sh.leaves
		flows = append(flows, FlowSpec{
			Name: fmt.Sprintf("V%d.%d", v.hot+1, i%clos648Victims+1), Src: name(take(v.leaf)),
			Dst: name(host(dstLeaf, hotPos)), Role: Victim,
		})
	}
	var background []string
	for h, u := range used {
		if !u || slices.Contains(hots, h) {
			background = append(background, name(h))
		}
	}
	return ScenarioSpec{
		Name:        sh.name,
		Description: sh.description,
		Phases:      clos648Phases,
		Defaults:    sh.defaults,
		Topology:    "clos",
		Topo:        sh.topo,
		Routing:     "ftree",
		Flows:       flows,
		Traffic: []TrafficSpec{{
			Name: "bg", Pattern: "uniform", Arrival: "poisson", Load: 0.07,
			Sources: background, Role: Background,
		}},
	}
}
