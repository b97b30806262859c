package fabric_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// checkWellFormed checks what every topology must satisfy: links join
// existing ports of distinct nodes, each port carries at most one link,
// hosts have one port and names are unique.
func checkWellFormed(t *testing.T, topo *fabric.Topology) {
	t.Helper()
	names := map[string]bool{}
	for _, n := range topo.Nodes {
		if names[n.Name] {
			t.Fatalf("two nodes named %q", n.Name)
		}
		names[n.Name] = true
		if n.Host && n.Ports != 1 {
			t.Fatalf("host %s has %d ports", n.Name, n.Ports)
		}
	}
	used := map[[2]int]bool{}
	for _, l := range topo.Links {
		if l.A == l.B {
			t.Fatalf("link %+v joins a node to itself", l)
		}
		for _, e := range [][2]int{{int(l.A), l.APort}, {int(l.B), l.BPort}} {
			if e[1] < 0 || e[1] >= topo.Nodes[e[0]].Ports {
				t.Fatalf("link %+v uses port %d of %s, which has %d", l, e[1], topo.Nodes[e[0]].Name, topo.Nodes[e[0]].Ports)
			}
			if used[e] {
				t.Fatalf("port %d of %s carries two links", e[1], topo.Nodes[e[0]].Name)
			}
			used[e] = true
		}
		if !(l.Gbps > 0) {
			t.Fatalf("link %+v has no rate", l)
		}
	}
}

// hostsReachable counts the hosts reachable from the first host through
// switches (hosts do not forward).
func hostsReachable(topo *fabric.Topology) int {
	adj := make([][]fabric.NodeID, len(topo.Nodes))
	for _, l := range topo.Links {
		adj[l.A] = append(adj[l.A], l.B)
		adj[l.B] = append(adj[l.B], l.A)
	}
	start := topo.Hosts()[0]
	seen := make([]bool, len(topo.Nodes))
	seen[start] = true
	queue := []fabric.NodeID{start}
	hosts := 1
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if topo.Nodes[u].Host && u != start {
			continue
		}
		for _, v := range adj[u] {
			if !seen[v] {
				seen[v] = true
				queue = append(queue, v)
				if topo.Nodes[v].Host {
					hosts++
				}
			}
		}
	}
	return hosts
}

// hostSwitch returns the switch each host (by host index) links to and the
// switch's port.
func hostSwitch(t *testing.T, topo *fabric.Topology) (sw []fabric.NodeID, port []int) {
	t.Helper()
	index := map[fabric.NodeID]int{}
	for i, h := range topo.Hosts() {
		index[h] = i
	}
	sw = make([]fabric.NodeID, len(index))
	port = make([]int, len(index))
	for i := range sw {
		sw[i] = -1
	}
	for _, l := range topo.Links {
		a, b, pb := l.A, l.B, l.BPort
		if topo.Nodes[b].Host {
			a, b, pb = b, a, l.APort
		}
		if !topo.Nodes[a].Host {
			continue
		}
		if topo.Nodes[b].Host {
			t.Fatalf("hosts %s and %s are linked to each other", topo.Nodes[a].Name, topo.Nodes[b].Name)
		}
		if sw[index[a]] >= 0 {
			t.Fatalf("host %s has two links", topo.Nodes[a].Name)
		}
		sw[index[a]], port[index[a]] = b, pb
	}
	for i, s := range sw {
		if s < 0 {
			t.Fatalf("host %d has no link", i)
		}
	}
	return sw, port
}

// checkHostNames wants host index i to be called H<i+1>.
func checkHostNames(t *testing.T, topo *fabric.Topology) {
	t.Helper()
	for i, h := range topo.Hosts() {
		if want := fmt.Sprintf("H%d", i+1); topo.Nodes[h].Name != want {
			t.Fatalf("host %d is %s, want %s", i, topo.Nodes[h].Name, want)
		}
	}
}

func pow(k, n int) int {
	p := 1
	for range n {
		p *= k
	}
	return p
}

func TestTopoFatTreeShape(t *testing.T) {
	for _, c := range []struct{ k, n int }{{2, 1}, {5, 1}, {2, 2}, {4, 2}, {2, 3}, {3, 3}, {4, 3}, {2, 4}, {3, 4}} {
		t.Run(fmt.Sprintf("k%d_n%d", c.k, c.n), func(t *testing.T) {
			k, n := c.k, c.n
			topo, err := fabric.GenerateTopology("fattree", fabric.TopoParams{K: k, Levels: n, HostGbps: 16, SwitchGbps: 32})
			if err != nil {
				t.Fatal(err)
			}
			checkWellFormed(t, topo)
			checkHostNames(t, topo)
			hosts, sws := topo.Hosts(), topo.Switches()
			if len(hosts) != pow(k, n) || len(sws) != n*pow(k, n-1) {
				t.Fatalf("%d hosts and %d switches, want %d and %d", len(hosts), len(sws), pow(k, n), n*pow(k, n-1))
			}
			if len(topo.Links) != n*pow(k, n) {
				t.Fatalf("%d links, want %d", len(topo.Links), n*pow(k, n))
			}
			perLevel := map[int]int{}
			for _, s := range sws {
				nd := topo.Nodes[s]
				perLevel[nd.Level]++
				want := 2 * k
				if nd.Level == n {
					want = k
				}
				if nd.Ports != want {
					t.Fatalf("%s (level %d) has %d ports, want %d", nd.Name, nd.Level, nd.Ports, want)
				}
				if want := fmt.Sprintf("S%d_%d", nd.Level, perLevel[nd.Level]); nd.Name != want {
					t.Fatalf("switch %s, want %s", nd.Name, want)
				}
			}
			for l := 1; l <= n; l++ {
				if perLevel[l] != pow(k, n-1) {
					t.Fatalf("level %d has %d switches, want %d", l, perLevel[l], pow(k, n-1))
				}
			}
			// Hosts sit on level-1 switches, k consecutive hosts per leaf.
			for _, l := range topo.Links {
				if (topo.Nodes[l.A].Host || topo.Nodes[l.B].Host) && l.Gbps != 16 {
					t.Fatalf("host link at %g Gbit/s, want 16", l.Gbps)
				}
			}
			sw, port := hostSwitch(t, topo)
			for i := range hosts {
				if nd := topo.Nodes[sw[i]]; nd.Level != 1 || nd.Name != fmt.Sprintf("S1_%d", i/k+1) || port[i] != i%k {
					t.Fatalf("host H%d on %s port %d, want S1_%d port %d", i+1, nd.Name, port[i]+1, i/k+1, i%k+1)
				}
			}
			// Switch links join adjacent levels, down ports (0..k-1) of
			// the upper one with up ports (k..2k-1) of the lower one; every
			// switch port is linked.
			linked := 0
			for _, l := range topo.Links {
				a, b := topo.Nodes[l.A], topo.Nodes[l.B]
				if a.Host || b.Host {
					continue
				}
				lo, lp, hi, hp := a, l.APort, b, l.BPort
				if lo.Level > hi.Level {
					lo, lp, hi, hp = hi, hp, lo, lp
				}
				if hi.Level != lo.Level+1 || lp < k || hp >= k {
					t.Fatalf("link %s port %d - %s port %d: want level l up port to level l+1 down port", lo.Name, lp+1, hi.Name, hp+1)
				}
				if l.Gbps != 32 {
					t.Fatalf("link %s-%s at %g Gbit/s, want 32", lo.Name, hi.Name, l.Gbps)
				}
				linked += 2
			}
			free := 0
			for _, s := range sws {
				free += topo.Nodes[s].Ports
			}
			if free -= linked + len(hosts); free != 0 {
				t.Fatalf("%d switch ports unlinked", free)
			}
			checkUpPaths(t, topo, n)
		})
	}
}

// checkUpPaths wants what makes a k-ary n-tree a fat tree rather than any
// leveled graph: from every leaf, exactly one upward path to every top
// switch.
func checkUpPaths(t *testing.T, topo *fabric.Topology, n int) {
	t.Helper()
	up := map[fabric.NodeID][]fabric.NodeID{}
	for _, l := range topo.Links {
		a, b := l.A, l.B
		if topo.Nodes[a].Host || topo.Nodes[b].Host {
			continue
		}
		if topo.Nodes[a].Level > topo.Nodes[b].Level {
			a, b = b, a
		}
		up[a] = append(up[a], b)
	}
	var tops int
	for _, s := range topo.Switches() {
		if topo.Nodes[s].Level == n {
			tops++
		}
	}
	for _, s := range topo.Switches() {
		if topo.Nodes[s].Level != 1 {
			continue
		}
		paths := map[fabric.NodeID]int{s: 1}
		for l := 1; l < n; l++ {
			next := map[fabric.NodeID]int{}
			for v, c := range paths {
				for _, w := range up[v] {
					next[w] += c
				}
			}
			paths = next
		}
		if len(paths) != tops {
			t.Fatalf("leaf %s reaches %d of %d top switches", topo.Nodes[s].Name, len(paths), tops)
		}
		for v, c := range paths {
			if c != 1 {
				t.Fatalf("leaf %s has %d up paths to %s, want 1", topo.Nodes[s].Name, c, topo.Nodes[v].Name)
			}
		}
	}
}

func TestTopoClosShape(t *testing.T) {
	for _, c := range []struct {
		name string
		p    fabric.TopoParams
		// the shape the parameters stand for, and the rates of all links
		leaves, spines, hpl, lpp int
		hostGbps, swGbps         float64
	}{
		{"648", fabric.TopoParams{Preset: "648", HostGbps: 16, SwitchGbps: 16}, 36, 18, 18, 1, 32, 32},
		{"648_agreeing_fields", fabric.TopoParams{Preset: "648", Leaves: 36, HostsPerLeaf: 18}, 36, 18, 18, 1, 32, 32},
		{"4x3x5", fabric.TopoParams{Leaves: 4, Spines: 3, HostsPerLeaf: 5, HostGbps: 16, SwitchGbps: 32}, 4, 3, 5, 1, 16, 32},
		{"3x2x4_pairs2", fabric.TopoParams{Leaves: 3, Spines: 2, HostsPerLeaf: 4, LinksPerPair: 2, HostGbps: 8, SwitchGbps: 8}, 3, 2, 4, 2, 8, 8},
		{"1x1x1", fabric.TopoParams{Leaves: 1, Spines: 1, HostsPerLeaf: 1, HostGbps: 8, SwitchGbps: 8}, 1, 1, 1, 1, 8, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			topo, err := fabric.GenerateTopology("clos", c.p)
			if err != nil {
				t.Fatal(err)
			}
			checkWellFormed(t, topo)
			checkHostNames(t, topo)
			hosts := c.leaves * c.hpl
			if got := len(topo.Hosts()); got != hosts {
				t.Fatalf("%d hosts, want %d", got, hosts)
			}
			if got := len(topo.Switches()); got != c.leaves+c.spines {
				t.Fatalf("%d switches, want %d", got, c.leaves+c.spines)
			}
			if got, want := len(topo.Links), hosts+c.leaves*c.spines*c.lpp; got != want {
				t.Fatalf("%d links, want %d", got, want)
			}
			for i, s := range topo.Switches() {
				nd := topo.Nodes[s]
				name, level, ports := fmt.Sprintf("L%d", i+1), 1, c.hpl+c.spines*c.lpp
				if i >= c.leaves {
					name, level, ports = fmt.Sprintf("S%d", i-c.leaves+1), 2, c.leaves*c.lpp
				}
				if nd.Name != name || nd.Level != level || nd.Ports != ports {
					t.Fatalf("switch %d is %s level %d with %d ports, want %s level %d with %d", i, nd.Name, nd.Level, nd.Ports, name, level, ports)
				}
			}
			sw, port := hostSwitch(t, topo)
			for i := range sw {
				if got, want := topo.Nodes[sw[i]].Name, fmt.Sprintf("L%d", i/c.hpl+1); got != want || port[i] != i%c.hpl {
					t.Fatalf("H%d on %s port %d, want %s port %d", i+1, got, port[i]+1, want, i%c.hpl+1)
				}
			}
			pairs := map[[2]string]int{}
			for _, l := range topo.Links {
				a, b := topo.Nodes[l.A], topo.Nodes[l.B]
				want := c.swGbps
				if a.Host || b.Host {
					want = c.hostGbps
				} else {
					if a.Level != 1 || b.Level != 2 {
						t.Fatalf("link %s-%s is not leaf-spine", a.Name, b.Name)
					}
					// link j of leaf li to spine si: leaf port hpl +
					// j*spines + si, spine port li*lpp + j
					var li, si int
					fmt.Sscanf(a.Name, "L%d", &li)
					fmt.Sscanf(b.Name, "S%d", &si)
					li, si = li-1, si-1
					j := pairs[[2]string{a.Name, b.Name}]
					if l.APort != c.hpl+j*c.spines+si || l.BPort != li*c.lpp+j {
						t.Fatalf("link %d of %s-%s joins ports %d and %d, want %d and %d", j+1, a.Name, b.Name,
							l.APort+1, l.BPort+1, c.hpl+j*c.spines+si+1, li*c.lpp+j+1)
					}
					pairs[[2]string{a.Name, b.Name}]++
				}
				if l.Gbps != want {
					t.Fatalf("link %s-%s at %g Gbit/s, want %g", a.Name, b.Name, l.Gbps, want)
				}
			}
			if len(pairs) != c.leaves*c.spines {
				t.Fatalf("%d leaf-spine pairs linked, want %d", len(pairs), c.leaves*c.spines)
			}
			for pr, n := range pairs {
				if n != c.lpp {
					t.Fatalf("%s-%s has %d links, want %d", pr[0], pr[1], n, c.lpp)
				}
			}
		})
	}
}

func TestTopoMeshTorusShape(t *testing.T) {
	for _, kind := range []string{"mesh", "torus"} {
		for _, c := range []struct {
			dims []int
			h    int
		}{{[]int{2}, 1}, {[]int{5}, 2}, {[]int{2, 2}, 1}, {[]int{4, 4}, 1}, {[]int{3, 5}, 2}, {[]int{2, 3}, 3}, {[]int{2, 2, 2}, 1}, {[]int{3, 3, 3}, 1}, {[]int{4, 3, 2}, 2}} {
			t.Run(fmt.Sprintf("%s_%v_h%d", kind, c.dims, c.h), func(t *testing.T) {
				topo, err := fabric.GenerateTopology(kind, fabric.TopoParams{Dims: c.dims, HostsPerRouter: c.h, HostGbps: 16, SwitchGbps: 32})
				if err != nil {
					t.Fatal(err)
				}
				checkWellFormed(t, topo)
				checkHostNames(t, topo)
				wrap := kind == "torus"
				if topo.Kind != kind || topo.Wrap != wrap || !reflect.DeepEqual(topo.Dims, c.dims) {
					t.Fatalf("kind %q wrap %v dims %v", topo.Kind, topo.Wrap, topo.Dims)
				}
				nd := len(c.dims)
				routers, swLinks := 1, 0
				for _, x := range c.dims {
					routers *= x
				}
				for _, x := range c.dims {
					if wrap {
						swLinks += routers
					} else {
						swLinks += routers / x * (x - 1)
					}
				}
				sws := topo.Switches()
				if len(sws) != routers || len(topo.Hosts()) != routers*c.h {
					t.Fatalf("%d routers and %d hosts, want %d and %d", len(sws), len(topo.Hosts()), routers, routers*c.h)
				}
				if len(topo.Links) != routers*c.h+swLinks {
					t.Fatalf("%d links, want %d", len(topo.Links), routers*c.h+swLinks)
				}
				seen := map[string]bool{}
				for r, s := range sws {
					n := topo.Nodes[s]
					if n.Name != fmt.Sprintf("R%d", r+1) || n.Level != 0 || n.Ports != c.h+2*nd || len(n.Coord) != nd {
						t.Fatalf("router %d: %s level %d ports %d coord %v", r, n.Name, n.Level, n.Ports, n.Coord)
					}
					idx, scale := 0, 1
					for d, x := range c.dims {
						idx += n.Coord[d] * scale
						scale *= x
					}
					if idx != r || seen[fmt.Sprint(n.Coord)] {
						t.Fatalf("router %s at %v: coordinates not c0 + D0*(c1 + D1*c2) or not unique", n.Name, n.Coord)
					}
					seen[fmt.Sprint(n.Coord)] = true
				}
				sw, port := hostSwitch(t, topo)
				for i := range sw {
					if sw[i] != sws[i/c.h] || port[i] != i%c.h {
						t.Fatalf("H%d on %s port %d, want R%d port %d", i+1, topo.Nodes[sw[i]].Name, port[i]+1, i/c.h+1, i%c.h+1)
					}
				}
				linked := map[[2]int]bool{}
				for _, l := range topo.Links {
					a, b := topo.Nodes[l.A], topo.Nodes[l.B]
					if a.Host || b.Host {
						continue
					}
					// A's plus port of dimension d meets B's minus port, B
					// one step further along d (modulo the extent in a torus).
					d := (l.APort - c.h) / 2
					if (l.APort-c.h)%2 != 1 || l.BPort != l.APort-1 {
						t.Fatalf("link %s port %d - %s port %d: want a plus port to a minus port", a.Name, l.APort+1, b.Name, l.BPort+1)
					}
					for e := range nd {
						want := a.Coord[e]
						if e == d {
							want++
							if wrap {
								want %= c.dims[d]
							}
						}
						if b.Coord[e] != want {
							t.Fatalf("link %s %v - %s %v along dimension %d: neighbours must differ by 1 in that coordinate only", a.Name, a.Coord, b.Name, b.Coord, d)
						}
					}
					if l.Gbps != 32 {
						t.Fatalf("router link at %g Gbit/s", l.Gbps)
					}
					linked[[2]int{int(l.A), l.APort}] = true
					linked[[2]int{int(l.B), l.BPort}] = true
				}
				for _, s := range sws {
					n := topo.Nodes[s]
					for d := range nd {
						for dir := range 2 {
							border := (dir == 0 && n.Coord[d] == 0) || (dir == 1 && n.Coord[d] == c.dims[d]-1)
							if want := wrap || !border; linked[[2]int{int(s), c.h + 2*d + dir}] != want {
								t.Fatalf("%s %v port %d linked %v, want %v", n.Name, n.Coord, c.h+2*d+dir+1, !want, want)
							}
						}
					}
				}
			})
		}
	}
}

// TestTopoConnected wants every host to reach every host, through
// switches only, on every generator at several sizes.
func TestTopoConnected(t *testing.T) {
	for _, c := range []struct {
		kind string
		p    fabric.TopoParams
	}{
		{"fattree", fabric.TopoParams{K: 2, Levels: 1}},
		{"fattree", fabric.TopoParams{K: 3, Levels: 2}},
		{"fattree", fabric.TopoParams{K: 4, Levels: 3}},
		{"fattree", fabric.TopoParams{K: 2, Levels: 4}},
		{"fattree", fabric.TopoParams{K: 16, Levels: 3}},
		{"fattree", fabric.TopoParams{K: 48, Levels: 2}},
		{"clos", fabric.TopoParams{Preset: "648"}},
		{"clos", fabric.TopoParams{Leaves: 5, Spines: 2, HostsPerLeaf: 3, LinksPerPair: 3}},
		{"clos", fabric.TopoParams{Leaves: 1, Spines: 1, HostsPerLeaf: 2}},
		{"mesh", fabric.TopoParams{Dims: []int{7}, HostsPerRouter: 1}},
		{"mesh", fabric.TopoParams{Dims: []int{8, 8}, HostsPerRouter: 2}},
		{"mesh", fabric.TopoParams{Dims: []int{2, 3, 4}, HostsPerRouter: 1}},
		{"torus", fabric.TopoParams{Dims: []int{2}, HostsPerRouter: 1}},
		{"torus", fabric.TopoParams{Dims: []int{6, 5}, HostsPerRouter: 1}},
		{"torus", fabric.TopoParams{Dims: []int{4, 4, 4}, HostsPerRouter: 2}},
	} {
		c.p.HostGbps, c.p.SwitchGbps = 16, 32
		t.Run(fmt.Sprintf("%s_%d_%d_%d_%d_%v", c.kind, c.p.K, c.p.Levels, c.p.Leaves, c.p.Spines, c.p.Dims), func(t *testing.T) {
			topo, err := fabric.GenerateTopology(c.kind, c.p)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := hostsReachable(topo), len(topo.Hosts()); got != want {
				t.Fatalf("H1 reaches %d of %d hosts", got, want)
			}
			if len(topo.Hosts()) <= 64 {
				// up*/down* is deadlock-free on any topology, so it must route
				// every generated one (minhop is not, on meshes and tori).
				if _, err := fabric.ComputeRoutes(topo, "updn", 0, 1); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestTopoDeterministic wants the same parameters to give the same
// topology, node for node and link for link.
func TestTopoDeterministic(t *testing.T) {
	for _, c := range []struct {
		kind string
		p    fabric.TopoParams
	}{
		{"fattree", fabric.TopoParams{K: 3, Levels: 3, HostGbps: 8, SwitchGbps: 8}},
		{"clos", fabric.TopoParams{Preset: "648"}},
		{"torus", fabric.TopoParams{Dims: []int{3, 4}, HostsPerRouter: 2, HostGbps: 8, SwitchGbps: 8}},
	} {
		a, err := fabric.GenerateTopology(c.kind, c.p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := fabric.GenerateTopology(c.kind, c.p)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: two generations differ", c.kind)
		}
	}
}

func TestTopoRefusesBadParameters(t *testing.T) {
	ok := func(p fabric.TopoParams) fabric.TopoParams { p.HostGbps, p.SwitchGbps = 16, 32; return p }
	for _, c := range []struct {
		name, kind string
		p          fabric.TopoParams
		want       string // in the message
	}{
		{"unknown kind", "hypercube", ok(fabric.TopoParams{}), `unknown topology "hypercube"`},
		{"fattree k 1", "fattree", ok(fabric.TopoParams{K: 1, Levels: 2}), "fattree k 1: want 2 to 127"},
		{"fattree k 128", "fattree", ok(fabric.TopoParams{K: 128, Levels: 2}), "fattree k 128: want 2 to 127"},
		{"fattree levels 0", "fattree", ok(fabric.TopoParams{K: 4}), "fattree levels 0: want 1 to 4"},
		{"fattree levels 5", "fattree", ok(fabric.TopoParams{K: 2, Levels: 5}), "fattree levels 5: want 1 to 4"},
		{"fattree too big", "fattree", ok(fabric.TopoParams{K: 127, Levels: 4}), "k 127, levels 4 gives more than 100000 hosts"},
		{"host rate 0", "fattree", fabric.TopoParams{K: 2, Levels: 2, SwitchGbps: 32}, "host_link_gbps 0"},
		{"switch rate NaN", "mesh", fabric.TopoParams{Dims: []int{2}, HostsPerRouter: 1, HostGbps: 16, SwitchGbps: math.NaN()}, "switch_link_gbps NaN"},
		{"switch rate Inf", "clos", fabric.TopoParams{Leaves: 2, Spines: 2, HostsPerLeaf: 2, HostGbps: 16, SwitchGbps: math.Inf(1)}, "switch_link_gbps +Inf"},
		{"clos leaves 0", "clos", ok(fabric.TopoParams{Spines: 2, HostsPerLeaf: 2}), "clos leaves 0: want 1 to 254"},
		{"clos spines 0", "clos", ok(fabric.TopoParams{Leaves: 2, HostsPerLeaf: 2}), "clos spines 0: want 1 to 254"},
		{"clos hosts_per_leaf -1", "clos", ok(fabric.TopoParams{Leaves: 2, Spines: 2, HostsPerLeaf: -1}), "clos hosts_per_leaf -1: want 1 to 254"},
		{"clos leaf ports", "clos", ok(fabric.TopoParams{Leaves: 2, Spines: 200, HostsPerLeaf: 60}), "hosts_per_leaf 60 + spines 200 * links_per_pair 1: want at most 254 ports per leaf"},
		{"clos spine ports", "clos", ok(fabric.TopoParams{Leaves: 200, Spines: 2, HostsPerLeaf: 2, LinksPerPair: 2}), "leaves 200 * links_per_pair 2: want at most 254 ports per spine"},
		{"clos preset unknown", "clos", fabric.TopoParams{Preset: "324"}, `clos preset "324": want one of 648`},
		{"clos preset conflict", "clos", fabric.TopoParams{Preset: "648", Spines: 9}, "clos preset 648 has spines 18, not 9"},
		{"mesh no dims", "mesh", ok(fabric.TopoParams{HostsPerRouter: 1}), "mesh number of dims 0: want 1 to 3"},
		{"torus 4 dims", "torus", ok(fabric.TopoParams{Dims: []int{2, 2, 2, 2}, HostsPerRouter: 1}), "torus number of dims 4: want 1 to 3"},
		{"mesh dim 1", "mesh", ok(fabric.TopoParams{Dims: []int{4, 1}, HostsPerRouter: 1}), "mesh dims[1] 1: want 2 to 100000"},
		{"torus hosts_per_router 0", "torus", ok(fabric.TopoParams{Dims: []int{4, 4}}), "torus hosts_per_router 0: want 1 to 250"},
		{"torus too big", "torus", ok(fabric.TopoParams{Dims: []int{100000, 100000, 100000}, HostsPerRouter: 1}), "gives more than 100000 hosts"},
		{"mesh too many hosts", "mesh", ok(fabric.TopoParams{Dims: []int{100, 100}, HostsPerRouter: 11}), "gives more than 100000 hosts"},
	} {
		t.Run(c.name, func(t *testing.T) {
			topo, err := fabric.GenerateTopology(c.kind, c.p)
			if err == nil {
				t.Fatalf("accepted: %d nodes", len(topo.Nodes))
			}
			if !errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %q, want ErrBadScenario saying %q", err, c.want)
			}
		})
	}
}

func BenchmarkTopoGenerate(b *testing.B) {
	for _, c := range []struct {
		name, kind string
		p          fabric.TopoParams
	}{
		{"clos648", "clos", fabric.TopoParams{Preset: "648"}},
		{"fattree16x3", "fattree", fabric.TopoParams{K: 16, Levels: 3, HostGbps: 32, SwitchGbps: 32}},
		{"fattree48x2", "fattree", fabric.TopoParams{K: 48, Levels: 2, HostGbps: 32, SwitchGbps: 32}},
		{"torus32x32x32", "torus", fabric.TopoParams{Dims: []int{32, 32, 32}, HostsPerRouter: 1, HostGbps: 32, SwitchGbps: 32}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := fabric.GenerateTopology(c.kind, c.p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
