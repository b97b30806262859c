package fabric

import (
	"fmt"
	"slices"
	"strings"
)

// The check of every computed routing.
//
// Reachability: from every host to every LID of every other host, following
// the forwarding tables must end at that host, without a missing entry, a
// port that leads nowhere or a loop on the way.
//
// Deadlock freedom: a channel is a switch's output port (a direction of a
// link), and on each VL a channel c1 depends on c2 when some route uses c2
// right after c1; no VL's channel dependency graph may have a cycle. Routes
// are destination-based, so all routes to one LID on one VL form a tree:
// the walk from each source stops at the first switch an earlier source of
// that LID and VL already went through (recording the turn it takes into
// that switch), and each LID costs O(switches + hosts) for each VL its
// sources use (O(switches) with one VL: see check). The turns (switch, input port, output port) are kept per VL
// in a bit set of Σ ports² bits, and a depth-first search over the channels
// finds a cycle in O(Σ ports²) per VL.

// cycleError is a cycle of channel dependencies on one VL: each channel is
// used by some route right before the next, and the last before the first.
type cycleError struct {
	vl    int
	ports []int32  // the channels: global ports of switches
	names []string // "S1 port 2" for each channel
}

func (e *cycleError) Error() string {
	return fmt.Sprintf("deadlock possible: channel cycle on VL %d: %s -> %s", e.vl, strings.Join(e.names, " -> "), e.names[0])
}

// check verifies r on f for vls data VLs: a path from host src to LID lid
// travels on VL r.SL(src, lid) mod vls.
func (f *Fabric) check(r *Routes, vls int) error {
	nLIDs := len(f.hosts) << r.LMC
	nSw := len(f.sws)
	turnBase := make([]int64, nSw+1) // switch s's turns: bits turnBase[s] + in*ports + out
	for s := range f.sws {
		p := int64(f.t.Nodes[f.sws[s]].Ports)
		turnBase[s+1] = turnBase[s] + p*p
	}
	nVL := 1
	if r.SLs != nil {
		nVL = vls
	}
	turns := make([][]uint64, nVL)
	mark := make([]int32, nSw*nVL) // lid+1 where the switch's route to lid on that VL is checked
	onPath := make([]int64, nSw)   // walk number of the walk through the switch
	walk := int64(0)
	var path []int32
	// With one VL for every path, the walks from a switch's hosts after
	// its first two are never taken: the first (or, when it is the
	// destination, the second) marks the switch, and the others stop
	// there. So only those two of each switch, and the hosts linked to no
	// switch, are visited, in the order of the hosts: the same walks in
	// the same order, in O(switches) per LID instead of O(hosts).
	sources := make([]int32, 0, len(f.hosts))
	perSwitch := make([]uint8, nSw)
	for h := range f.hosts {
		if a := f.attach[h]; a < 0 || r.SLs != nil || perSwitch[a] < 2 {
			sources = append(sources, int32(h))
			if a >= 0 && perSwitch[a] < 2 {
				perSwitch[a]++
			}
		}
	}
	for lid := range nLIDs {
		g := lid >> r.LMC
		for _, hs := range sources {
			h := int(hs)
			if h == g {
				continue
			}
			v := 0
			if r.SLs != nil {
				v = int(r.SLs[h][lid]) % vls
			}
			if a := f.attach[h]; a >= 0 && mark[v*nSw+int(a)] == int32(lid+1) {
				continue // its switch is checked, and entering it is no turn
			}
			if turns[v] == nil {
				turns[v] = make([]uint64, (turnBase[nSw]+63)/64)
			}
			walk++
			path = path[:0]
			gp := f.base[f.hosts[h]]
			for {
				pp := f.peer[gp]
				if pp < 0 {
					return f.unreachable(h, g, lid, fmt.Sprintf("%s port %d is not linked", f.t.Nodes[f.owner[gp]].Name, gp-f.base[f.owner[gp]]+1))
				}
				node := f.owner[pp]
				if hi := f.host[node]; hi >= 0 {
					if int(hi) == g {
						break
					}
					return f.unreachable(h, g, lid, "it arrives at host "+f.t.Nodes[node].Name)
				}
				s := f.sw[node]
				fromSwitch := f.sw[f.owner[gp]] >= 0
				checked := mark[v*nSw+int(s)] == int32(lid+1)
				ports := int64(f.t.Nodes[node].Ports)
				out := r.port(s, int32(lid))
				if out == NoRoute {
					return f.unreachable(h, g, lid, "switch "+f.t.Nodes[node].Name+" has no route")
				}
				if out < 0 || int64(out) >= ports {
					return f.unreachable(h, g, lid, fmt.Sprintf("switch %s sends it to port %d, which it does not have", f.t.Nodes[node].Name, out+1))
				}
				if fromSwitch {
					bit := turnBase[s] + int64(pp-f.base[node])*ports + int64(out)
					turns[v][bit>>6] |= 1 << (bit & 63)
				}
				if checked {
					break
				}
				if onPath[s] == walk {
					return f.unreachable(h, g, lid, "it loops through switch "+f.t.Nodes[node].Name)
				}
				onPath[s] = walk
				path = append(path, s)
				gp = f.base[node] + out
			}
			for _, s := range path {
				mark[v*nSw+int(s)] = int32(lid + 1)
			}
		}
	}
	for v, bits := range turns {
		if bits == nil {
			continue
		}
		if cycle := f.findCycle(bits, turnBase); cycle != nil {
			e := &cycleError{vl: v, ports: cycle}
			for _, gp := range cycle {
				n := f.owner[gp]
				e.names = append(e.names, fmt.Sprintf("%s port %d", f.t.Nodes[n].Name, gp-f.base[n]+1))
			}
			return e
		}
	}
	return nil
}

// unreachable is the error of host h not reaching host g at lid. Where
// compute nodes were given and h or g is not one, it says that they are
// the likely cause: ftree places the leaves by the compute nodes'
// switches (and ranks from them where OpenSM's ranking fails), so a host
// left out may have no route (docs/fabrics.md).
func (f *Fabric) unreachable(h, g, lid int, why string) error {
	name := func(h int) string { return f.t.Nodes[f.hosts[h]].Name }
	err := fmt.Errorf("host %s does not reach host %s at LID %d: %s", name(h), name(g), lid, why)
	if f.compute == nil || f.compute[h] && f.compute[g] {
		return err
	}
	var others []string
	for _, x := range []int{h, g} {
		if !f.compute[x] && !slices.Contains(others, name(x)) {
			others = append(others, name(x))
		}
	}
	what := strings.Join(others, " and ") + " are not compute nodes"
	if len(others) == 1 {
		what = others[0] + " is not a compute node"
	}
	return fmt.Errorf("%w (%s: ftree places the leaves by the compute nodes' switches, and routes to or from other hosts are not guaranteed; name every host that sends or receives in compute_nodes)", err, what)
}

// findCycle returns a cycle of the channel dependency graph whose turns
// are the set bits of turns (see check), as global ports, or nil. It
// searches depth first from every switch port in order, so the cycle it
// finds depends only on the routes.
func (f *Fabric) findCycle(turns []uint64, turnBase []int64) []int32 {
	const (
		unseen = iota
		onStack
		finished
	)
	color := make([]uint8, len(f.peer))
	type frame struct {
		gp   int32 // the channel
		next int32 // the next output port to try at the switch it leads to
	}
	var stack []frame
	for s := range f.sws {
		first, end := f.ports(int32(s))
		for gp := first; gp < end; gp++ {
			if color[gp] != unseen {
				continue
			}
			color[gp] = onStack
			stack = append(stack[:0], frame{gp: gp})
			for len(stack) > 0 {
				top := &stack[len(stack)-1]
				pushed := false
				if x := f.next(top.gp); x >= 0 {
					xFirst, xEnd := f.ports(x)
					ports := xEnd - xFirst
					row := turnBase[x] + int64(f.peer[top.gp]-xFirst)*int64(ports)
					for top.next < ports {
						o := top.next
						top.next++
						if bit := row + int64(o); turns[bit>>6]&(1<<(bit&63)) == 0 {
							continue
						}
						c := xFirst + o
						if color[c] == onStack {
							i := len(stack) - 1
							for stack[i].gp != c {
								i--
							}
							cycle := make([]int32, 0, len(stack)-i)
							for _, fr := range stack[i:] {
								cycle = append(cycle, fr.gp)
							}
							return cycle
						}
						if color[c] == unseen {
							color[c] = onStack
							stack = append(stack, frame{gp: c})
							pushed = true
							break
						}
					}
				}
				if !pushed {
					color[top.gp] = finished
					stack = stack[:len(stack)-1]
				}
			}
		}
	}
	return nil
}
