package model

import (
	"math"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// santosMarking is a switch marking variant of reference 001.
type santosMarking uint8

const (
	markNaive       santosMarking = iota // the packets of a full input buffer
	markInput                            // input-triggered: every packet headed for a root output
	markInputOutput                      // input-triggered plus an output occupancy trigger
)

var santosMarkings = map[string]santosMarking{"naive": markNaive, "input": markInput, "input_output": markInputOutput}

// santosResponse is a source's rate response of reference 001.
type santosResponse uint8

const (
	respAIMD santosResponse = iota
	respFIMD
	respLIPD
)

var santosResponses = map[string]santosResponse{"aimd": respAIMD, "fimd": respFIMD, "lipd": respLIPD}

// rateRule is a source's response to ACKs: f_dec on a marked one, f_inc on
// an unmarked one, the result kept within [rMin, rMax]. Rates may be in any
// unit, the same for all fields.
type rateRule struct {
	resp       santosResponse
	m          float64 // multiplicative decrease (aimd, fimd)
	rMin, rMax float64
	step       float64 // aimd's additive increase per 1/R_min of time, a rate
}

// dec is f_dec: aimd and fimd divide by m; lipd adds one packet time to
// the inter-packet delay, r = R_max/(ipd+1), so 1/r grows by 1/R_max.
func (rr *rateRule) dec(r float64) float64 {
	if rr.resp == respLIPD {
		return r * rr.rMax / (rr.rMax + r)
	}
	return r / rr.m
}

// inc is f_inc: aimd adds a step that makes the rate grow linearly in
// time; fimd multiplies by m^(R_min/r), which
// makes the recovery from f_dec(r) back to r take 1/R_min whatever r
// (reference 001's design method); lipd divides by 1 − R_min/R_max, so
// 1/r falls by R_min/R_max per ACK.
func (rr *rateRule) inc(r float64) float64 {
	switch rr.resp {
	case respFIMD:
		return r * math.Pow(rr.m, rr.rMin/r)
	case respLIPD:
		return r / (1 - rr.rMin/rr.rMax)
	}
	// aimd: rr.step·R_min/r per ACK, and ACKs come every 1/r, so the rate
	// grows by rr.step per 1/R_min of time (rr.step is already a·R_min):
	// linearly in time, as additive increase does (docs/schemes.md, "santos").
	return r + rr.step*rr.rMin/r
}

// next returns the rate after an ACK, marked or not, clamped to
// [rMin, rMax].
func (rr *rateRule) next(r float64, marked bool) float64 {
	if marked {
		r = rr.dec(r)
	} else {
		r = rr.inc(r)
	}
	return min(max(r, rr.rMin), rr.rMax)
}

// santosState is the santos scheme's state in a run: the switches' root
// output counters and each flow's rate and window.
type santosState struct {
	marking   santosMarking
	rule      rateRule // rates in Gbit/s of payload
	outThresh int32    // input_output's trigger, packets
	ackWire   int32
	// toMark is CNT_2 of reference 001, per global port: packets still to
	// be marked as they leave through this switch output. CNT_1, the
	// packets in the switch headed for it, is the port's queued count.
	toMark []int32
	flows  []santosFlow
}

// santosFlow is a flow's source state: a window of one packet and a rate.
type santosFlow struct {
	rateGbps float64
	sentAt   engine.Time // when the packet in flight started
	ownReady engine.Time // when its link and DMA time allow the next one
	payload  int32       // the packet in flight's payload
}

// initSantos sets up the santos scheme: the parsed modes and every flow at
// R_max. R_max defaults to what a host can inject (its I/O bandwidth or
// its link's payload rate, the lower), R_min to R_max/64 (reference 001's
// suggestion).
func (n *Network) initSantos() {
	c := n.cfg.Santos
	rMax := c.RMax(&n.cfg)
	rMin := c.RMinGbps
	if rMin == 0 {
		rMin = rMax / 64
	}
	s := &santosState{
		marking:   santosMarkings[c.Marking], // the words are checked by Param.Parse
		rule:      rateRule{resp: santosResponses[c.Response], m: c.M, rMin: rMin, rMax: rMax, step: c.AIMDIncrease * rMin},
		outThresh: int32(c.OutputThreshold),
		ackWire:   int32(n.cfg.HeaderBytes + aethBytes),
		toMark:    make([]int32, len(n.ports)),
		flows:     make([]santosFlow, len(n.flows)),
	}
	for i := range s.flows {
		s.flows[i].rateGbps = rMax
	}
	n.santos = s
}

// santosArrive runs the switch triggers when packet k has joined a VoQ of
// its input port in. A full input buffer (no room for another MTU packet)
// marks the packets it holds (naive), or makes every output its packets
// head for a root link, whose next CNT_1 departures are marked (input,
// input_output); input_output also makes k's output a root link when more
// than the threshold of packets in the switch head for it.
func (n *Network) santosArrive(k int32) {
	s := n.santos
	pk := &n.pkts[k]
	in := &n.ports[pk.inPort]
	if n.lane(in.peer, pk.vl).used+n.mtuCredits() > in.bufCap { // the sender keeps the count of in's buffer
		sw := &n.sws[in.owner]
		for vl := VL(0); int(vl) < n.nVL; vl++ {
			for out := int32(0); out < sw.nPorts; out++ {
				i := n.voqs.find(voqKey(sw.firstPort+out, vl, in.local))
				if i < 0 || n.voqs.at(i).empty() {
					continue
				}
				q := n.voqs.at(i)
				if s.marking == markNaive {
					for j := q.head; j >= 0; j = n.pkts[j].next {
						n.santosMarkPacket(j)
					}
					continue
				}
				// CNT_2 = CNT_1 on a repeated trigger: reset, not add
				// (reference 001's suggestion), so it never exceeds the
				// packets there are.
				o := sw.firstPort + out
				s.toMark[o] = n.ports[o].queued
			}
		}
	}
	if s.marking == markInputOutput {
		if q := n.ports[pk.outPort].queued; q > s.outThresh {
			s.toMark[pk.outPort] = q
		}
	}
}

// mtuCredits is the credits of an MTU packet.
func (n *Network) mtuCredits() int32 { return int32(params.Credits(n.cfg.MTU + n.cfg.HeaderBytes)) }

// santosDepart marks packet k as switch output p starts it, if p is a root
// link with departures still to mark. Every departure counts, as CNT_1
// counts every packet, but only data packets carry a mark.
func (n *Network) santosDepart(p, k int32) {
	s := n.santos
	if s.toMark[p] > 0 {
		s.toMark[p]--
		n.santosMarkPacket(k)
	}
}

// santosMarkPacket sets the congestion bit of data packet k.
func (n *Network) santosMarkPacket(k int32) {
	if pk := &n.pkts[k]; pk.kind == kindData && !pk.fecn {
		pk.fecn = true
		n.counters.FECN++
	}
}

// santosAck is the destination's answer to every data packet pk: an ACK
// that echoes its mark, sent once pk's tail is in (a packet is acknowledged
// when it is whole), ahead of the destination's data.
func (n *Network) santosAck(pk *packet) {
	k := n.newPacket()
	n.pkts[k] = packet{flow: pk.flow, src: pk.dst, dst: pk.src, dlid: int32(n.routes.LID(int(pk.src), 0)),
		wire: n.santos.ackWire, credits: int32(params.Credits(int(n.santos.ackWire))), vl: pk.vl, kind: kindCNP, becn: pk.fecn}
	if pk.fecn {
		n.counters.CNPs++
	}
	n.sim.At(max(pk.tailAt, n.sim.Now()), evAck, uint32(k))
}

// santosSent closes flow fi's window of one packet as it starts a packet
// of payload bytes at now; its link and DMA let it send again at ready.
func (n *Network) santosSent(fi int32, now engine.Time, payload int32) {
	f := &n.flows[fi]
	sf := &n.santos.flows[fi]
	sf.sentAt, sf.ownReady, sf.payload = now, f.readyAt, payload
	f.readyAt = math.MaxInt64 // until the ACK
}

// santosOnAck applies ACK pk at its source: the rate answers the mark and
// the window opens, the next packet due no earlier than the rate allows
// after the last one started. The caller lets the source try to send.
func (n *Network) santosOnAck(pk *packet) {
	sf := &n.santos.flows[pk.flow]
	if pk.becn {
		n.counters.BECNs++
	}
	sf.rateGbps = n.santos.rule.next(sf.rateGbps, pk.becn)
	f := &n.flows[pk.flow]
	f.readyAt = max(sf.ownReady, sf.sentAt+engine.Time(float64(sf.payload)*8000/sf.rateGbps))
}
