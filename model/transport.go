package model

import (
	"math/rand/v2"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// This file holds what the reliable-connection (RC) transport and the
// adapters add to IB CC on the testbed's hardware (docs/model.md, "What the hardware
// adds"):
//
//   - BECNs ride on RC acknowledgements. A requester asks for an ACK (the
//     AckReq bit) on the last packet of each message and every
//     AckReqPackets packets within it; the responder answers every FECN the
//     QP received since its previous ACK with one BECN in the next ACK. A
//     flow can therefore be told to slow down at most once per ACK, which is
//     what makes a short CCTI_Timer undo the notifications faster than they
//     arrive (claim 1 of the fidelity checks). With BECNReturn "cnp" every
//     FECN is answered at once by its own CNP, as before.
//   - Each adapter's CCTI timer runs free from its own start, not in step
//     with every other adapter's.
//   - The adapter reads a QP's next payload one packet ahead, while the
//     current packet goes out, as long as the QP may send again by then: an
//     unpaced QP streams, and a paced QP whose IRD is within its packet's
//     own time waits its IRD only. A QP with a longer IRD is set aside: it
//     fetches each payload over PCIe only when its previous packet has
//     left, so its packets leave at least the read round trip apart
//     (PacedRead "aside"). Two contributors paced to share one 13 Gbit/s
//     sink need an IRD right at a packet's own time, and those just beyond
//     it fall to the read round trip: together they get about 12 (claim
//     6). Three flows sharing the 32 Gbit/s S1-S2 link need a quarter of
//     a packet's time and four sharing the sink three times it, longer
//     than the round trip: neither loses anything (testbed-s2; claim 6
//     with F4 and F5). With PacedRead "all" every paced QP reads one
//     payload at a time (ib-2 to ib-4).
//
// ACKs that carry no BECN are not simulated: nothing in the model waits for
// them (no window, no retransmission), and at one 30-byte ACK per 16
// packets of 2 KiB their share of a link is 0.1 %.

// rcState is the transport's per-run state.
type rcState struct {
	becnInAck bool
	readAll   bool  // PacedRead "all"
	ackReq    int32 // AckReqPackets
	ackWire   int32 // bytes of an ACK on the wire: headers, CRCs and the AETH
	// Per flow, kept at its destination.
	fecnSeen []bool // a FECN arrived since the flow's last ACK
}

// aethBytes is the ACK extended transport header an ACK adds to the headers.
const aethBytes = 4

// initRC sets up the transport's state once the flows are known.
func (n *Network) initRC() {
	t := n.cfg.Transport
	n.rc = rcState{
		becnInAck: t.BECNReturn == "ack",
		readAll:   t.PacedRead == params.PacedReadAll,
		ackReq:    int32(t.AckReqPackets),
		ackWire:   int32(n.cfg.HeaderBytes + aethBytes),
		fecnSeen:  make([]bool, len(n.flows)),
	}
}

// ackRequested reports whether the requester sets AckReq on a packet that
// leaves left bytes of its message to send and is the message's sentInMsg-th
// packet: on the message's last packet, and on every AckReqPackets-th.
func (n *Network) ackRequested(left, sentInMsg int) bool {
	if left == 0 {
		return true
	}
	return n.rc.ackReq > 0 && sentInMsg%int(n.rc.ackReq) == 0
}

// answerFECN is a destination's congestion answer to data packet pk, whose
// header has just arrived (CC on). With BECNs returned in ACKs it notes a
// FECN and, if pk asks for an ACK, sends the ACK with a BECN once pk's tail
// is in, when the flow had a FECN since its last ACK. With CNPs it answers a
// FECN at once with a CNP.
func (n *Network) answerFECN(pk *packet) {
	if !n.rc.becnInAck {
		if pk.fecn {
			n.sendCNP(pk)
		}
		return
	}
	f := pk.flow
	if pk.fecn {
		n.rc.fecnSeen[f] = true
	}
	if !pk.ackReq || !n.rc.fecnSeen[f] {
		return
	}
	n.rc.fecnSeen[f] = false
	k := n.newPacket()
	n.pkts[k] = packet{flow: f, src: pk.dst, dst: pk.src, dlid: int32(n.routes.LID(int(pk.src), n.routes.PathOf(pk.dlid))),
		wire: n.rc.ackWire, credits: int32(params.Credits(int(n.rc.ackWire))), vl: pk.vl, kind: kindCNP, becn: true}
	n.counters.CNPs++
	n.sim.At(max(pk.tailAt, n.sim.Now()), evAck, uint32(k))
}

// sendAck queues ACK k at its sender's adapter, ahead of its data.
func (n *Network) sendAck(k int32) {
	h := n.pkts[k].src
	n.hcas[h].ctrl.push(k)
	n.tryHCA(h)
}

// pacedGap returns how long flow f waits after a packet beyond the
// packet's own time (own: on the link or through the send DMA, whichever
// is longer): nothing when it is not paced; its IRD when that is at most
// own and PacedRead is "aside" (the next payload was read ahead); else its
// IRD, but at least the read round trip of the payload it fetches next
// (PacedReadLatency).
func (n *Network) pacedGap(f *flowState, own engine.Time) engine.Time {
	ird := n.ird(f)
	if ird == 0 {
		return 0
	}
	if ird <= own && !n.rc.readAll {
		return ird
	}
	return max(ird, n.cfg.Transport.PacedReadLatency)
}

// cctiTimerStarts returns a function giving the first expiry of each CCTI
// timer: one period from time 0 with CCTITimerStart "zero"; with "random"
// a point of the first period drawn for each timer from a stream of the
// run's seed that nothing else draws from, so the timers of different
// adapters tick out of step, as independent hardware clocks do.
func (n *Network) cctiTimerStarts() func() engine.Time {
	period := n.cfg.CC.CCTITimer
	if n.cfg.Transport.CCTITimerStart != "random" {
		return func() engine.Time { return period }
	}
	rng := rand.New(rand.NewPCG(n.seed, 0x7713))
	return func() engine.Time { return 1 + engine.Time(rng.Int64N(int64(period))) }
}
