package fabric

import (
	"encoding/binary"
	"maps"
	"math/bits"
	"slices"
	"unsafe"
)

// FTreeRouter is ftree's forwarding kept compact: what fatTreeLevels
// writes into tables of switches × LIDs, a run looks up at each packet from
// O(hosts + switches × the destination switches that differ from each
// switch's usual choice) of state. Towards a destination switch D, switch
// s chooses among a list of equal ports (its candidates, up or down) by d
// or d / div (d-mod-k, routing_ftree.go); most destinations of a switch
// share one list (a leaf's up ports, or a middle switch's), so each switch
// keeps that list as its default and an array of list numbers for the range
// of destination switches that take another. Lists are kept once for the
// whole fabric. Port gives what the tables give, entry for entry
// (TestFTreeRouterMatchesTheTables).
type FTreeRouter struct {
	lmc int
	// hosts[h]: host h's switch (-1: none) and that switch's port to it
	// (fabric.attach, fabric.attachPort), side by side.
	hosts []ftreeHost
	rows  []ftreeRow
	// ports holds every list once; a list is a packed ftreeList.
	ports []int32
}

type ftreeHost struct{ sw, port int32 }

// ftreeRow is one switch's choice of list by destination switch D: ids[D-lo]
// for D in lo..lo+len(ids)-1, def for every other.
type ftreeRow struct {
	lo   int32
	def  ftreeList
	ids  []ftreeList
	divM uint64 // divMagic of the divisor of an up list, U_1 · … · U_(l-1) at level l > 1 (at most 2^31)
}

// ftreeList is a list of equal ports, packed: its first port's index in
// FTreeRouter.ports (the high 23 bits), whether choosing among them
// divides d first (going up above the leaves, bit 8) and their number (the
// low 8 bits). List 0 is the one-port list of NoRoute.
type ftreeList uint32

func packList(first int, up bool, n int) ftreeList {
	l := ftreeList(first)<<9 | ftreeList(n)
	if up {
		l |= 1 << 8
	}
	return l
}

// Port returns switch s's local output port towards lid, or NoRoute. It
// takes few branches, as the switch and the destination are as good as
// random from one call to the next: a list without a route holds NoRoute,
// and a switch's own hosts are picked after the list is read.
func (r *FTreeRouter) Port(s, lid int32) int32 {
	g := lid >> r.lmc
	h := r.hosts[g]
	if h.sw < 0 {
		return NoRoute
	}
	row := &r.rows[s]
	l := row.def
	if i := uint32(h.sw - row.lo); i < uint32(len(row.ids)) {
		l = row.ids[i]
	}
	d := uint32(g) + uint32(lid&(1<<r.lmc-1))
	if l&(1<<8) != 0 {
		d = fastDiv(d, row.divM)
	}
	p := r.ports[uint32(l>>9)+fastMod(d, uint32(l&255))]
	if h.sw == s {
		p = h.port
	}
	return p
}

// Division and remainder of 32-bit numbers by a divisor d > 1 known ahead,
// by multiplying with m = 2^64 / d rounded up (Lemire, Kaser and Kurz,
// "Faster remainder by direct computation", 2019): exact for every 32-bit
// numerator (TestFastDivMod). A hardware division is several times as slow,
// and ftree divides at every hop.
func divMagic(d uint32) uint64 { return ^uint64(0)/uint64(d) + 1 }

func fastDiv(a uint32, m uint64) uint32 {
	hi, _ := bits.Mul64(m, uint64(a))
	return uint32(hi)
}

func fastMod(a, d uint32) uint32 {
	hi, _ := bits.Mul64(modMagic[d]*uint64(a), uint64(d))
	return uint32(hi)
}

// modMagic[d] is divMagic(d) for the list lengths, 2 to 255; 0 for a list
// of one port, which fastMod then maps to 0.
var modMagic = func() (m [256]uint64) {
	for d := 2; d < len(m); d++ {
		m[d] = divMagic(uint32(d))
	}
	return m
}()

// ftreeBuilder collects, while fatTreeLevels routes, the list every switch
// takes towards every destination switch, and then makes the rows.
type ftreeBuilder struct {
	nsw   int
	dsts  []int32          // destination switches in order of first routing
	ids   [][]int32        // ids[j][s]: switch s's list towards dsts[j]
	seen  map[int32]int    // destination switch -> j
	index map[string]int32 // a list's key -> its number
	lists []ftreeList      // by number, packed (ports in pool)
	pool  []int32
	key   []byte
	// full is set when a list does not fit the packing (more than 255
	// ports, or the pool past 2^23): the fabric then keeps tables.
	full bool
}

func newFTreeBuilder(nsw int) *ftreeBuilder {
	return &ftreeBuilder{nsw: nsw, seen: map[int32]int{}, index: map[string]int32{},
		lists: []ftreeList{packList(0, false, 1)}, pool: []int32{NoRoute}}
}

// intern returns the number of the list of ports (up: chosen by d / div),
// 0 for none.
func (b *ftreeBuilder) intern(up bool, ports []int32) int32 {
	if len(ports) == 0 {
		return 0
	}
	b.key = b.key[:0]
	if up {
		b.key = append(b.key, 1)
	} else {
		b.key = append(b.key, 0)
	}
	for _, p := range ports {
		b.key = binary.LittleEndian.AppendUint32(b.key, uint32(p))
	}
	if id, ok := b.index[string(b.key)]; ok {
		return id
	}
	if len(ports) > 255 || len(b.pool)+len(ports) > 1<<23 {
		b.full = true
		return 0
	}
	id := int32(len(b.lists))
	b.index[string(b.key)] = id
	b.lists = append(b.lists, packList(len(b.pool), up, len(ports)))
	b.pool = append(b.pool, ports...)
	return id
}

// route records that switch s takes list id towards destination switch dst.
func (b *ftreeBuilder) route(dst, s, id int32) {
	j, ok := b.seen[dst]
	if !ok {
		j = len(b.dsts)
		b.seen[dst] = j
		b.dsts = append(b.dsts, dst)
		b.ids = append(b.ids, make([]int32, b.nsw))
	}
	b.ids[j][s] = id
}

// router makes the rows: each switch's most frequent list (the lowest
// number among equally frequent ones) is its default, and the others are
// kept for the range of destination switches between the first and the
// last that take one. A switch's own destination has no list of its own
// (Port answers with the host's port). It returns nil where a list did
// not fit (full).
func (b *ftreeBuilder) router(f *Fabric, lmc int, div func(s int) int64) *FTreeRouter {
	if b.full {
		return nil
	}
	r := &FTreeRouter{lmc: lmc, hosts: make([]ftreeHost, len(f.attach)),
		rows: make([]ftreeRow, b.nsw), ports: b.pool}
	for h, sw := range f.attach {
		r.hosts[h] = ftreeHost{sw, f.attachPort[h]}
	}
	list := func(id int32) ftreeList { return b.lists[id] }
	count := map[int32]int{}
	for s := range b.nsw {
		clear(count)
		for j, dst := range b.dsts {
			if dst != int32(s) {
				count[b.ids[j][s]]++
			}
		}
		def, best := int32(0), -1
		for _, id := range slices.Sorted(maps.Keys(count)) {
			if count[id] > best {
				def, best = id, count[id]
			}
		}
		row := ftreeRow{def: list(def)}
		if d := min(div(s), 1<<31); d > 1 {
			row.divM = divMagic(uint32(d))
		}
		lo, hi := int32(-1), int32(-1)
		for j, dst := range b.dsts {
			if dst != int32(s) && b.ids[j][s] != def {
				if lo < 0 || dst < lo {
					lo = dst
				}
				hi = max(hi, dst)
			}
		}
		if lo >= 0 {
			row.lo = lo
			row.ids = make([]ftreeList, hi-lo+1)
			for i := range row.ids {
				row.ids[i] = row.def
			}
			for j, dst := range b.dsts {
				if dst != int32(s) && dst >= lo && dst <= hi {
					row.ids[dst-lo] = list(b.ids[j][s])
				}
			}
		}
		r.rows[s] = row
	}
	return r
}

// Bytes returns the size of r's state: its rows, lists and the hosts'
// switches and ports.
func (r *FTreeRouter) Bytes() int {
	b := 8*len(r.hosts) + 4*len(r.ports)
	for _, row := range r.rows {
		b += int(unsafe.Sizeof(row)) + 4*len(row.ids)
	}
	return b
}
