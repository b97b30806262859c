package fabric

import (
	"bufio"
	"fmt"
	"io"
)

// LFT dumps in OpenSM's format.
//
// OpenSM writes every switch's linear forwarding table to opensm-lfts.dump
// (osm_ucast_mgr.c, ucast_mgr_dump_lfts; the file routing engine reads it
// back): for each switch in order of node GUID, a header
//
//	Unicast lids [0x0-0xMAXLID] of switch Lid LID guid 0xGUID ('DESC'):
//
// then one line per LID the switch has a port for, port 0 being the
// switch itself,
//
//	0xLID PORT # Channel Adapter portguid 0xGUID: 'DESC'
//
// (the type is "Switch" for a switch's LID) and a trailer "MAXLID lids
// dumped". ccsweep's fabrics have no LIDs or GUIDs of their own, so the dump
// numbers them: host h's LIDs are (h+1)·2^LMC + path, then each switch has
// one LID after the hosts', in switch order; node n (index into
// Topology.Nodes) has node and port GUID LFTGUIDBase + n + 1. Ports count
// from 1 as IB's do. A switch lists the host LIDs it routes and its own
// LID; ccsweep routes no traffic to switches, so other switches' LIDs are
// absent, as OpenSM leaves out LIDs a switch has no port for.

// LFTGUIDBase is the GUID prefix WriteLFTs numbers nodes from.
const LFTGUIDBase uint64 = 0xcc5e_0000_0000_0000

// lftLID returns the IB LID of the dump for ccsweep LID lid (host
// lid>>LMC, path lid&(2^LMC-1)).
func (fi *FabricInfo) lftLID(lid int) int { return lid + 1<<fi.LMC }

// lftSwitchLID returns switch s's LID in the dump.
func (fi *FabricInfo) lftSwitchLID(s int) int { return (fi.Hosts+1)<<fi.LMC + s }

// WriteLFTs writes every switch's forwarding table in the format of
// OpenSM's opensm-lfts.dump (see above).
func (fi *FabricInfo) WriteLFTs(w io.Writer) error {
	f, r := fi.f, fi.routes
	bw := bufio.NewWriter(w)
	maxLID := fi.lftSwitchLID(len(f.sws) - 1)
	guid := func(n NodeID) uint64 { return LFTGUIDBase + uint64(n) + 1 }
	for s, n := range f.sws {
		fmt.Fprintf(bw, "Unicast lids [0x0-0x%x] of switch Lid %d guid 0x%016x ('%s'):\n",
			maxLID, fi.lftSwitchLID(s), guid(n), f.t.Nodes[n].Name)
		for lid, out := range r.LFT[s] {
			if out == NoRoute {
				continue
			}
			h := f.hosts[lid>>r.LMC]
			fmt.Fprintf(bw, "0x%04x %03d # Channel Adapter portguid 0x%016x: '%s'\n",
				fi.lftLID(lid), out+1, guid(h), f.t.Nodes[h].Name)
		}
		fmt.Fprintf(bw, "0x%04x %03d # Switch portguid 0x%016x: '%s'\n",
			fi.lftSwitchLID(s), 0, guid(n), f.t.Nodes[n].Name)
		fmt.Fprintf(bw, "%d lids dumped\n", maxLID)
	}
	return bw.Flush()
}
