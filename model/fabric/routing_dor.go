package fabric

import (
	"fmt"
	"strconv"
	"strings"
)

// Dimension-order routing (dor) for meshes and tori.
//
// The topology must be Kind mesh or torus with Dims, and every switch (a
// router) must have a Coord within Dims, no two alike; Wrap makes every
// dimension a ring. A packet corrects its dimensions one at a time in the
// order x, y, z, …, in each the shorter way round (where a torus
// dimension's two ways are equally long, the way that does not cross the
// dateline), so every path is a shortest path, and hosts on one router
// reach each other through it.
//
// A packet's VL is fixed for its whole path (the model has no SL-to-VL
// tables per hop), so a torus is kept free of cycles by the SL of each
// (source, LID) path: bit j of the SL is set when the path crosses the
// dateline (the link between coordinate n-1 and 0, either way) of the j-th
// wrapped dimension of 5 or more routers. On one VL a dimension's ring then
// carries either only paths that cross its dateline, all shorter than half
// the ring, or only paths that do not, and neither closes the ring. In a
// ring of 4 or fewer routers a path crossing the dateline is that one link
// (the halfway paths keep off it), so no route turns onto or off the
// dateline within the dimension and the ring never closes: such a
// dimension needs no bit. Dimension order adds no dependency from a later
// dimension back to an earlier one. A mesh needs 1 VL, a 2-D torus 4 and a
// 3-D torus 8 (fewer where dimensions have 4 routers or fewer);
// ComputeRoutes refuses fewer VLs, naming how many are needed.
// The path from b to a crosses the datelines the path from a to b crosses,
// so for LMC 0 SL(a, LID of b) = SL(b, LID of a): a congestion notification
// sent back along the reverse path on its data packet's VL keeps to the
// scheme.
//
// LMC: path p of a host corrects the dimensions of more than one router in
// the order rotated left by p mod R (x y z, y z x, z x y), where R is the
// least of 2^LMC and the number of such dimensions. LIDs beyond R repeat
// the orders of the first R, except that where p/R is odd a dimension with
// a dateline bit whose two ways are equally long (halfway round an even
// ring of 6 or more) is taken the way that crosses the dateline: a
// second shortest path, for DRB (drb.go) to spread over. Its SL carries
// that dimension's dateline bit, and on that VL the ring still cannot
// close: every path crossing its dateline is at most half the ring, so
// their dependencies cover at most n-2 of the ring's n turns. Otherwise a
// pair of hosts differing in one dimension only has one dimension-order
// path, which all its LIDs take. The orders mix badly on one VL (x then y
// with y then x closes cycles even on a mesh), so rotation q travels on
// its own block of SLs, q·2^b + the dateline bits (b bits), and dor with
// LMC needs R·2^b VLs.

// DORRouter is dor's forwarding and service levels computed from the
// switches' coordinates (see above): what dimensionOrder writes into
// tables of switches × LIDs and hosts × LIDs, a run on a complete grid
// (complete) computes at each lookup from O(switches + hosts) of state.
type DORRouter struct {
	lmc      int
	nd       int
	dims     []int
	wrap     bool
	coord    []int32 // switch s's coordinates: coord[s*nd:(s+1)*nd]
	nbr      []int32 // [(s*nd+i)*2+dir]: switch s's lowest local port to its neighbour one step up (dir 0) or down (dir 1) dimension i, or -1
	active   []int   // dimensions of more than one router
	dateline []int   // dimensions of a dateline bit
	bit      []int   // dimension i's dateline bit, or -1
	orders   int     // dimension orders (rotations of active)
	need     int     // VLs: orders << len(dateline)
	// attach[h], attachPort[h]: host h's switch and that switch's port
	// to it (fabric.attach, fabric.attachPort).
	attach, attachPort []int32
}

// dorSetup checks f's mesh or torus for dor with 2^lmc LIDs per host and
// returns its router, whose tables (dimensionOrder) or lookups (port, sl)
// route it. It does not check the VLs (d.need).
func (f *Fabric) dorSetup(lmc int) (*DORRouter, error) {
	t := f.t
	if t.Kind != "mesh" && t.Kind != "torus" {
		return nil, fmt.Errorf("the topology (kind %q) is not a mesh or torus: dor needs kind mesh or torus with a Coord on every switch", t.Kind)
	}
	nd := len(t.Dims)
	if nd == 0 {
		return nil, fmt.Errorf("the %s has no dimensions", t.Kind)
	}
	for i, n := range t.Dims {
		if n < 1 {
			return nil, fmt.Errorf("the %s's %s dimension has %d routers", t.Kind, dimName(i), n)
		}
	}
	d := &DORRouter{lmc: lmc, nd: nd, dims: t.Dims, wrap: t.Wrap, attach: f.attach, attachPort: f.attachPort}
	d.coord = make([]int32, len(f.sws)*nd)
	at := make(map[int]int32, len(f.sws))
	for s, n := range f.sws {
		c := t.Nodes[n].Coord
		if len(c) != nd {
			return nil, fmt.Errorf("switch %s has %d coordinates; the %s has %d dimensions", t.Nodes[n].Name, len(c), t.Kind, nd)
		}
		lin := 0
		for i := nd - 1; i >= 0; i-- {
			if c[i] < 0 || c[i] >= t.Dims[i] {
				return nil, fmt.Errorf("switch %s at %v is outside the %s %s", t.Nodes[n].Name, c, dimsString(t.Dims), t.Kind)
			}
			lin = lin*t.Dims[i] + c[i]
		}
		if o, dup := at[lin]; dup {
			return nil, fmt.Errorf("switches %s and %s are both at %v", t.Nodes[f.sws[o]].Name, t.Nodes[n].Name, c)
		}
		at[lin] = int32(s)
		for i, x := range c {
			d.coord[s*nd+i] = int32(x)
		}
	}
	d.nbr = make([]int32, len(f.sws)*nd*2)
	for i := range d.nbr {
		d.nbr[i] = -1
	}
	for s := range f.sws {
		first, end := f.ports(int32(s))
		for gp := first; gp < end; gp++ {
			x := f.next(gp)
			if x < 0 {
				continue
			}
			dim, step := -1, 0
			for i := range nd {
				if diff := int(d.coord[int(x)*nd+i] - d.coord[s*nd+i]); diff != 0 {
					if dim >= 0 {
						dim = -2 // differs in two dimensions: not a grid link
						break
					}
					dim, step = i, diff
				}
			}
			if dim < 0 {
				continue
			}
			n := t.Dims[dim]
			for dir, want := range [2]int{1, -1} {
				if step == want || t.Wrap && (step-want)%n == 0 {
					if k := (s*nd+dim)*2 + dir; d.nbr[k] < 0 {
						d.nbr[k] = gp - first
					}
				}
			}
		}
	}
	d.bit = make([]int, nd)
	for i, n := range t.Dims {
		d.bit[i] = -1
		if n > 1 {
			d.active = append(d.active, i)
		}
		if t.Wrap && n >= 5 {
			d.bit[i] = len(d.dateline)
			d.dateline = append(d.dateline, i)
		}
	}
	d.orders = max(min(1<<lmc, len(d.active)), 1)
	d.need = d.orders << len(d.dateline)
	return d, nil
}

// step returns the direction (0 up, 1 down) a packet takes along dimension
// i from coordinate a to b, and whether it crosses the dateline; alt takes
// a halfway dimension with a dateline bit the way across the dateline.
func (d *DORRouter) step(i, a, b int, alt bool) (dir int, crosses bool) {
	if !d.wrap {
		if b > a {
			return 0, false
		}
		return 1, false
	}
	n := d.dims[i]
	switch up := (b - a + n) % n; {
	case up < n-up:
		return 0, b < a
	case up > n-up:
		return 1, b > a
	case alt && d.bit[i] >= 0: // halfway round, the other way: across the dateline
		if b > a {
			return 1, true
		}
		return 0, true
	case b > a: // halfway round: the way without the dateline
		return 0, false
	default:
		return 1, false
	}
}

// path returns the dimension order q and the halfway choice alt of path p
// of a host (see above).
func (d *DORRouter) path(p int) (q int, alt bool) {
	return p % d.orders, p/d.orders%2 == 1
}

// hop returns the dimension switch s (at cs) corrects first towards
// coordinates cd in dimension order q, the direction and the local port it
// leaves by (-1 where it has no such link); dim -1 where cs is cd.
func (d *DORRouter) hop(s int, cs, cd []int32, q int, alt bool) (dim, dir int, port int32) {
	for k := range d.active {
		i := d.active[(k+q)%len(d.active)]
		if cs[i] == cd[i] {
			continue
		}
		dir, _ := d.step(i, int(cs[i]), int(cd[i]), alt)
		return i, dir, d.nbr[(s*d.nd+i)*2+dir]
	}
	return -1, 0, NoRoute
}

// at returns switch s's coordinates.
func (d *DORRouter) at(s int32) []int32 { return d.coord[int(s)*d.nd : int(s+1)*d.nd] }

// slOf returns the service level of the path in order q (alt) from the
// switch at cs to the one at cd.
func (d *DORRouter) slOf(cs, cd []int32, q int, alt bool) uint8 {
	sl := q << len(d.dateline)
	for _, i := range d.dateline {
		if _, crosses := d.step(i, int(cs[i]), int(cd[i]), alt); crosses {
			sl |= 1 << d.bit[i]
		}
	}
	return uint8(sl)
}

// complete reports whether every route of d exists by construction: every
// grid point holds a switch, every host hangs off a switch, and every
// switch has a link to its neighbour in every direction some route could
// leave it by. Then the route from any switch to any other corrects one
// coordinate a hop, and arrives, and the service levels keep every VL free
// of cycles (see above): computed routes need neither tables nor the check
// that follows every route (TestDORComputedMatchesTheTables checks both on
// small meshes and tori).
func (d *DORRouter) complete(f *Fabric) bool {
	// The switches have distinct coordinates within the dimensions
	// (dorSetup), so they fill the grid when it has no more points.
	points := 1
	for _, n := range d.dims {
		if n > len(f.sws)/points {
			return false // more grid points than switches
		}
		points *= n
	}
	for _, a := range d.attach {
		if a < 0 {
			return false
		}
	}
	// The directions a route leaves coordinate a of dimension i by: those
	// towards a±1 and, on a ring, halfway round, either way when some
	// path takes a halfway dimension across its dateline.
	alts := []bool{false}
	if 1<<d.lmc > d.orders {
		alts = append(alts, true)
	}
	for s := range f.sws {
		cs := d.at(int32(s))
		for _, i := range d.active {
			n, a := d.dims[i], int(cs[i])
			for _, b := range [3]int{a + 1, a - 1, a + n/2} {
				if d.wrap {
					b = (b%n + n) % n
				}
				if b == a || b < 0 || b >= n {
					continue
				}
				for _, alt := range alts {
					if dir, _ := d.step(i, a, b, alt); d.nbr[(s*d.nd+i)*2+dir] < 0 {
						return false
					}
				}
			}
		}
	}
	return true
}

// Port returns the local output port of switch s towards lid.
func (d *DORRouter) Port(s, lid int32) int32 {
	g := lid >> d.lmc
	dst := d.attach[g]
	if s == dst {
		return d.attachPort[g]
	}
	q, alt := d.path(int(lid) & (1<<d.lmc - 1))
	_, _, p := d.hop(int(s), d.at(s), d.at(dst), q, alt)
	return p
}

// sl returns the service level of packets from host src to lid.
func (d *DORRouter) sl(src, lid int) int {
	q, alt := d.path(lid & (1<<d.lmc - 1))
	return int(d.slOf(d.at(d.attach[src]), d.at(d.attach[lid>>d.lmc]), q, alt))
}

// dimensionOrder is dor routing (see above) into tables.
func (f *Fabric) dimensionOrder(lmc, vls int) (*Routes, error) {
	d, err := f.dorSetup(lmc)
	if err != nil {
		return nil, err
	}
	if d.need > vls {
		return nil, f.dorVLError(lmc, d.orders, len(d.dateline), d.need)
	}
	r := f.newRoutes(lmc)
	if d.need > 1 {
		r.SLs = make([][]uint8, len(f.hosts))
		for h := range r.SLs {
			r.SLs[h] = make([]uint8, len(f.hosts)<<lmc)
		}
	}
	for g := range f.hosts {
		dst := f.attach[g]
		if dst < 0 {
			continue
		}
		cd := d.at(dst)
		for p := range 1 << lmc {
			lid := g<<lmc | p
			q, alt := d.path(p)
			for s := range f.sws {
				if int32(s) == dst {
					r.LFT[s][lid] = f.attachPort[g]
					continue
				}
				cs := d.at(int32(s))
				if i, dir, port := d.hop(s, cs, cd, q, alt); port >= 0 {
					r.LFT[s][lid] = port
				} else if i >= 0 {
					return nil, fmt.Errorf("switch %s at %v has no link to its neighbour %s along %s",
						f.t.Nodes[f.sws[s]].Name, cs, [2]string{"up", "down"}[dir], dimName(i))
				}
			}
			if r.SLs == nil {
				continue
			}
			for h := range f.hosts {
				if src := f.attach[h]; src >= 0 {
					r.SLs[h][lid] = d.slOf(d.at(src), cd, q, alt)
				}
			}
		}
	}
	return r, nil
}

// dorVLError says how many VLs dor needs on f's mesh or torus.
func (f *Fabric) dorVLError(lmc, orders, bits, need int) error {
	var why string
	switch {
	case orders > 1 && bits > 0:
		why = fmt.Sprintf("%d dimension orders for lmc %d × %d sets of datelines a path crosses", orders, lmc, 1<<bits)
	case orders > 1:
		why = fmt.Sprintf("one per dimension order, %d for lmc %d", orders, lmc)
	default:
		why = "one per set of dimensions whose dateline a path crosses"
	}
	fix := fmt.Sprintf("set vls = %d", need)
	if need > MaxVLs {
		fix = fmt.Sprintf("more than the %d data VLs there are: lower lmc", MaxVLs)
	}
	return fmt.Errorf("a %s %s needs %d VLs (%s); %s", dimsString(f.t.Dims), f.t.Kind, need, why, fix)
}

// dimName names dimension i: x, y, z, then "dimension 4" and on.
func dimName(i int) string {
	if i < 3 {
		return string("xyz"[i])
	}
	return "dimension " + strconv.Itoa(i+1)
}

// dimsString writes dims as 4x4x2.
func dimsString(dims []int) string {
	var b strings.Builder
	for i, n := range dims {
		if i > 0 {
			b.WriteByte('x')
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// DORComputed reports whether a run routes t by dor with 2^lmc LIDs per
// host from coordinates, without tables (DORRouter.complete).
func DORComputed(t *Topology, lmc int) bool {
	if t.Kind != "mesh" && t.Kind != "torus" {
		return false
	}
	f := NewFabric(t)
	d, err := f.dorSetup(lmc)
	return err == nil && d.complete(f)
}
