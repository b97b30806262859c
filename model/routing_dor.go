package model

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

// dimensionOrder is dor routing (see above).
func (f *fabric) dimensionOrder(lmc, vls int) (*Routes, error) {
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
	coord := make([]int, len(f.sws)*nd) // switch s's coordinates: coord[s*nd:(s+1)*nd]
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
		copy(coord[s*nd:], c)
	}
	// nbr[(s*nd+i)*2+dir]: switch s's lowest local port to its neighbour
	// one step up (dir 0) or down (dir 1) dimension i, or -1.
	nbr := make([]int32, len(f.sws)*nd*2)
	for i := range nbr {
		nbr[i] = -1
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
				if d := coord[int(x)*nd+i] - coord[s*nd+i]; d != 0 {
					if dim >= 0 {
						dim = -2 // differs in two dimensions: not a grid link
						break
					}
					dim, step = i, d
				}
			}
			if dim < 0 {
				continue
			}
			n := t.Dims[dim]
			for dir, want := range [2]int{1, -1} {
				if step == want || t.Wrap && (step-want)%n == 0 {
					if k := (s*nd+dim)*2 + dir; nbr[k] < 0 {
						nbr[k] = gp - first
					}
				}
			}
		}
	}
	var active, dateline []int // dimensions of more than one router; of a dateline bit
	bit := make([]int, nd)
	for i, n := range t.Dims {
		bit[i] = -1
		if n > 1 {
			active = append(active, i)
		}
		if t.Wrap && n >= 5 {
			bit[i] = len(dateline)
			dateline = append(dateline, i)
		}
	}
	orders := max(min(1<<lmc, len(active)), 1)
	need := orders << len(dateline)
	if need > vls {
		return nil, f.dorVLError(lmc, orders, len(dateline), need)
	}
	// step returns the direction (0 up, 1 down) a packet takes along
	// dimension i from coordinate a to b, and whether it crosses the
	// dateline; alt takes a halfway dimension with a dateline bit the way
	// across the dateline.
	step := func(i, a, b int, alt bool) (dir int, crosses bool) {
		if !t.Wrap {
			if b > a {
				return 0, false
			}
			return 1, false
		}
		n := t.Dims[i]
		switch up := (b - a + n) % n; {
		case up < n-up:
			return 0, b < a
		case up > n-up:
			return 1, b > a
		case alt && bit[i] >= 0: // halfway round, the other way: across the dateline
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
	r := f.newRoutes(lmc)
	if need > 1 {
		r.sl = make([][]uint8, len(f.hosts))
		for h := range r.sl {
			r.sl[h] = make([]uint8, len(f.hosts)<<lmc)
		}
	}
	order := make([]int, len(active))
	for g := range f.hosts {
		dst := f.attach[g]
		if dst < 0 {
			continue
		}
		cd := coord[int(dst)*nd : int(dst+1)*nd]
		for p := range 1 << lmc {
			lid := g<<lmc | p
			q := p % orders
			alt := p/orders%2 == 1
			for k := range order {
				order[k] = active[(k+q)%len(active)]
			}
			for s := range f.sws {
				if int32(s) == dst {
					r.LFT[s][lid] = f.attachPort[g]
					continue
				}
				cs := coord[s*nd : (s+1)*nd]
				for _, i := range order {
					if cs[i] == cd[i] {
						continue
					}
					dir, _ := step(i, cs[i], cd[i], alt)
					port := nbr[(s*nd+i)*2+dir]
					if port < 0 {
						return nil, fmt.Errorf("switch %s at %v has no link to its neighbour %s along %s",
							t.Nodes[f.sws[s]].Name, cs, [2]string{"up", "down"}[dir], dimName(i))
					}
					r.LFT[s][lid] = port
					break
				}
			}
			if r.sl == nil {
				continue
			}
			for h := range f.hosts {
				src := f.attach[h]
				if src < 0 {
					continue
				}
				cs := coord[int(src)*nd : int(src+1)*nd]
				sl := q << len(dateline)
				for _, i := range dateline {
					if _, crosses := step(i, cs[i], cd[i], alt); crosses {
						sl |= 1 << bit[i]
					}
				}
				r.sl[h][lid] = uint8(sl)
			}
		}
	}
	return r, nil
}

// dorVLError says how many VLs dor needs on f's mesh or torus.
func (f *fabric) dorVLError(lmc, orders, bits, need int) error {
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
	if need > maxVLs {
		fix = fmt.Sprintf("more than the %d data VLs there are: lower lmc", maxVLs)
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
