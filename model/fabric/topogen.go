package fabric

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// TopologyKinds are the generators GenerateTopology knows.
var TopologyKinds = []string{"fattree", "clos", "mesh", "torus"}

// ClosPresets are the named clos shapes of TopoParams.Preset.
var ClosPresets = []string{"648"}

// Generator limits: a generated topology has at most maxTopoHosts hosts
// and no switch has more than maxSwitchPorts ports (IB port numbers are 8
// bits; 255 is reserved).
const (
	maxTopoHosts   = 100000
	maxSwitchPorts = 254
)

// MaxSwitchPorts is the most ports a switch may have, and so the most
// leaves, spines or hosts per leaf a clos may have.
const MaxSwitchPorts = maxSwitchPorts

// qdr4xGbps is the data rate of a 4x QDR link: 4 lanes of 10 Gbit/s
// signalling with 8b/10b encoding.
const qdr4xGbps = 32

// TopoParams are a generator's parameters; each generator reads the fields
// of its kind and ignores the others. Counts are whole numbers of nodes or
// links; rates are data rates (after encoding) in Gbit/s.
type TopoParams struct {
	// fattree: a k-ary n-tree (Petrini & Vanneschi) with K^Levels hosts and
	// Levels*K^(Levels-1) switches. K is 2 to 127, Levels 1 to 4.
	K, Levels int

	// clos: a three-stage folded Clos (a two-level fat tree) of Leaves leaf
	// switches with HostsPerLeaf hosts each and Spines spine switches;
	// every leaf has LinksPerPair links (0 means 1) to every spine.
	Leaves, Spines, HostsPerLeaf, LinksPerPair int
	// Preset names a fixed clos shape (ClosPresets) instead of the four
	// fields above, which must then be 0 or agree with it. "648" is the
	// 648-port director switch: 36 leaves of 18 hosts, 18 spines of 36
	// ports, one link per leaf-spine pair, every link 4x QDR (32 Gbit/s,
	// overriding HostGbps and SwitchGbps).
	Preset string

	// mesh, torus: routers on a grid of Dims (1 to 3 dimensions, each of
	// extent 2 or more), each with HostsPerRouter hosts (1 or more).
	Dims           []int
	HostsPerRouter int

	// HostGbps is the data rate of host links, SwitchGbps of switch-switch
	// links; both must be positive.
	HostGbps, SwitchGbps float64
}

// GenerateTopology builds a topology of the given kind (TopologyKinds) from
// p. Errors wrap ErrBadScenario and name the parameter at fault with its
// allowed range; sizes are checked before anything is allocated.
//
// Every generator names hosts "H1".."Hn": host index i (Topology.Hosts) is
// "H<i+1>", and hosts sharing a switch have consecutive indices. Ports
// count from 0 in Topology; users see them counting from 1 ("L3:19").
// Host links join a host's port 0 with a switch's lowest ports; within a
// kind, every switch of a level has the same port layout:
//
//   - fattree: switch j (from 1) of level l is "S<l>_<j>", level 1 being
//     the leaves; Level is l. A switch below the top has K down ports (0 to
//     K-1, towards hosts or level l-1) and K up ports (K to 2K-1); a top
//     switch has only the K down ports. Hosts are ordered as the digits
//     p0..p(n-1) of the tree's labels, p0 most significant: host i sits on
//     leaf i/K at port i%K.
//   - clos: leaves "L1".."L<Leaves>" (Level 1), spines "S1".."S<Spines>"
//     (Level 2). Leaf ports 0 to HostsPerLeaf-1 hold hosts (host i sits on
//     leaf i/HostsPerLeaf); then link j (from 0) to spine s uses leaf port
//     HostsPerLeaf + j*Spines + s and spine port leaf*LinksPerPair + j. A
//     switch has exactly the ports it uses.
//   - mesh, torus: router r (from 0) is "R<r+1>" with Coord (c0, c1, ...),
//     c0 varying fastest: r = c0 + D0*(c1 + D1*c2). Level is 0. Ports 0 to
//     HostsPerRouter-1 hold hosts (host i sits on router i/HostsPerRouter);
//     port HostsPerRouter+2d leads towards coordinate d minus 1 and port
//     HostsPerRouter+2d+1 towards coordinate d plus 1. In a mesh, border
//     routers leave the ports that would lead outside the grid unlinked; in
//     a torus every port is linked, modulo the extent, so a dimension of
//     extent 2 has two parallel links between its two routers (the wrap
//     link and the direct one) and every router has 2*len(Dims) switch
//     links.
func GenerateTopology(kind string, p TopoParams) (*Topology, error) {
	if !slices.Contains(TopologyKinds, kind) {
		return nil, fmt.Errorf("%w: unknown topology %q (known: %s)", ErrBadScenario, kind, strings.Join(TopologyKinds, ", "))
	}
	if kind != "clos" || p.Preset == "" {
		if err := checkRates(kind, p); err != nil {
			return nil, err
		}
	}
	switch kind {
	case "fattree":
		return fatTree(p)
	case "clos":
		return clos(p)
	}
	return grid(kind, p)
}

func checkRates(kind string, p TopoParams) error {
	for _, r := range []struct {
		name string
		gbps float64
	}{{"host_link_gbps", p.HostGbps}, {"switch_link_gbps", p.SwitchGbps}} {
		if !(r.gbps > 0) || math.IsInf(r.gbps, 0) {
			return fmt.Errorf("%w: %s %s %g: want a positive data rate in Gbit/s", ErrBadScenario, kind, r.name, r.gbps)
		}
	}
	return nil
}

// checkRange refuses v outside lo..hi, naming the parameter.
func checkRange(kind, param string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%w: %s %s %d: want %d to %d", ErrBadScenario, kind, param, v, lo, hi)
	}
	return nil
}

// product returns the product of xs, or -1 once it exceeds limit.
func product(limit int, xs ...int) int {
	n := 1
	for _, x := range xs {
		if x <= 0 || n > limit/x {
			return -1
		}
		n *= x
	}
	return n
}

// tooBig is the error for a topology over maxTopoHosts hosts.
func tooBig(kind, what string) error {
	return fmt.Errorf("%w: %s: %s gives more than %d hosts", ErrBadScenario, kind, what, maxTopoHosts)
}

// linker joins ports with ConnectPorts and keeps the first error.
type linker struct {
	t   *Topology
	err error
}

func (l *linker) link(a NodeID, pa int, b NodeID, pb int, gbps float64) {
	if l.err == nil {
		l.err = l.t.ConnectPorts(a, pa, b, pb, gbps)
	}
}

// addHosts adds hosts "H<first+1>".."H<first+n>" and returns the first's ID.
func addHosts(t *Topology, first, n int) NodeID {
	id := NodeID(len(t.Nodes))
	for i := range n {
		t.AddHost(fmt.Sprintf("H%d", first+i+1))
	}
	return id
}

// fatTree builds a k-ary n-tree. A switch at level l (1 = leaf) has the
// label w = (w0..w(n-2)), switch index j = w read in base k with w0 most
// significant; switches of levels l and l+1 whose labels agree except at
// digit n-1-l are linked, the lower one by up port k+x where x is the
// upper's digit, the upper one by down port y where y is the lower's digit.
func fatTree(p TopoParams) (*Topology, error) {
	const kind = "fattree"
	if err := checkRange(kind, "k", p.K, 2, (maxSwitchPorts)/2); err != nil {
		return nil, err
	}
	if err := checkRange(kind, "levels", p.Levels, 1, 4); err != nil {
		return nil, err
	}
	k, n := p.K, p.Levels
	hosts := product(maxTopoHosts, slices.Repeat([]int{k}, n)...)
	if hosts < 0 {
		return nil, tooBig(kind, fmt.Sprintf("k %d, levels %d", k, n))
	}
	perLevel := hosts / k // k^(n-1)
	t := &Topology{Kind: kind}
	t.Nodes = make([]Node, 0, n*perLevel+hosts)
	t.Links = make([]Link, 0, n*hosts)
	sw := make([][]NodeID, n+1) // sw[level][j]
	for l := 1; l <= n; l++ {
		ports := 2 * k
		if l == n {
			ports = k
		}
		sw[l] = make([]NodeID, perLevel)
		for j := range perLevel {
			sw[l][j] = t.AddSwitch(fmt.Sprintf("S%d_%d", l, j+1), ports)
			t.Nodes[sw[l][j]].Level = l
		}
	}
	h0 := addHosts(t, 0, hosts)
	ln := linker{t: t}
	for i := range hosts {
		ln.link(h0+NodeID(i), 0, sw[1][i/k], i%k, p.HostGbps)
	}
	for l := 1; l < n; l++ {
		// digit n-1-l of a label, counted from w0, has weight k^(l-1) when
		// the label is read in base k with w0 most significant.
		weight := product(maxTopoHosts, slices.Repeat([]int{k}, l-1)...)
		for j := range perLevel {
			y := j / weight % k
			for x := range k {
				upper := j + (x-y)*weight
				ln.link(sw[l][j], k+x, sw[l+1][upper], y, p.SwitchGbps)
			}
		}
	}
	if ln.err != nil {
		return nil, ln.err
	}
	return t, nil
}

// clos builds a folded three-stage Clos network (see GenerateTopology).
func clos(p TopoParams) (*Topology, error) {
	const kind = "clos"
	if p.Preset != "" {
		if p.Preset != "648" {
			return nil, fmt.Errorf("%w: clos preset %q: want one of %s", ErrBadScenario, p.Preset, strings.Join(ClosPresets, ", "))
		}
		fixed := TopoParams{Leaves: 36, Spines: 18, HostsPerLeaf: 18, LinksPerPair: 1}
		for _, f := range []struct {
			name      string
			got, want int
		}{{"leaves", p.Leaves, fixed.Leaves}, {"spines", p.Spines, fixed.Spines},
			{"hosts_per_leaf", p.HostsPerLeaf, fixed.HostsPerLeaf}, {"links_per_pair", p.LinksPerPair, fixed.LinksPerPair}} {
			if f.got != 0 && f.got != f.want {
				return nil, fmt.Errorf("%w: clos preset %s has %s %d, not %d", ErrBadScenario, p.Preset, f.name, f.want, f.got)
			}
		}
		fixed.HostGbps, fixed.SwitchGbps = qdr4xGbps, qdr4xGbps
		p = fixed
	}
	if p.LinksPerPair == 0 {
		p.LinksPerPair = 1
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"leaves", p.Leaves}, {"spines", p.Spines}, {"hosts_per_leaf", p.HostsPerLeaf}, {"links_per_pair", p.LinksPerPair}} {
		if err := checkRange(kind, f.name, f.v, 1, maxSwitchPorts); err != nil {
			return nil, err
		}
	}
	uplinks := product(maxSwitchPorts, p.Spines, p.LinksPerPair)
	if uplinks < 0 || p.HostsPerLeaf+uplinks > maxSwitchPorts {
		return nil, fmt.Errorf("%w: clos: hosts_per_leaf %d + spines %d * links_per_pair %d: want at most %d ports per leaf",
			ErrBadScenario, p.HostsPerLeaf, p.Spines, p.LinksPerPair, maxSwitchPorts)
	}
	spinePorts := product(maxSwitchPorts, p.Leaves, p.LinksPerPair)
	if spinePorts < 0 {
		return nil, fmt.Errorf("%w: clos: leaves %d * links_per_pair %d: want at most %d ports per spine",
			ErrBadScenario, p.Leaves, p.LinksPerPair, maxSwitchPorts)
	}
	hosts := p.Leaves * p.HostsPerLeaf // at most 254*254
	t := &Topology{Kind: kind}
	t.Nodes = make([]Node, 0, p.Leaves+p.Spines+hosts)
	t.Links = make([]Link, 0, hosts+p.Leaves*uplinks)
	leaf := make([]NodeID, p.Leaves)
	for i := range leaf {
		leaf[i] = t.AddSwitch(fmt.Sprintf("L%d", i+1), p.HostsPerLeaf+uplinks)
		t.Nodes[leaf[i]].Level = 1
	}
	spine := make([]NodeID, p.Spines)
	for s := range spine {
		spine[s] = t.AddSwitch(fmt.Sprintf("S%d", s+1), spinePorts)
		t.Nodes[spine[s]].Level = 2
	}
	h0 := addHosts(t, 0, hosts)
	ln := linker{t: t}
	for i := range hosts {
		ln.link(h0+NodeID(i), 0, leaf[i/p.HostsPerLeaf], i%p.HostsPerLeaf, p.HostGbps)
	}
	for l := range leaf {
		for j := range p.LinksPerPair {
			for s := range spine {
				ln.link(leaf[l], p.HostsPerLeaf+j*p.Spines+s, spine[s], l*p.LinksPerPair+j, p.SwitchGbps)
			}
		}
	}
	if ln.err != nil {
		return nil, ln.err
	}
	return t, nil
}

// grid builds a mesh or a torus (see GenerateTopology).
func grid(kind string, p TopoParams) (*Topology, error) {
	if err := checkRange(kind, "number of dims", len(p.Dims), 1, 3); err != nil {
		return nil, err
	}
	for d, x := range p.Dims {
		if err := checkRange(kind, fmt.Sprintf("dims[%d]", d), x, 2, maxTopoHosts); err != nil {
			return nil, err
		}
	}
	nd := len(p.Dims)
	if err := checkRange(kind, "hosts_per_router", p.HostsPerRouter, 1, maxSwitchPorts-2*nd); err != nil {
		return nil, err
	}
	routers := product(maxTopoHosts, p.Dims...)
	hosts := product(maxTopoHosts, routers, p.HostsPerRouter)
	if routers < 0 || hosts < 0 {
		return nil, tooBig(kind, fmt.Sprintf("dims %v with hosts_per_router %d", p.Dims, p.HostsPerRouter))
	}
	h := p.HostsPerRouter
	t := &Topology{Kind: kind, Dims: slices.Clone(p.Dims), Wrap: kind == "torus"}
	t.Nodes = make([]Node, 0, routers+hosts)
	t.Links = make([]Link, 0, hosts+nd*routers)
	coords := make([]int, routers*nd) // one backing array for every Coord
	for r := range routers {
		id := t.AddSwitch(fmt.Sprintf("R%d", r+1), h+2*nd)
		c := coords[r*nd : (r+1)*nd : (r+1)*nd]
		for d, rest := 0, r; d < nd; d++ {
			c[d] = rest % p.Dims[d]
			rest /= p.Dims[d]
		}
		t.Nodes[id].Coord = c
	}
	h0 := addHosts(t, 0, hosts)
	ln := linker{t: t}
	for i := range hosts {
		ln.link(h0+NodeID(i), 0, NodeID(i/h), i%h, p.HostGbps)
	}
	// Router r links its plus port of dimension d to the minus port of
	// its neighbour at coordinate +1 (modulo the extent in a torus).
	stride := 1
	for d, x := range p.Dims {
		for r := range routers {
			c := r / stride % x
			next := r + stride
			if c == x-1 {
				if !t.Wrap {
					continue
				}
				next = r - c*stride
			}
			ln.link(NodeID(r), h+2*d+1, NodeID(next), h+2*d, p.SwitchGbps)
		}
		stride *= x
	}
	if ln.err != nil {
		return nil, ln.err
	}
	return t, nil
}

// Testbed builds the reference testbed of SPEC §3: H1-H3 on S1, H4-H7 on
// S2, host links at hostGbps and S1-S2 at switchGbps.
func Testbed(hostGbps, switchGbps float64) *Topology {
	t := &Topology{}
	s1 := t.AddSwitch("S1", 8)
	s2 := t.AddSwitch("S2", 8)
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	for i := 1; i <= 7; i++ {
		h := t.AddHost(fmt.Sprintf("H%d", i))
		sw := s1
		if i >= 4 {
			sw = s2
		}
		must(t.Connect(h, sw, hostGbps))
	}
	must(t.Connect(s1, s2, switchGbps))
	t.Kind = "testbed"
	return t
}
