package model

import (
	"math/bits"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
)

type switchState struct {
	firstPort int32
	nPorts    int32
	words     int32   // words of Network.ready an output and VL of the switch uses
	lft       []uint8 // destination LID -> output port (local), lftNoRoute where none: a byte a LID
	// dor computes the forwarding of switch index where lft is nil
	// (dor on a complete mesh or torus: Routes.dor), and ftree looks it
	// up where neither is set (Routes.FTree).
	dor   *fabric.DORRouter
	ftree *fabric.FTreeRouter
	index int32
	// rateMbps is the rate of every linked port's link when they all have
	// one rate (0 when not): a packet routed here is timed on its output
	// link from the switch, which stays in the cache (a few hundred
	// switches), and not from the output port's line, which at ten
	// thousand hosts does not (transmit). txWire and txPs keep the last
	// answer, as port.txTime does.
	rateMbps int64
	txPs     engine.Time
	txWire   int32
}

// txTime returns the time wire bytes take on any of the switch's links,
// all of rate sw.rateMbps (not 0).
func (sw *switchState) txTime(wire int32) engine.Time {
	if wire != sw.txWire {
		sw.txWire, sw.txPs = wire, txTime(wire, sw.rateMbps)
	}
	return sw.txPs
}

// voq is a virtual output queue: a list of packets linked through
// packet.next, oldest first, the credits its head needs and its fill. 16
// bytes and no storage of its own, so arbitration reads no packet and
// nothing grows. The VoQs live in the network's voqTable.
type voq struct {
	head, tail int32 // packets; -1 when empty
	credits    int32 // the head's credits
	fill       int32 // credits in the VoQ from arrival to the tail's leaving, kept when CC needs it
}

// voqTable holds the VoQs that exist, of every switch: a VoQ exists while
// packets wait in it or, when the fill mode counts per VoQ, while its fill
// is not 0, so the table grows with what is in flight, not with the
// switches' radix squared (a dense [out][vl][in] array took 16·r² bytes a
// switch and VL: 71 MB for 216 switches of radix 144, most of it empty
// VoQs that every event's reads spread over). A VoQ that does not exist
// reads as empty with no fill.
//
// It is a hash table with open addressing and linear probing, keyed by
// (output port, VL, input): a lookup reads one or two neighbouring slots
// of a table that stays in the cache. Removal shifts the later slots of
// the probe run back (no tombstones), so a pointer into the table is good
// only until the next removal or insertion. The table holds at most half
// its slots and doubles when it would hold more, so it grows only on the
// run's peaks and nothing allocates in its steady state. Nothing depends on
// where a VoQ sits in it: the order of arbitration is the input ports'
// (the ready bits), and a scan over an input's VoQs looks them up in order.
type voqTable struct {
	slots []voqSlot
	mask  uint32
	shift uint8 // 32 - log2(len(slots))
	live  int   // VoQs in the table
}

type voqSlot struct {
	key uint32 // voqKey, voqNoKey when the slot is free
	q   voq
}

// voqNoKey marks a free slot: no VoQ has it as key (a VL is below 15).
const voqNoKey = ^uint32(0)

// voqKey is the key of VoQ (in, vl, out): out a global port (below 2^20,
// which build checks), in a switch-local one (at most maxSwitchPorts).
func voqKey(out int32, vl VL, in int32) uint32 {
	return uint32(out)<<12 | uint32(vl)<<8 | uint32(in)
}

// init makes a table of at least 2·size slots.
func (t *voqTable) init(size int) {
	bits := 6
	for 1<<bits < 2*size {
		bits++
	}
	t.slots = make([]voqSlot, 1<<bits)
	for i := range t.slots {
		t.slots[i].key = voqNoKey
	}
	t.mask, t.shift, t.live = uint32(len(t.slots)-1), uint8(32-bits), 0
}

// home is key's first slot (Fibonacci hashing: the product's top bits).
func (t *voqTable) home(key uint32) uint32 { return key * 0x9e3779b1 >> t.shift }

// find returns the slot of key's VoQ, or -1 when it does not exist.
func (t *voqTable) find(key uint32) int32 {
	for i := t.home(key); ; i = (i + 1) & t.mask {
		switch t.slots[i].key {
		case key:
			return int32(i)
		case voqNoKey:
			return -1
		}
	}
}

// get returns the slot of key's VoQ, made empty if it did not exist.
func (t *voqTable) get(key uint32) int32 {
	for i := t.home(key); ; i = (i + 1) & t.mask {
		switch s := &t.slots[i]; s.key {
		case key:
			return int32(i)
		case voqNoKey:
			if 2*(t.live+1) > len(t.slots) {
				t.grow()
				return t.get(key)
			}
			s.key, s.q = key, voq{head: -1, tail: -1}
			t.live++
			return int32(i)
		}
	}
}

// grow doubles the table.
func (t *voqTable) grow() {
	old := t.slots
	t.init(len(old))
	for i := range old {
		if old[i].key != voqNoKey {
			j := t.home(old[i].key)
			for t.slots[j].key != voqNoKey {
				j = (j + 1) & t.mask
			}
			t.slots[j] = old[i]
			t.live++
		}
	}
}

// at returns the VoQ in slot i.
func (t *voqTable) at(i int32) *voq { return &t.slots[i].q }

// release removes the VoQ in slot i if it is empty and has no fill: it
// then no longer exists.
func (t *voqTable) release(i int32) {
	if q := &t.slots[i].q; q.head >= 0 || q.fill != 0 {
		return
	}
	// Backward shift: move each later slot of the probe run whose home is
	// not between the hole and it into the hole.
	hole := uint32(i)
	for j := (hole + 1) & t.mask; t.slots[j].key != voqNoKey; j = (j + 1) & t.mask {
		if (j-t.home(t.slots[j].key))&t.mask >= (j-hole)&t.mask {
			t.slots[hole] = t.slots[j]
			hole = j
		}
	}
	t.slots[hole].key = voqNoKey
	t.live--
}

func (q *voq) empty() bool { return q.head < 0 }

// push appends packet k.
func (n *Network) push(q *voq, k int32) {
	n.pkts[k].next = -1
	if q.head < 0 {
		q.head, q.credits = k, n.pkts[k].credits
	} else {
		t := &n.pkts[q.tail]
		t.next, t.nextCredits = k, uint8(n.pkts[k].credits)
	}
	q.tail = k
}

// pop removes and returns the oldest packet.
func (n *Network) pop(q *voq) int32 {
	k := q.head
	if q.head = n.pkts[k].next; q.head < 0 {
		q.tail = -1
	} else {
		q.credits = int32(n.pkts[k].nextCredits)
	}
	return k
}

// hcaLocal is a packet's inLocal, and a port's peerLocal, at an HCA: no
// switch has that many ports (maxSwitchPorts).
const hcaLocal = 255

// lftNoRoute is an lft entry for a LID the switch cannot reach; the routing
// checks that no packet needs one.
const lftNoRoute = 255

// out returns the output port (global) the switch forwards lid to.
func (sw *switchState) out(lid int32) int32 {
	switch {
	case sw.lft != nil:
		return sw.firstPort + int32(sw.lft[lid])
	case sw.ftree != nil:
		if p := sw.ftree.Port(sw.index, lid); p != fabric.NoRoute {
			return sw.firstPort + p
		}
		return sw.firstPort + lftNoRoute
	}
	return sw.firstPort + sw.dor.Port(sw.index, lid)
}

// readyWord returns the index in n.ready of the first word of output p's
// (a global port) ready bits on VL vl.
func (n *Network) readyWord(p int32, vl VL) int {
	return (int(p)*n.nVL + int(vl)) * int(n.readyStride)
}

// txDone wakes switch output p when its link frees with packets waiting.
//
// The wake-up protocol: an output has at most one live evTxDone, due at
// txWakeAt (0 when none). transmit schedules one at the end of every
// transmission while packets wait, and trySwitch schedules one at linkFree
// when it finds the link busy and none is due then. Any other evTxDone that
// fires is stale (the link was taken, or the wait was re-planned, after it
// was scheduled) and does nothing: without this rule stale wakes would
// re-schedule themselves and pile up on a congested output, hundreds per
// packet with small packets. Every change that can let an output send (an
// arrival, a credit update) calls trySwitch itself, so a stale wake never has
// work of its own.
func (n *Network) txDone(p int32) {
	pt := &n.ports[p]
	if pt.txWakeAt != n.sim.Now() {
		return // stale
	}
	pt.txWakeAt = 0
	n.trySwitch(p)
}

// trySwitch lets switch output port o start its next packet. The VL
// arbitration table's entries take turns, each sending up to its weight in
// bytes (a packet started within the weight may finish beyond it) before the
// next entry with a packet ready; within a VL the input ports take turns
// round-robin, and an input whose VoQ head needs more credits than o holds is
// passed over.
func (n *Network) trySwitch(o int32) {
	pt := &n.ports[o]
	if pt.queued == 0 {
		return
	}
	if now := n.sim.Now(); now < pt.linkFree {
		if pt.txWakeAt != pt.linkFree {
			n.sim.At(pt.linkFree, evTxDone, uint32(o))
			pt.txWakeAt = pt.linkFree
		}
		return
	}
	sw := &n.sws[pt.owner]
	table := n.vlArb
	if len(table) == 1 { // one data VL: nothing to arbitrate
		if n.lane(o, 0).waiting > 0 {
			if in, slot := n.nextInput(sw, pt, 0); in >= 0 {
				n.transmit(o, n.takeVoQ(sw, pt, in, 0, slot), sw.firstPort+in)
			}
		}
		return
	}
	for j := 0; j < len(table); j++ {
		idx := (int(pt.arbIdx) + j) % len(table)
		vl := VL(table[idx].VL)
		if n.lane(o, vl).waiting == 0 {
			continue
		}
		in, slot := n.nextInput(sw, pt, vl)
		if in < 0 {
			continue
		}
		k := n.takeVoQ(sw, pt, in, vl, slot)
		if idx != int(pt.arbIdx) || pt.arbLeft <= 0 {
			pt.arbIdx, pt.arbLeft = int32(idx), table[idx].Weight
		}
		if pt.arbLeft -= n.pkts[k].wire; pt.arbLeft <= 0 {
			next := (idx + 1) % len(table)
			pt.arbIdx, pt.arbLeft = int32(next), table[next].Weight
		}
		n.transmit(o, k, sw.firstPort+in)
		return
	}
}

// takeVoQ removes the head of VoQ (in, vl) of output pt, in the table's
// slot slot, and moves pt's round-robin pointer past in.
func (n *Network) takeVoQ(sw *switchState, pt *port, in int32, vl VL, slot int32) int32 {
	q := n.voqs.at(slot)
	ln := n.lane(sw.firstPort+pt.local, vl)
	k := n.pop(q)
	if q.empty() {
		n.ready[n.readyWord(sw.firstPort+pt.local, vl)+int(in>>6)] &^= 1 << (in & 63)
		n.voqs.release(slot)
	}
	ln.waiting--
	ln.heads++
	pt.queued--
	if ln.rrIn = in + 1; ln.rrIn == sw.nPorts {
		ln.rrIn = 0
	}
	return k
}

// nextInput returns the input port that output pt serves next on VL vl
// and its VoQ's slot in the table: round-robin from pt's pointer among
// inputs whose VoQ head fits in pt's credits, or -1. A congested output is asked again and again (at every
// arrival for it) while it lacks credits; a scan that failed is not
// repeated while the same heads wait and the credits have not grown.
//
// The inputs with a packet are the set bits of the output's ready words;
// the scan visits them from the pointer's bit up, wrapping round to the
// bits below it, so a switch of any radix costs one step per waiting input
// (a word per 64 ports when none waits).
func (n *Network) nextInput(sw *switchState, pt *port, vl VL) (in, slot int32) {
	if n.commit {
		return n.nextInputCommitted(sw, pt, vl)
	}
	ln := n.lane(sw.firstPort+pt.local, vl)
	cr := ln.credits
	if ln.failHeads == ln.heads && cr <= ln.failCredits {
		return -1, -1
	}
	r := n.readyWord(sw.firstPort+pt.local, vl)
	key := voqKey(sw.firstPort+pt.local, vl, 0) // | in: the key of input in
	start := ln.rrIn
	if sw.words == 1 {
		// Rotate the ready bits so that the pointer's bit comes first.
		for m := bits.RotateLeft64(n.ready[r], -int(start)); m != 0; m &= m - 1 {
			in := (start + int32(bits.TrailingZeros64(m))) & 63
			if slot := n.voqs.find(key | uint32(in)); n.voqs.at(slot).credits <= cr {
				return in, slot
			}
		}
	} else {
		words := n.ready[r : r+int(sw.words)]
		w0, below := int(start>>6), uint64(1)<<(start&63)-1
		for i := 0; i <= len(words); i++ {
			w := w0 + i // below 2·len(words)
			if w >= len(words) {
				w -= len(words)
			}
			m := words[w]
			if i == 0 {
				m &^= below
			} else if i == len(words) {
				m &= below
			}
			for ; m != 0; m &= m - 1 {
				in := int32(w<<6 | bits.TrailingZeros64(m))
				if slot := n.voqs.find(key | uint32(in)); n.voqs.at(slot).credits <= cr {
					return in, slot
				}
			}
		}
	}
	ln.failHeads, ln.failCredits = ln.heads, cr
	return -1, -1
}
