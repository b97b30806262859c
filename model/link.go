package model

import (
	"fmt"
	"math"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
)

func mbps(gbps float64) int64 { return int64(math.Round(gbps * 1000)) }

// txTime is the time bytes take at rateMbps, rounded up to a picosecond.
func txTime(bytes int32, rateMbps int64) engine.Time {
	return engine.Time((int64(bytes)*8_000_000 + rateMbps - 1) / rateMbps)
}

// txTime returns the time wire bytes take on port pt's link. Most packets
// of a link have one size, so the last answer is kept: a division saved
// per packet and hop.
func (pt *port) txTime(wire int32) engine.Time {
	if wire != pt.txWire {
		pt.txWire, pt.txPs = wire, txTime(wire, pt.rateMbps)
	}
	return pt.txPs
}

// transmit starts packet k on port p's output. from is the input port whose
// buffer k leaves (-1 when an HCA injects it). The packet's header reaches
// the peer after the propagation delay; at a switch it is routed at once and
// becomes ready to forward after the switch latency, but never so early that
// its tail would not be in when the next link has sent the rest of it.
func (n *Network) transmit(p, k, from int32) {
	pt := &n.ports[p]
	pk := &n.pkts[k]
	vl := pk.vl
	if n.cc.on && !pt.host {
		n.settleLeave(p)
		n.markFECN(p, from, pk)
	} else if n.santos != nil && !pt.host {
		n.santosDepart(p, k)
	}
	ln := n.lane(p, vl)
	if ln.credits -= pk.credits; ln.credits < 0 {
		n.violations++
	}
	pt.txBytes += int64(pk.wire)
	if ln.used += pk.credits; ln.used > n.stats.maxBuf && !pt.toHost {
		n.stats.maxBuf = ln.used
	}
	now := n.sim.Now()
	tx := pt.txTime(pk.wire)
	end := now + tx
	pt.linkFree = end
	if !pt.host {
		// The input buffer frees as the tail leaves: its credit update and
		// the VoQ fill change are due at end. The output itself needs an
		// event then only if packets wait for it; one arriving later wakes
		// it (HCAs schedule their own next try).
		n.freeBufferAt(from, vl, pk.credits, end)
		if n.cc.on {
			pt.leave = voqLeave{in: from, vl: vl, c: pk.credits, at: end, set: true}
		}
		if pt.queued > 0 {
			n.sim.At(end, evTxDone, uint32(p))
			pt.txWakeAt = end
		} else {
			pt.txWakeAt = 0 // a wake still pending is stale now
		}
	}
	header := now + pt.prop
	pk.inPort, pk.inLocal = pt.peer, pt.peerLocal
	pk.tailAt = header + tx
	if pt.toHost {
		n.sim.At(header, evArrive, uint32(k))
		return
	}
	sw := &n.sws[pt.peerOwner]
	out := sw.out(pk.dlid)
	if n.ar.On {
		out = n.adaptiveOut(pt.peerOwner, pk.dlid, out)
	}
	pk.outPort = out
	ready := header + n.cfg.SwitchLatency
	var next engine.Time // the packet's time on the output link
	if sw.rateMbps > 0 {
		next = sw.txTime(pk.wire)
	} else {
		next = n.ports[out].txTime(pk.wire)
	}
	if t := pk.tailAt - next; t > ready {
		ready = t
	}
	n.sim.At(ready, evArrive, uint32(k))
}

// freeBuffer releases c credits of VL vl at input port q now; see
// freeBufferAt.
func (n *Network) freeBuffer(q int32, vl VL, c int32) { n.freeBufferAt(q, vl, c, n.sim.Now()) }

// freeBufferAt releases c credits of VL vl at input port q as of time at
// (counted as returning from now on); the credit update reaches the upstream
// port after the flow-control delay and the link's propagation delay.
func (n *Network) freeBufferAt(q int32, vl VL, c int32, at engine.Time) {
	in := &n.ports[q]
	ln := n.lane(in.peer, vl) // the upstream port keeps the count of q's buffer
	ln.used -= c
	ln.returning += c
	n.sim.At(at+n.cfg.FCDelay+in.prop, evCredit, packCredit(in.peer, vl, c))
}

// packCredit packs a credit update for port p: 20 bits of port, 4 of VL and
// 8 of credits (an MTU-4096 packet takes 69 credits).
func packCredit(p int32, vl VL, c int32) uint32 {
	return uint32(p)<<12 | uint32(vl)<<8 | uint32(c)
}

// unpackCredit is packCredit's inverse.
func unpackCredit(arg uint32) (p int32, vl VL, c int32) {
	return int32(arg >> 12), VL(arg >> 8 & 15), int32(arg & 255)
}

// maxPorts is the most ports a network may have: a credit update carries
// its port's index in 20 bits.
const maxPorts = 1 << 20

// checkPorts refuses a network of n ports if credit updates cannot address
// them all.
func checkPorts(n int) error {
	if n > maxPorts {
		return fmt.Errorf("%w: %d ports; credit updates address at most %d", fabric.ErrBadScenario, n, maxPorts)
	}
	return nil
}

// credit applies a credit update as it reaches the output port it is for:
// the port may send that many more credits' worth of packets on the VL.
// This is where the credit conservation invariant of each link and VL is
// kept, with transmit and freeBufferAt:
//
//	sender's credits + receiver's used + receiver's returning = bufCap
//
// (all three kept in the sender's lane). transmit moves a packet's credits
// from the sender's count to the receiver's used; freeBufferAt moves them
// from used to returning when the buffer frees; credit moves them from
// returning back to the sender. So
// no buffer ever holds more than it has room for and nothing is dropped. A
// count found outside 0..bufCap is counted in violations, and a run with
// any fails (RunContext).
func (n *Network) credit(arg uint32) {
	p, vl, c := unpackCredit(arg)
	ln := n.lane(p, vl)
	ln.credits += c
	ln.returning -= c
	if !n.balanced(p, vl) {
		n.violations++
	}
	n.tryOutput(p)
}

// balanced reports whether output port p's VL vl keeps credit conservation
// (see credit): no term negative and the three summing to the peer's buffer.
func (n *Network) balanced(p int32, vl VL) bool {
	ln := n.lane(p, vl)
	held, used, back := ln.credits, ln.used, ln.returning
	return held >= 0 && used >= 0 && back >= 0 && held+used+back == n.ports[p].peerCap
}

func (n *Network) tryOutput(p int32) {
	if n.ports[p].host {
		n.tryHCA(n.ports[p].owner)
	} else {
		n.trySwitch(p)
	}
}
