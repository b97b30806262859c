package fabric

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Test-local topology constructors, shaped as the generators shape theirs:
// Kind, Level (1 for leaves up to n at the top of a tree), Coord, Dims and
// Wrap set; hosts in router-major order (host i on leaf or router i / hosts
// per switch); router index x + X*(y + Y*z).

const testGbps = 32

func mustLink(t *Topology, a NodeID, pa int, b NodeID, pb int) {
	if err := t.ConnectPorts(a, pa, b, pb, testGbps); err != nil {
		panic(err)
	}
}

// kAryNTree builds a k-ary n-tree: n levels of k^(n-1) switches and k^n
// hosts, k per leaf. Switch w of level l < n (w's base-k digits w_0 ..
// w_(n-2)) links its up port j (local port k+j) to switch w-with-digit-l-1
// set-to-j of level l+1, at that switch's down port w_(l-1); a leaf's ports
// 0..k-1 hold its hosts; top switches have k ports.
func kAryNTree(k, n int) *Topology {
	t := &Topology{Kind: "fattree"}
	per := 1
	for range n - 1 {
		per *= k
	}
	sw := make([][]NodeID, n+1)
	for l := 1; l <= n; l++ {
		for w := range per {
			ports := 2 * k
			if l == n {
				ports = k
			}
			id := t.AddSwitch(fmt.Sprintf("L%d-%d", l, w), ports)
			t.Nodes[id].Level = l
			sw[l] = append(sw[l], id)
		}
	}
	for l := 1; l < n; l++ {
		place := 1 // k^(l-1): the weight of digit l-1
		for range l - 1 {
			place *= k
		}
		for w := range per {
			digit := w / place % k
			for j := range k {
				mustLink(t, sw[l][w], k+j, sw[l+1][w+(j-digit)*place], digit)
			}
		}
	}
	for w := range per {
		for i := range k {
			mustLink(t, t.AddHost(fmt.Sprintf("H%d", w*k+i)), 0, sw[1][w], i)
		}
	}
	return t
}

// closTopo builds a folded 3-stage Clos network (a 2-level fat tree):
// leaves with hostsPerLeaf hosts on ports 0.. and one link to each spine
// (leaf port hostsPerLeaf+j to spine j's port i for leaf i).
func closTopo(leaves, hostsPerLeaf, spines int) *Topology {
	t := &Topology{Kind: "clos"}
	var leaf, spine []NodeID
	for i := range leaves {
		id := t.AddSwitch(fmt.Sprintf("L%d", i), hostsPerLeaf+spines)
		t.Nodes[id].Level = 1
		leaf = append(leaf, id)
	}
	for j := range spines {
		id := t.AddSwitch(fmt.Sprintf("S%d", j), leaves)
		t.Nodes[id].Level = 2
		spine = append(spine, id)
	}
	for i := range leaves {
		for j := range spines {
			mustLink(t, leaf[i], hostsPerLeaf+j, spine[j], i)
		}
	}
	for i := range leaves {
		for h := range hostsPerLeaf {
			mustLink(t, t.AddHost(fmt.Sprintf("H%d", i*hostsPerLeaf+h)), 0, leaf[i], h)
		}
	}
	return t
}

// gridTopo builds a mesh, or a torus when wrap, of dims routers with hpr
// hosts each: router x + X*(y + Y*z) named R<x>.<y>.<z>, hosts on its ports
// 0..hpr-1, then for each dimension i its port hpr+2i up and hpr+2i+1 down.
func gridTopo(dims []int, wrap bool, hpr int) *Topology {
	t := &Topology{Kind: "mesh", Dims: dims, Wrap: wrap}
	if wrap {
		t.Kind = "torus"
	}
	total := 1
	for _, n := range dims {
		total *= n
	}
	coord := func(r int) []int {
		c := make([]int, len(dims))
		for i, n := range dims {
			c[i] = r % n
			r /= n
		}
		return c
	}
	index := func(c []int) int {
		r := 0
		for i := len(dims) - 1; i >= 0; i-- {
			r = r*dims[i] + c[i]
		}
		return r
	}
	routers := make([]NodeID, total)
	for r := range total {
		c := coord(r)
		name := "R"
		for i, x := range c {
			if i > 0 {
				name += "."
			}
			name += fmt.Sprint(x)
		}
		routers[r] = t.AddSwitch(name, hpr+2*len(dims))
		t.Nodes[routers[r]].Coord = c
	}
	for r := range total {
		for i, n := range dims {
			c := coord(r)
			if c[i]+1 < n {
				c[i]++
			} else if wrap && n > 1 {
				c[i] = 0
			} else {
				continue
			}
			mustLink(t, routers[r], hpr+2*i, routers[index(c)], hpr+2*i+1)
		}
	}
	for r := range total {
		for j := range hpr {
			mustLink(t, t.AddHost(fmt.Sprintf("H%d", r*hpr+j)), 0, routers[r], j)
		}
	}
	return t
}

// randomTopo builds a connected irregular topology of nSw switches, as an
// ibnetdiscover import would give (no Level, no Coord): a random spanning
// tree plus extra random links (parallel links allowed), each switch with
// at most deg switch links, and nHosts hosts on random switches, each
// switch with room for hostRoom of them.
func randomTopo(seed uint64, nSw, deg, extra, nHosts, hostRoom int) *Topology {
	rng := rand.New(rand.NewPCG(seed, 7))
	t := &Topology{Kind: "ibnetdiscover"}
	sw := make([]NodeID, nSw)
	used := make([]int, nSw)
	for i := range sw {
		sw[i] = t.AddSwitch(fmt.Sprintf("S%d", i), deg+hostRoom)
	}
	link := func(a, b int) {
		mustLink(t, sw[a], used[a], sw[b], used[b])
		used[a]++
		used[b]++
	}
	for i := 1; i < nSw; i++ {
		for {
			if j := rng.IntN(i); used[j] < deg {
				link(i, j)
				break
			}
		}
	}
	for range extra {
		for try := 0; try < 100; try++ {
			a, b := rng.IntN(nSw), rng.IntN(nSw)
			if a != b && used[a] < deg && used[b] < deg {
				link(a, b)
				break
			}
		}
	}
	hosted := make([]int, nSw)
	for h := range nHosts {
		for {
			if s := rng.IntN(nSw); hosted[s] < hostRoom {
				mustLink(t, t.AddHost(fmt.Sprintf("H%d", h)), 0, sw[s], deg+hosted[s])
				hosted[s]++
				break
			}
		}
	}
	return t
}

// trace follows r from host src to lid and returns the channels the packet
// leaves by (global ports of f): the source host's port, then one output
// port per switch. It fails tb on a hole, a loop or a wrong end.
func trace(tb testing.TB, f *Fabric, r *Routes, src, lid int) []int32 {
	tb.Helper()
	dst := lid >> r.LMC
	gp := f.base[f.hosts[src]]
	path := []int32{gp}
	for len(path) <= len(f.t.Nodes) {
		pp := f.peer[gp]
		if pp < 0 {
			tb.Fatalf("host %d to LID %d: port %d leads nowhere", src, lid, gp)
		}
		n := f.owner[pp]
		if h := f.host[n]; h >= 0 {
			if int(h) != dst {
				tb.Fatalf("host %d to LID %d arrives at host %d", src, lid, h)
			}
			return path
		}
		out := r.LFT[f.sw[n]][lid]
		if out < 0 || int(out) >= f.t.Nodes[n].Ports {
			tb.Fatalf("host %d to LID %d: switch %s has entry %d", src, lid, f.t.Nodes[n].Name, out)
		}
		gp = f.base[n] + out
		path = append(path, gp)
	}
	tb.Fatalf("host %d to LID %d loops", src, lid)
	return nil
}

// dependencies returns, per VL, every pair of channels some route of r
// uses back to back, by tracing every source to every LID: a plain
// reference for check's per-destination trees.
func dependencies(tb testing.TB, f *Fabric, r *Routes, vls int) []map[[2]int32]bool {
	deps := make([]map[[2]int32]bool, vls)
	for v := range deps {
		deps[v] = map[[2]int32]bool{}
	}
	for lid := range len(f.hosts) << r.LMC {
		for src := range f.hosts {
			if src == lid>>r.LMC {
				continue
			}
			path := trace(tb, f, r, src, lid)
			v := r.SL(src, lid) % vls
			for i := 1; i < len(path); i++ {
				deps[v][[2]int32{path[i-1], path[i]}] = true
			}
		}
	}
	return deps
}

// acyclic reports whether the dependency graph deps has no cycle, by
// Kahn's algorithm.
func acyclic(deps map[[2]int32]bool) bool {
	indeg := map[int32]int{}
	out := map[int32][]int32{}
	for e := range deps {
		indeg[e[1]]++
		if _, ok := indeg[e[0]]; !ok {
			indeg[e[0]] = 0
		}
		out[e[0]] = append(out[e[0]], e[1])
	}
	var ready []int32
	for c, d := range indeg {
		if d == 0 {
			ready = append(ready, c)
		}
	}
	done := 0
	for len(ready) > 0 {
		c := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		done++
		for _, d := range out[c] {
			if indeg[d]--; indeg[d] == 0 {
				ready = append(ready, d)
			}
		}
	}
	return done == len(indeg)
}

// linkHops returns, for every host, the number of links on a shortest path
// from it to host dst (Topology.HopsTo, independent of routing).
func linkHops(t *Topology, dst NodeID) []int {
	dist := make([]int, len(t.Nodes))
	t.HopsTo(t.Neighbours(), dst, dist)
	return dist
}

// leveled is a switch of a hand-made tree: its name and Level.
type leveled struct {
	name  string
	level int
}

// addLeveled adds a switch of ports ports to top for each of ss, in
// order, with its Level, and returns them by name.
func addLeveled(top *Topology, ports int, ss ...leveled) map[string]NodeID {
	sw := map[string]NodeID{}
	for _, s := range ss {
		sw[s.name] = top.AddSwitch(s.name, ports)
		top.Nodes[sw[s.name]].Level = s.level
	}
	return sw
}

// clockwiseRoutes are routes on a ring of ringTopo sending every packet
// clockwise (local port 1) to the switch of its destination, and there to
// its host (port 0): a routing whose channels close a cycle.
func clockwiseRoutes(f *Fabric) *Routes {
	r := f.newRoutes(0)
	n := len(r.LFT)
	for s := range n {
		for g := range n {
			r.LFT[s][g] = 1
			if s == g {
				r.LFT[s][g] = 0
			}
		}
	}
	return r
}
