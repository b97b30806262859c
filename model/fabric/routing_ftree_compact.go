package fabric

import (
	"encoding/binary"
	"maps"
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
	// attach[h], attachPort[h]: host h's switch (-1: none) and that
	// switch's port to it (fabric.attach, fabric.attachPort).
	attach, attachPort []int32
	rows               []ftreeRow
	lists              []ftreeList
}

// ftreeRow is one switch's choice of list by destination switch D: ids[D-lo]
// for D in lo..lo+len(ids)-1, def for every other.
type ftreeRow struct {
	lo, def int32
	ids     []int32 // list numbers; -1: no route
	div     int64   // the divisor of an up list: U_1 · … · U_(l-1) at level l
}

// ftreeList is a list of equal ports and whether choosing among them
// divides d first (going up).
type ftreeList struct {
	up    bool
	ports []int32
}

// Port returns switch s's local output port towards lid, or NoRoute.
func (r *FTreeRouter) Port(s, lid int32) int32 {
	g := lid >> r.lmc
	dst := r.attach[g]
	if dst == s {
		return r.attachPort[g]
	}
	if dst < 0 {
		return NoRoute
	}
	row := &r.rows[s]
	id := row.def
	if i := dst - row.lo; uint32(i) < uint32(len(row.ids)) {
		id = row.ids[i]
	}
	if id < 0 {
		return NoRoute
	}
	l := &r.lists[id]
	d := int64(g) + int64(lid&(1<<r.lmc-1))
	if l.up {
		d /= row.div
	}
	return l.ports[d%int64(len(l.ports))]
}

// ftreeBuilder collects, while fatTreeLevels routes, the list every switch
// takes towards every destination switch, and then makes the rows.
type ftreeBuilder struct {
	nsw   int
	dsts  []int32          // destination switches in order of first routing
	ids   [][]int32        // ids[j][s]: switch s's list towards dsts[j]
	seen  map[int32]int    // destination switch -> j
	index map[string]int32 // a list's key -> its number
	lists []ftreeList
	key   []byte
}

func newFTreeBuilder(nsw int) *ftreeBuilder {
	return &ftreeBuilder{nsw: nsw, seen: map[int32]int{}, index: map[string]int32{}}
}

// intern returns the number of the list of ports (up: chosen by d / div).
func (b *ftreeBuilder) intern(up bool, ports []int32) int32 {
	if len(ports) == 0 {
		return -1
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
	id := int32(len(b.lists))
	b.index[string(b.key)] = id
	b.lists = append(b.lists, ftreeList{up: up, ports: slices.Clone(ports)})
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
// last that take one. A switch's own destination is never looked up (Port
// answers with the host's port).
func (b *ftreeBuilder) router(f *Fabric, lmc int, div func(s int) int64) *FTreeRouter {
	r := &FTreeRouter{lmc: lmc, attach: f.attach, attachPort: f.attachPort,
		rows: make([]ftreeRow, b.nsw), lists: b.lists}
	count := map[int32]int{}
	for s := range b.nsw {
		clear(count)
		for j, dst := range b.dsts {
			if dst != int32(s) {
				count[b.ids[j][s]]++
			}
		}
		row := ftreeRow{def: -1, div: div(s)}
		best := -1
		for _, id := range slices.Sorted(maps.Keys(count)) {
			if count[id] > best {
				row.def, best = id, count[id]
			}
		}
		lo, hi := int32(-1), int32(-1)
		for j, dst := range b.dsts {
			if dst != int32(s) && b.ids[j][s] != row.def {
				if lo < 0 || dst < lo {
					lo = dst
				}
				hi = max(hi, dst)
			}
		}
		if lo >= 0 {
			row.lo = lo
			row.ids = make([]int32, hi-lo+1)
			for i := range row.ids {
				row.ids[i] = row.def
			}
			for j, dst := range b.dsts {
				if dst != int32(s) && dst >= lo && dst <= hi {
					row.ids[dst-lo] = b.ids[j][s]
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
	b := 4 * (len(r.attach) + len(r.attachPort))
	for _, row := range r.rows {
		b += int(unsafe.Sizeof(row)) + 4*len(row.ids)
	}
	for _, l := range r.lists {
		b += int(unsafe.Sizeof(l)) + 4*len(l.ports)
	}
	return b
}
