package model

import (
	"math"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
)

type hcaState struct {
	port    int32
	node    fabric.NodeID
	flows   []int32 // flows sourced here, in scenario order
	rr      int
	ioFree  engine.Time // the send DMA can start the next packet then
	ioMbps  int64       // payload rate of its DMA, each direction (hostio.go)
	msgFree engine.Time // the next message may start then (hca_msg_rate)
	wakeAt  engine.Time
	ctrl    fifo        // control packets (CNPs) to send ahead of data
	dmaFree engine.Time // the receive DMA is free from then
	arrived []delivery  // payload moved or being moved to host memory, in DMA order
}

// delivery is a packet's payload reaching host memory at a known time.
type delivery struct {
	at    engine.Time
	flow  int32
	bytes int32
}

// receive hands data packet k, whose header has just reached HCA h, to the
// receive DMA, which moves payloads to host memory one at a time at the I/O
// bandwidth and cannot finish a packet before its tail has arrived. The DMA
// schedule is known at once: the buffer frees (and its credits start back)
// when the move ends, and the payload counts as delivered from then on.
func (n *Network) receive(h, k int32) {
	hc := &n.hcas[h]
	pk := &n.pkts[k]
	now := n.sim.Now()
	// What has reached host memory by now is counted now, so that the list
	// holds only the payloads still being moved (a few), not every one of
	// a sampling interval, which at ten thousand hosts is tens of MB that
	// each receive writes a cold line of. A flow's delivered bytes are
	// read only after settleDeliveries, so they read the same.
	if len(hc.arrived) > 0 && hc.arrived[0].at <= now {
		n.settle(hc, now)
	}
	end := max(now, hc.dmaFree) + txTime(pk.payload, hc.ioMbps)
	end = max(end, pk.tailAt)
	hc.dmaFree = end
	n.freeBufferAt(hc.port, pk.vl, pk.credits, end)
	hc.arrived = append(hc.arrived, delivery{at: end, flow: pk.flow, bytes: pk.payload})
	if pk.last {
		if n.apps != nil && pk.flow >= n.apps.flow0 {
			n.appDelivered(pk.flow, end)
		} else {
			n.stats.message(n.flows[pk.flow].role, pk.born, end)
		}
	}
	n.freePacket(k)
}

// settleDeliveries counts as delivered every payload whose DMA has ended by
// now, and forgets them.
func (n *Network) settleDeliveries() {
	now := n.sim.Now()
	for h := range n.hcas {
		n.settle(&n.hcas[h], now)
	}
}

// settle counts as delivered every payload of hc whose DMA has ended by
// now, and forgets them.
func (n *Network) settle(hc *hcaState, now engine.Time) {
	i := 0
	for ; i < len(hc.arrived) && hc.arrived[i].at <= now; i++ {
		d := hc.arrived[i]
		n.flows[d.flow].delivered += int64(d.bytes)
	}
	hc.arrived = hc.arrived[:copy(hc.arrived, hc.arrived[i:])]
}

// wake makes HCA h try to send again at t, unless a try is due by then.
//
// The stale-wake rule of evWake: an HCA may have several evWake events
// pending, since a credit update or a CNP can make it plan an earlier try;
// wakeAt is the earliest try still planned. An evWake that fires clears
// wakeAt only if it is that try (wakeAt <= now), then calls tryHCA, which
// plans the next one. A stale evWake (one for a try since superseded) still
// calls tryHCA: trying early is harmless, as tryHCA checks the link, the send
// DMA, each flow's injection delay and the credits, and sends nothing that
// is not due. Unlike a switch output's (txDone), an HCA's stale wakes do not
// re-plan themselves, so they cannot pile up.
func (n *Network) wake(h int32, t engine.Time) {
	hc := &n.hcas[h]
	if hc.wakeAt > n.sim.Now() && hc.wakeAt <= t {
		return
	}
	hc.wakeAt = t
	n.sim.At(t, evWake, uint32(h))
}

// tryHCA lets HCA h start its next packet: control packets first, then its
// active flows take turns round-robin, each as soon as its injection delay
// has passed and the port holds credits for its next packet. The send DMA
// paces injection at the I/O bandwidth. After sending, it wakes itself when
// it can next send; a credit update or a new CNP wakes it earlier.
func (n *Network) tryHCA(h int32) {
	hc := &n.hcas[h]
	pt := &n.ports[hc.port]
	now := n.sim.Now()
	if hc.ctrl.len() > 0 {
		if now < pt.linkFree {
			n.wake(h, pt.linkFree)
			return
		}
		k := hc.ctrl.peek()
		if n.pkts[k].credits <= n.lane(hc.port, n.pkts[k].vl).credits {
			hc.ctrl.pop()
			n.transmit(hc.port, k, -1)
			n.wake(h, n.nextSend(hc, pt))
		}
		return
	}
	if next := n.nextSend(hc, pt); next > now {
		if next != math.MaxInt64 {
			n.wake(h, next)
		}
		return
	}
	if n.nic != nil {
		n.nicPick(hc, now)
	}
	nf := len(hc.flows)
	for j := 0; j < nf; j++ {
		idx := hc.rr + j
		if idx >= nf {
			idx -= nf
		}
		fi := hc.flows[idx]
		f := &n.flows[fi]
		if !f.active || f.readyAt > now {
			continue
		}
		startsMsg := f.msgLeft == 0
		if startsMsg {
			if hc.msgFree > now {
				continue // the adapter's message rate; nextSend plans the wake
			}
			if !n.startMessage(f, now) {
				continue // no message waiting; nextSend plans the wake
			}
			if n.drb.on {
				n.drbPick(fi)
			}
		}
		payload := int32(min(n.cfg.MTU, f.msgLeft))
		wire := payload + int32(n.cfg.HeaderBytes)
		c := int32(params.Credits(int(wire)))
		if c > n.lane(hc.port, f.vl).credits {
			continue // a credit update will try again
		}
		k := n.newPacket()
		n.pkts[k] = packet{flow: fi, src: h, dst: f.dst, dlid: f.dlid, payload: payload, wire: wire, credits: c, vl: f.vl, kind: kindData}
		if startsMsg && n.msgGap > 0 {
			hc.msgFree = now + n.msgGap
		}
		f.msgLeft -= int(payload)
		n.pkts[k].ackReq = n.ackRequested(f.msgLeft, (f.msgSize-f.msgLeft+n.cfg.MTU-1)/n.cfg.MTU)
		if f.msgLeft == 0 {
			// The message's last packet: its delivery completes the message.
			n.pkts[k].last, n.pkts[k].born = true, f.born
			f.born = now // a greedy flow's next message waits from now
		}
		f.sent += int64(payload)
		n.counters.Packets++
		hc.rr = idx + 1
		if hc.rr == nf {
			hc.rr = 0
		}
		hc.ioFree = now + txTime(payload, hc.ioMbps)
		// The injection-rate delay (pacedGap, with the paced read) adds to
		// the packet's own time on the link or through the send DMA,
		// whichever is longer.
		own := max(txTime(wire, pt.rateMbps), txTime(payload, hc.ioMbps))
		f.readyAt = now + own + n.pacedGap(f, own)
		if n.srcHook {
			n.schemeSent(fi, now, payload)
		}
		n.transmit(hc.port, k, -1)
		n.wake(h, n.nextSend(hc, pt))
		return
	}
}

// startMessage gives flow f its next message, if one waits, and reports
// whether it has one: a greedy flow always has, a generated source takes
// the oldest message of its queue, with its destination.
func (n *Network) startMessage(f *flowState, now engine.Time) bool {
	g := f.gen
	if g == nil {
		f.msgLeft, f.msgSize = n.cfg.MessageSize, n.cfg.MessageSize
		return true
	}
	g.pull(now)
	if g.n == 0 {
		return false
	}
	m := g.pop()
	f.msgLeft, f.msgSize, f.born = int(m.size), int(m.size), m.at
	if m.dst != f.dst {
		f.dst = m.dst
		n.routeFlow(f, 0)
	}
	return true
}

// nextSend returns the earliest time HCA hc could inject data: when its link
// and send DMA are free and a flow's injection delay has passed
// (math.MaxInt64 when no flow is active).
func (n *Network) nextSend(hc *hcaState, pt *port) engine.Time {
	now := n.sim.Now()
	ready := engine.Time(math.MaxInt64)
	for _, fi := range hc.flows {
		if f := &n.flows[fi]; f.active {
			at := f.readyAt
			if f.msgLeft == 0 { // its next packet starts a message
				at = max(at, hc.msgFree)
				if g := f.gen; g != nil {
					g.pull(now)
					at = max(at, g.readyAt(now))
				}
			}
			ready = min(ready, at)
		}
	}
	if ready == math.MaxInt64 {
		return ready
	}
	return max(pt.linkFree, hc.ioFree, ready)
}

// msgGap is the least time between two message starts at one HCA for a
// message rate in millions per second (0: no cap).
func msgGap(rateMps float64) engine.Time {
	if rateMps <= 0 {
		return 0
	}
	return engine.Time(math.Round(float64(engine.Microsecond) / rateMps))
}
