package model

import (
	"fmt"
	"slices"
)

// Fat-tree routing (ftree) for k-ary n-trees and folded Clos networks.
//
// The topology must be a tree of levels: Kind fattree or clos, or a Level
// on every switch, every switch at Level 1 or above and every link between
// switches joining adjacent levels; going to a higher Level is up.
//
// Towards host g's switch D, a switch from which D is reachable going only
// down (an ancestor of D, or D itself) goes down on a shortest such path;
// any other switch goes up to a parent with the shortest onward route, so a
// packet climbs to a nearest common ancestor of its source and destination
// and descends from there: a shortest path in a fat tree, and up*/down* for
// the level order, hence deadlock-free.
//
// The port among equal choices is destination mod k (d-mod-k). With U_i
// the greatest number of up ports of a level-i switch and d = g + p for
// path p of host g (LID g<<LMC | p), a switch of level l going up takes
// choice number floor(d / (U_1 · … · U_(l-1))) mod c among its c equal up
// ports in port order; going down (where several ports are equal, as with
// parallel links) choice d mod c. In a 2-level tree (a 3-stage Clos) a leaf
// sends destination d up its port number d mod U_1, so destinations of
// consecutive indices, such as the hosts of one leaf, leave by different
// spines, and in a k-ary n-tree the digits of d in base k pick the up port
// at each level, the standard d-mod-k that routes shift permutations
// without two flows on a link. A host's LIDs take consecutive d, hence
// different up ports at its leaf where the leaf has 2^LMC or more.
//
// ftree does not spread by load and gives every path SL 0.

// fatTree is ftree routing (see above).
func (f *fabric) fatTree(lmc int) (*Routes, error) {
	t := f.t
	if t.Kind != "fattree" && t.Kind != "clos" && f.topSwitches() == nil {
		return nil, fmt.Errorf("the topology (kind %q) is not a fat tree: ftree needs kind fattree or clos, or a Level on every switch", t.Kind)
	}
	level := make([]int32, len(f.sws))
	top := int32(0)
	for s, n := range f.sws {
		level[s] = int32(t.Nodes[n].Level)
		if level[s] < 1 {
			return nil, fmt.Errorf("switch %s has no level", t.Nodes[n].Name)
		}
		top = max(top, level[s])
	}
	ups := make([]int64, top+2) // ups[l]: greatest number of up ports of a level-l switch
	for s := range f.sws {
		first, end := f.ports(int32(s))
		nUp := int64(0)
		for gp := first; gp < end; gp++ {
			x := f.next(gp)
			if x < 0 {
				continue
			}
			switch level[x] - level[s] {
			case 1:
				nUp++
			case -1:
			default:
				return nil, fmt.Errorf("the link from %s port %d to %s joins levels %d and %d; a fat tree links adjacent levels only",
					t.Nodes[f.sws[s]].Name, gp-first+1, t.Nodes[f.sws[x]].Name, level[s], level[x])
			}
		}
		ups[level[s]] = max(ups[level[s]], nUp)
	}
	div := make([]int64, top+1) // div[l] = U_1 · … · U_(l-1), capped
	div[1] = 1
	for l := int32(2); l <= top; l++ {
		div[l] = min(div[l-1]*max(ups[l-1], 1), 1<<40)
	}
	// Switches from the top level down, to price up routes after the
	// parents' routes.
	byLevel := make([]int32, len(f.sws))
	for i := range byLevel {
		byLevel[i] = int32(i)
	}
	slices.SortStableFunc(byLevel, func(a, b int32) int { return int(level[b] - level[a]) })

	r := f.newRoutes(lmc)
	downDist := make([]int32, len(f.sws)) // hops to D going only down, or -1
	cost := make([]int32, len(f.sws))     // hops of the route to D, or -1
	goesUp := make([]bool, len(f.sws))
	var queue []int32
	var c candidates
	cached := int32(-1)
	for g := range f.hosts {
		dst := f.attach[g]
		if dst < 0 {
			continue
		}
		if dst != cached {
			cached = dst
			queue = f.downHops(dst, level, downDist, queue)
			for _, s := range byLevel {
				cost[s], goesUp[s] = downDist[s], false
				if cost[s] >= 0 {
					continue
				}
				first, end := f.ports(s)
				for gp := first; gp < end; gp++ {
					if x := f.next(gp); x >= 0 && level[x] > level[s] && cost[x] >= 0 && (cost[s] < 0 || cost[x]+1 < cost[s]) {
						cost[s], goesUp[s] = cost[x]+1, true
					}
				}
			}
			c.reset()
			for s := range f.sws {
				if cost[s] > 0 {
					first, end := f.ports(int32(s))
					for gp := first; gp < end; gp++ {
						x := f.next(gp)
						if x < 0 {
							continue
						}
						if goesUp[s] && level[x] > level[s] && cost[x] == cost[s]-1 ||
							!goesUp[s] && level[x] < level[s] && downDist[x] == downDist[s]-1 {
							c.add(gp - first)
						}
					}
				}
				c.done()
			}
		}
		for p := range 1 << lmc {
			lid := g<<lmc | p
			d := int64(g + p)
			for s := range f.sws {
				if int32(s) == dst {
					r.LFT[s][lid] = f.attachPort[g]
					continue
				}
				ports := c.of(int32(s))
				if len(ports) == 0 {
					continue
				}
				k := d
				if goesUp[s] {
					k = d / div[level[s]]
				}
				r.LFT[s][lid] = ports[k%int64(len(ports))]
			}
		}
	}
	return r, nil
}

// downHops sets dist[s] to the number of links from switch s down to
// switch dst going only down (to lower levels), or -1; queue is scratch
// space, returned for reuse.
func (f *fabric) downHops(dst int32, level, dist []int32, queue []int32) []int32 {
	return f.search(dst, level, dist, queue)
}
