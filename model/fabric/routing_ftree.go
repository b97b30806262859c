package fabric

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

// fatTree is ftree routing (see above); it returns the top level's
// switches as its roots.
func (f *Fabric) fatTree(lmc int) (*Routes, []int32, error) {
	t := f.t
	if t.Kind != "fattree" && t.Kind != "clos" && t.Kind != "ibnetdiscover" && f.topSwitches() == nil {
		return nil, nil, fmt.Errorf("the topology (kind %q) is not a fat tree: ftree needs kind fattree or clos, a Level on every switch, or a fabric read from ibnetdiscover", t.Kind)
	}
	level, err := f.treeLevels()
	if err != nil {
		return nil, nil, err
	}
	top := slices.Max(level)
	var roots []int32
	for s, l := range level {
		if l == top {
			roots = append(roots, int32(s))
		}
	}
	r, err := f.fatTreeLevels(lmc, level, top)
	return r, roots, err
}

// treeLevels returns every switch's level in the tree. A generated tree's
// switches have their Level. Otherwise (a fabric read from ibnetdiscover,
// or roots or compute nodes given) the switches are ranked as OpenSM's
// ftree ranks them (fabric_rank in osm_ucast_ftree.c): by hop count from
// the nearest root, the roots at the top. The roots are the given ones, or
// else the switches farthest from every host's switch. The leaves, level
// 1, are the switches other than roots of the compute hosts (every host
// where no compute nodes are given); they must all be equally far from the
// roots (hosts on a root, such as I/O nodes on a spine, are allowed).
// Where neither roots nor compute nodes are given, and where compute nodes
// are given without roots but that ranking fails or links switches of
// levels that are not adjacent (OpenSM then refuses: a storage host on a
// spine ranks that spine with the leaves), a switch's level is one more
// than its hop count from the nearest switch of a compute host (on a fat
// tree where OpenSM's ranking works, the same levels). A switch the ranking cannot place (no
// compute host or root reaches it, or below the leaves) is an error naming
// it, as is a leaf out of line. Dead ends (aggregation nodes, routers: see
// deadEnd) are outside the tree, level 0: no route passes them.
func (f *Fabric) treeLevels() ([]int32, error) {
	t := f.t
	level := make([]int32, len(f.sws))
	if f.rootSet == nil && f.compute == nil && f.topSwitches() != nil {
		for s, n := range f.sws {
			level[s] = int32(t.Nodes[n].Level)
		}
		return level, nil
	}
	leaf := make([]bool, len(f.sws))
	var leaves []int32
	for h, s := range f.attach {
		if s >= 0 && (f.compute == nil || f.compute[h]) && !leaf[s] && !slices.Contains(f.rootSet, s) {
			leaf[s] = true
			leaves = append(leaves, s)
		}
	}
	if len(leaves) == 0 {
		return nil, fmt.Errorf("not a fat tree: no compute host is linked to a switch")
	}
	if f.rootSet != nil {
		return f.levelsFromRoots(f.rootSet, leaves, leaf)
	}
	if f.compute != nil {
		if level, err := f.levelsFromRoots(f.farthestFromHosts(), leaves, leaf); err == nil && f.adjacentLevels(level) {
			return level, nil
		}
	}
	d := f.hopsFrom(leaves)
	for s := range level {
		if f.deadEnd(int32(s)) && !leaf[s] {
			continue // level 0: outside the tree
		}
		if d[s] < 0 {
			return nil, fmt.Errorf("not a fat tree: switch %s is not linked to the switches of the compute hosts", t.Nodes[f.sws[s]].Name)
		}
		level[s] = d[s] + 1
	}
	return level, nil
}

// farthestFromHosts returns the switches farthest from the switches of all
// hosts, compute nodes or not, dead ends aside: the roots OpenSM's ftree
// ranks from where no roots are given (fabric_rank_from_hcas, then
// fabric_rerank_using_root).
func (f *Fabric) farthestFromHosts() []int32 {
	hosts := make([]bool, len(f.sws))
	var hosted []int32
	for _, s := range f.attach {
		if s >= 0 && !hosts[s] {
			hosts[s] = true
			hosted = append(hosted, s)
		}
	}
	d := f.hopsFrom(hosted)
	var roots []int32
	far := int32(0)
	for s, ds := range d {
		if f.deadEnd(int32(s)) && !hosts[s] {
			continue
		}
		if ds > far {
			far, roots = ds, roots[:0]
		}
		if ds == far {
			roots = append(roots, int32(s))
		}
	}
	return roots
}

// adjacentLevels reports whether every link between two switches in the
// tree (level above 0) joins adjacent levels.
func (f *Fabric) adjacentLevels(level []int32) bool {
	for s := range f.sws {
		first, end := f.ports(int32(s))
		for gp := first; gp < end; gp++ {
			if x := f.next(gp); x >= 0 && level[s] > 0 && level[x] > 0 && level[x] != level[s]+1 && level[x] != level[s]-1 {
				return false
			}
		}
	}
	return true
}

// levelsFromRoots ranks the switches by hop count from the nearest of
// roots, which are the top; leaves (leaf marks them) must all be equally
// far from the roots, level 1.
func (f *Fabric) levelsFromRoots(roots, leaves []int32, leaf []bool) ([]int32, error) {
	name := func(s int) string { return f.t.Nodes[f.sws[s]].Name }
	level := make([]int32, len(f.sws))
	d := f.hopsFrom(roots)
	top := int32(-1)
	for _, s := range leaves {
		if d[s] < 0 {
			return nil, fmt.Errorf("not a fat tree: leaf switch %s is not linked to the roots", name(int(s)))
		}
		if top >= 0 && d[s] != top {
			return nil, fmt.Errorf("not a fat tree: leaf switch %s is %d hops from the roots, leaf switch %s %d; the leaves of a fat tree are equally far",
				name(int(leaves[0])), top, name(int(s)), d[s])
		}
		top = d[s]
	}
	for s := range level {
		switch {
		case f.deadEnd(int32(s)) && !leaf[s] && !slices.Contains(roots, int32(s)):
			continue // level 0: outside the tree
		case d[s] < 0:
			return nil, fmt.Errorf("not a fat tree: switch %s is not linked to the roots", name(s))
		case d[s] > top:
			return nil, fmt.Errorf("not a fat tree: switch %s is %d hops from the roots, below the leaves (%d hops)", name(s), d[s], top)
		}
		level[s] = top - d[s] + 1
	}
	return level, nil
}

// fatTreeLevels routes ftree for the switches' levels (level 1 the leaves,
// top the roots).
func (f *Fabric) fatTreeLevels(lmc int, level []int32, top int32) (*Routes, error) {
	t := f.t
	ups := make([]int64, top+2) // ups[l]: greatest number of up ports of a level-l switch
	for s := range f.sws {
		first, end := f.ports(int32(s))
		nUp := int64(0)
		for gp := first; gp < end; gp++ {
			x := f.next(gp)
			if x < 0 || level[x] == 0 || level[s] == 0 {
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

	r := &Routes{LMC: lmc}
	if !f.compactOnly {
		r = f.newRoutes(lmc)
	}
	fb := newFTreeBuilder(len(f.sws))
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
			for s := range f.sws {
				if int32(s) != dst {
					fb.route(dst, int32(s), fb.intern(goesUp[s] && level[s] > 0 && div[level[s]] > 1, c.of(int32(s))))
				}
			}
		}
		for p := range 1 << lmc {
			if f.compactOnly {
				break
			}
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
				if goesUp[s] && level[s] > 0 {
					k = d / div[level[s]]
				}
				r.LFT[s][lid] = ports[k%int64(len(ports))]
			}
		}
	}
	r.FTree = fb.router(f, lmc, func(s int) int64 { return div[max(level[s], 1)] })
	return r, nil
}

// downHops sets dist[s] to the number of links from switch s down to
// switch dst going only down (to lower levels), or -1; queue is scratch
// space, returned for reuse.
func (f *Fabric) downHops(dst int32, level, dist []int32, queue []int32) []int32 {
	return f.search(dst, level, dist, queue)
}
