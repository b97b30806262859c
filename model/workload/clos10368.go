package workload

import (
	"maps"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// clos10368-hotspot is clos648-hotspot on a fabric sixteen times its size:
// a two-level folded Clos of 144 leaves with 72 hosts each and 72 spines of
// 144 ports (10 368 hosts, 216 switches, QDR everywhere, ftree), the shape
// BenchmarkScaling measures at its largest. Each leaf has one link to each
// spine, so it is non-blocking, and ftree's d-mod-k sends a packet for
// the host at position p of its leaf through spine p.
//
// The traffic is clos648-hotspot's, scaled: 32 hot nodes (hot node k on
// leaf 9k/2, rounded down, at position 37k mod 72: distinct leaves and,
// 37 being prime to 72, distinct positions, so each is reached through
// its own spine), each the target of 12 greedy contributors, one on each
// of the 12 leaves after its own; four victims per hot node, each beside a
// contributor and sent to a cold host at the hot node's position half the
// fabric away, so it climbs to the hot node's spine through the same leaf
// uplink; Poisson background at 7 % of the link from the other 9 856
// hosts (hot nodes included) to uniform random destinations. The model
// parameters are clos648-hotspot's (IB CC on with the testbed's
// parameters, fill per VoQ, 25 Gbit/s adapters, four phases of 125 ms,
// contributors from the second). A run of 10 ms phases shows the cost of
// the fabric's size; the full 0.5 s is some 16 times clos648-hotspot's
// work.
const (
	clos10368Leaves       = 144
	clos10368HostsPerLeaf = 72
	clos10368Spines       = 72
	clos10368Hot          = 32
)

func init() {
	hots := make([]int, clos10368Hot)
	for k := range hots {
		hots[k] = 9*k/2*clos10368HostsPerLeaf + 37*k%clos10368HostsPerLeaf
	}
	defaults := maps.Clone(clos648Defaults)
	defaults["host_link_gbps"], defaults["switch_link_gbps"] = "32", "32"
	registerSpec(closHotspot(closHotspotShape{
		name: "clos10368-hotspot",
		description: "10368-host Clos (144 leaves x 72 hosts, 72 spines, QDR, ftree): 32 hot nodes of 12 contributors each, " +
			"128 victims beside them, Poisson background at 7 % from the rest",
		topo:     fabric.TopoParams{Leaves: clos10368Leaves, HostsPerLeaf: clos10368HostsPerLeaf, Spines: clos10368Spines},
		defaults: defaults,
		leaves:   clos10368Leaves, perLeaf: clos10368HostsPerLeaf, hots: hots,
	}))
}
