package model

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// propChecker checks a run's invariants at the instants it is stopped at.
// Each check recounts what the model keeps in counters from the packets
// themselves (where they are, what they hold) and compares, so that a
// counter kept wrong by the model is caught, not trusted. It also keeps
// the previous instant's byte counts, to bound every rate between two
// instants by its link's.
type propChecker struct {
	n *Network
	// At the previous instant: the time, the bytes each port had sent and
	// the payload each HCA had injected.
	at       engine.Time
	txBytes  []int64
	injected []int64
}

func newPropChecker(n *Network) *propChecker {
	return &propChecker{n: n, txBytes: make([]int64, len(n.ports)), injected: make([]int64, len(n.hcas))}
}

// check returns every invariant that fails now, joined, or nil.
func (c *propChecker) check() error {
	var errs []error
	fail := func(format string, a ...any) {
		if len(errs) < 8 {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	n := c.n
	now := n.Now()
	if n.violations > 0 {
		fail("the model counted %d credit violations", n.violations)
	}

	// Packets: every packet is free once or live; a live one is in at most
	// one queue (a switch's VoQ, an HCA's control queue), and the queues'
	// counters match what they hold.
	live := make([]bool, len(n.pkts))
	for i := range live {
		live[i] = true
	}
	for _, k := range n.free {
		if !live[k] {
			fail("packet %d freed twice", k)
		}
		live[k] = false
	}
	queued := make([]bool, len(n.pkts))
	enqueue := func(k int32, where string) bool {
		switch {
		case k < 0 || int(k) >= len(n.pkts):
			fail("%s holds packet %d, which does not exist", where, k)
		case !live[k]:
			fail("%s holds packet %d, which is free", where, k)
		case queued[k]:
			fail("packet %d is in two queues (one is %s)", k, where)
		default:
			queued[k] = true
			return true
		}
		return false
	}
	for s := range n.sws {
		sw := &n.sws[s]
		for out := int32(0); out < sw.nPorts; out++ {
			o := sw.firstPort + out
			total := int32(0)
			for v := 0; v < n.nVL; v++ {
				count := int32(0)
				for in := int32(0); in < sw.nPorts; in++ {
					q := &voq{head: -1, tail: -1} // a VoQ not in the table is empty
					if i := n.voqs.find(voqKey(o, VL(v), in)); i >= 0 {
						q = n.voqs.at(i)
					}
					where := fmt.Sprintf("switch %d VoQ in %d VL %d out %d", s, in, v, out)
					last := int32(-1)
					for k, steps := q.head, 0; k >= 0 && steps <= len(n.pkts); k, steps = n.pkts[k].next, steps+1 {
						if !enqueue(k, where) {
							break
						}
						pk := &n.pkts[k]
						if pk.inPort != sw.firstPort+in || pk.vl != VL(v) || pk.outPort != o {
							fail("%s holds packet %d of input %d VL %d output %d", where, k, pk.inPort, pk.vl, pk.outPort)
						}
						if k == q.head && q.credits != pk.credits {
							fail("%s: head needs %d credits, the VoQ says %d", where, pk.credits, q.credits)
						}
						last = k
						count++
					}
					if q.tail != last {
						fail("%s: tail %d, last packet %d", where, q.tail, last)
					}
					bit := n.ready[n.readyWord(sw.firstPort+out, VL(v))+int(in>>6)]>>(in&63)&1 == 1
					if bit == q.empty() {
						fail("%s: ready bit %v, empty %v", where, bit, q.empty())
					}
				}
				if w := n.lane(o, VL(v)).waiting; w != count {
					fail("switch %d output %d VL %d: %d packets wait, counter says %d", s, out, v, count, w)
				}
				total += count
			}
			if q := n.ports[o].queued; q != total {
				fail("switch %d output %d: %d packets queued, counter says %d", s, out, total, q)
			}
		}
	}
	// The VoQ table holds the VoQs that exist and nothing else: each has
	// packets or (fill per VoQ) a fill, belongs to a switch's output and
	// input, is found where a lookup of its key looks, and the table
	// counts them.
	inTable := 0
	for i := range n.voqs.slots {
		key := n.voqs.slots[i].key
		if key == voqNoKey {
			continue
		}
		inTable++
		q := &n.voqs.slots[i].q
		out, in := int32(key>>12), int32(key&255)
		where := fmt.Sprintf("VoQ table slot %d (output port %d VL %d input %d)", i, out, key>>8&15, in)
		switch {
		case q.empty() && (q.fill == 0 || !n.cc.perVoQ):
			fail("%s: exists for nothing (no packet, fill %d)", where, q.fill)
		case int(out) >= len(n.ports) || n.ports[out].host || in >= n.sws[n.ports[out].owner].nPorts:
			fail("%s: no such switch output and input", where)
		case n.voqs.find(key) != int32(i):
			fail("%s: a lookup of its key finds slot %d", where, n.voqs.find(key))
		}
	}
	if inTable != n.voqs.live {
		fail("the VoQ table holds %d VoQs, counts %d", inTable, n.voqs.live)
	}
	for h := range n.hcas {
		q := &n.hcas[h].ctrl
		for i := 0; i < q.len(); i++ {
			k := q.buf[(q.head+i)&(len(q.buf)-1)]
			if enqueue(k, fmt.Sprintf("HCA %d's control queue", h)) && (n.pkts[k].kind != kindCNP || n.pkts[k].tailAt != 0) {
				fail("HCA %d's control queue holds packet %d of kind %d sent at %v", h, k, n.pkts[k].kind, n.pkts[k].tailAt)
			}
		}
	}

	// Credits, per link direction and VL, ACKs and CNPs included: what the
	// packets sent into a buffer and not yet freed there hold (occupancy),
	// against the sender's count of that buffer and its size. A packet
	// that has been sent has a tail time; one that has not (an ACK or CNP
	// waiting at its adapter) is in no buffer.
	occ := make([]int32, len(n.ports)*n.nVL)
	inFlight := make([]int64, len(n.flows))
	windowPkts := make([]int, len(n.flows)) // santos: data packets and ACKs of each flow
	becnsLive := int64(0)
	lastLive := int64(0) // data packets that end their message
	for k := range n.pkts {
		if !live[k] {
			continue
		}
		pk := &n.pkts[k]
		switch pk.kind {
		case kindData:
			inFlight[pk.flow] += int64(pk.payload)
			if pk.payload <= 0 || pk.payload > int32(n.cfg.MTU) || pk.wire != pk.payload+int32(n.cfg.HeaderBytes) ||
				pk.credits != (pk.wire+63)/64 {
				fail("data packet %d: payload %d, wire %d, credits %d (MTU %d)", k, pk.payload, pk.wire, pk.credits, n.cfg.MTU)
			}
			if pk.tailAt == 0 {
				fail("data packet %d is live but was never sent", k)
			}
			if pk.last {
				lastLive++
			}
		case kindCNP:
			if pk.becn {
				becnsLive++
			}
		default:
			fail("packet %d of unknown kind %d", k, pk.kind)
		}
		windowPkts[pk.flow]++
		if pk.tailAt == 0 {
			continue // an ACK or CNP not sent yet
		}
		if pk.inPort < 0 || int(pk.inPort) >= len(n.ports) || int(pk.vl) >= n.nVL {
			fail("packet %d is at port %d VL %d", k, pk.inPort, pk.vl)
			continue
		}
		occ[int(pk.inPort)*n.nVL+int(pk.vl)] += pk.credits
	}
	for i := range n.ports {
		p := &n.ports[i]
		if p.peer < 0 {
			for v := 0; v < n.nVL; v++ {
				if o := occ[i*n.nVL+v]; o != 0 {
					fail("unconnected port %d VL %d buffers %d credits of packets", i, v, o)
				}
			}
			continue
		}
		q := int(p.peer)
		bufCap := n.ports[q].bufCap
		if p.peerCap != bufCap {
			fail("port %d keeps its peer's buffer as %d credits; it is %d", i, p.peerCap, bufCap)
		}
		for v := 0; v < n.nVL; v++ {
			ln := n.lane(int32(i), VL(v))
			held := occ[q*n.nVL+v]
			if held > bufCap {
				fail("port %d VL %d: its buffer holds packets of %d credits, over its %d", q, v, held, bufCap)
			}
			if ln.used != held {
				fail("port %d VL %d: its sender counts %d credits used, the packets there hold %d", q, v, ln.used, held)
			}
			if ln.credits < 0 || ln.returning < 0 || ln.credits+ln.used+ln.returning != bufCap {
				fail("port %d VL %d: credits %d + used %d + returning %d, buffer %d", i, v, ln.credits, ln.used, ln.returning, bufCap)
			}
		}
	}

	// Bytes, per flow: every payload byte injected is in host memory, in
	// the receive DMA or in a live packet. Messages: a flow's current one
	// has 0..its size left, and a greedy flow's finished ones are whole.
	pending := make([]int64, len(n.flows))
	injected := make([]int64, len(n.hcas))
	for h := range n.hcas {
		for _, d := range n.hcas[h].arrived {
			pending[d.flow] += int64(d.bytes)
		}
	}
	for i := range n.flows {
		f := &n.flows[i]
		if f.sent != f.delivered+inFlight[i]+pending[i] {
			fail("flow %s: sent %d bytes, delivered %d, in packets %d, in the receive DMA %d: %d lost",
				f.spec.Name, f.sent, f.delivered, inFlight[i], pending[i], f.sent-f.delivered-inFlight[i]-pending[i])
		}
		if f.msgLeft < 0 || f.msgLeft > f.msgSize {
			fail("flow %s: %d bytes of a %d-byte message left", f.spec.Name, f.msgLeft, f.msgSize)
		}
		if f.gen == nil && (f.sent-int64(f.msgSize-f.msgLeft))%int64(n.cfg.MessageSize) != 0 {
			fail("flow %s: sent %d bytes, %d of the current message: not whole %d-byte messages", f.spec.Name, f.sent, f.msgSize-f.msgLeft, n.cfg.MessageSize)
		}
		if f.gen != nil && (f.gen.n < 0 || f.gen.n > maxQueued) {
			fail("flow %s: %d messages queued", f.spec.Name, f.gen.n)
		}
		injected[f.src] += f.sent
	}
	// Messages, when every flow is greedy (so every message has the run's
	// message size): each a source finished has been received (its last
	// packet's header is in: the run counts its latency) or has its last
	// packet in flight. The latency count leaves out messages received
	// before the measurement window or whose DMA ends after the run; none
	// is when the window starts at 0 and every receive DMA is done by the
	// run's end.
	greedy, dmaDone := true, true
	for i := range n.flows {
		greedy = greedy && n.flows[i].gen == nil
	}
	for h := range n.hcas {
		dmaDone = dmaDone && n.hcas[h].dmaFree <= n.stats.to
	}
	if greedy && dmaDone && n.stats.started && n.stats.winStart == 0 {
		finished := int64(0)
		for i := range n.flows {
			f := &n.flows[i]
			if f.msgLeft == 0 { // between messages
				finished += f.sent / int64(n.cfg.MessageSize)
			} else {
				finished += (f.sent - int64(f.msgSize-f.msgLeft)) / int64(n.cfg.MessageSize)
			}
		}
		if finished != n.stats.all.count+lastLive {
			fail("sources finished %d messages; %d received, %d in flight", finished, n.stats.all.count, lastLive)
		}
	}

	// Notifications: every BECN sent (in a CNP or an ACK) is received or
	// still on its way.
	if n.counters.CNPs != n.counters.BECNs+becnsLive {
		fail("%d BECNs sent, %d received, %d on their way", n.counters.CNPs, n.counters.BECNs, becnsLive)
	}

	// Windows: a santos source has at most one packet out, counting its
	// ACK, and has one out exactly while its window is closed.
	if s := n.santos; s != nil {
		for i := range n.flows {
			f := &n.flows[i]
			closed := f.readyAt == math.MaxInt64
			if out := windowPkts[i]; out > 1 || (out == 1) != closed {
				fail("santos flow %s: %d packets and ACKs out, window closed %v", f.spec.Name, out, closed)
			}
			if r := s.flows[i].rateGbps; !(r >= s.rule.rMin && r <= s.rule.rMax) {
				fail("santos flow %s: rate %g Gbit/s outside [%g, %g]", f.spec.Name, r, s.rule.rMin, s.rule.rMax)
			}
		}
	}

	// CCTI within [ccti_min, ccti_limit].
	if n.cc.on {
		for slot, v := range n.cc.ccti {
			if v < int32(n.cfg.CC.CCTIMin) || v > int32(n.cfg.CC.CCTILimit) {
				fail("CCTI slot %d at %d, outside [%d, %d]", slot, v, n.cfg.CC.CCTIMin, n.cfg.CC.CCTILimit)
			}
		}
	}

	// Rates: between two instants a link sends at most its rate's worth
	// plus the one packet it started last (and is busy for one packet at
	// most), and an HCA's send DMA injects at most its I/O bandwidth's
	// worth plus one MTU; its receive DMA ends packets at least their time
	// at that bandwidth apart; a nicrate flow sends at most its admitted
	// rate since it started, plus one MTU.
	dt := int64(now - c.at)
	maxWire := int64(n.cfg.MTU + n.cfg.HeaderBytes)
	for i := range n.ports {
		p := &n.ports[i]
		if p.peer < 0 {
			if p.txBytes != 0 {
				fail("unconnected port %d sent %d bytes", i, p.txBytes)
			}
			continue
		}
		if d := p.txBytes - c.txBytes[i]; d*8_000_000 > p.rateMbps*dt+maxWire*8_000_000 {
			fail("port %d sent %d bytes in %v, over its %d Mbit/s", i, d, engine.Time(dt), p.rateMbps)
		}
		if p.linkFree > now+txTime(int32(maxWire), p.rateMbps) {
			fail("port %d busy until %v at %v: longer than an MTU packet", i, p.linkFree, now)
		}
		c.txBytes[i] = p.txBytes
	}
	for h := range n.hcas {
		io := n.hcas[h].ioMbps
		if d := injected[h] - c.injected[h]; d*8_000_000 > io*dt+int64(n.cfg.MTU)*8_000_000 {
			fail("HCA %d injected %d bytes in %v, over its %d Mbit/s I/O", h, d, engine.Time(dt), io)
		}
		c.injected[h] = injected[h]
		arrived := n.hcas[h].arrived
		for j := 1; j < len(arrived); j++ {
			if gap := arrived[j].at - arrived[j-1].at; gap < txTime(arrived[j].bytes, io) {
				fail("HCA %d's receive DMA moved %d bytes in %v, over its %d Mbit/s I/O", h, arrived[j].bytes, gap, io)
			}
		}
	}
	if s := n.nic; s != nil {
		for i := range n.flows {
			f := &n.flows[i]
			if !f.active {
				continue
			}
			if r := s.rateMbps[i]; f.sent*8_000_000 > r*int64(now-f.start)+int64(n.cfg.MTU)*8_000_000 {
				fail("nicrate flow %s sent %d bytes in %v, over its %d Mbit/s", f.spec.Name, f.sent, now-f.start, r)
			}
		}
	}
	c.at = now
	return errors.Join(errs...)
}

// drainable reports whether what is in the network now surely leaves it
// by the run's end once the sources stop: every buffered byte through the
// slowest link or DMA, twice over, plus a switch latency, propagation and
// flow-control delay and an MTU packet's time at every hop there is, and
// every receive DMA done. (Links work whenever they have a packet and
// credits, so all the buffered bytes crossing the slowest one after
// another bounds the time they take to leave.)
func (c *propChecker) drainable() bool {
	n := c.n
	var credits int64
	slowest := int64(math.MaxInt64)
	for h := range n.hcas {
		slowest = min(slowest, n.hcas[h].ioMbps)
	}
	for i := range n.ports {
		p := &n.ports[i]
		if p.peer < 0 {
			continue
		}
		slowest = min(slowest, p.rateMbps)
		for v := 0; v < n.nVL; v++ {
			credits += int64(n.lane(int32(i), VL(v)).used)
		}
	}
	dmaDone := engine.Time(0)
	for h := range n.hcas {
		credits += int64(n.hcas[h].ctrl.len()) * 2 // an ACK or CNP: 30-42 bytes
		dmaDone = max(dmaDone, n.hcas[h].dmaFree)
	}
	hops := engine.Time(len(n.sws) + 1)
	perHop := n.cfg.SwitchLatency + n.cfg.PropDelay + n.cfg.FCDelay + txTime(int32(n.cfg.MTU+n.cfg.HeaderBytes), slowest)
	bound := 2*txTime(int32(min(credits*64, 1<<30)), slowest) + hops*perHop + 10*engine.Microsecond
	return max(n.Now(), dmaDone)+bound < n.End()
}

// drained returns what is left in a network that should be empty: live
// packets, queued ones, credits not back, bytes not delivered.
func (c *propChecker) drained() error {
	n := c.n
	var errs []error
	if live := len(n.pkts) - len(n.free); live != 0 {
		errs = append(errs, fmt.Errorf("%d packets still live", live))
	}
	for i := range n.ports {
		p := &n.ports[i]
		if p.peer < 0 {
			continue
		}
		if p.queued != 0 {
			errs = append(errs, fmt.Errorf("port %d: %d packets queued", i, p.queued))
		}
		for v := 0; v < n.nVL; v++ {
			if ln := n.lane(int32(i), VL(v)); ln.credits != p.peerCap {
				errs = append(errs, fmt.Errorf("port %d VL %d holds %d credits of %d", i, v, ln.credits, p.peerCap))
			}
		}
	}
	for h := range n.hcas {
		if q := n.hcas[h].ctrl.len(); q != 0 {
			errs = append(errs, fmt.Errorf("HCA %d: %d ACKs or CNPs unsent", h, q))
		}
	}
	n.settleDeliveries()
	for i := range n.flows {
		if f := &n.flows[i]; f.sent != f.delivered {
			errs = append(errs, fmt.Errorf("flow %s: sent %d bytes, delivered %d", f.spec.Name, f.sent, f.delivered))
		}
	}
	return errors.Join(errs...)
}

// TestPropertyCheckerCatches breaks a running network's state in one way
// each, as a bug in the model would, and wants propChecker to name it: a
// checker that no longer sees a kind of bug (a packet state it skips, a
// counter it trusts) fails here, not only when someone plants the bug.
func TestPropertyCheckerCatches(t *testing.T) {
	liveData := func(t *testing.T, n *Network) int32 {
		isFree := map[int32]bool{}
		for _, k := range n.free {
			isFree[k] = true
		}
		for k := range n.pkts {
			if !isFree[int32(k)] && n.pkts[k].kind == kindData {
				return int32(k)
			}
		}
		t.Fatal("no data packet in flight")
		return -1
	}
	busy := func(n *Network) int32 { return n.hcas[n.flows[0].src].port } // F1 sends all the time
	cases := []struct {
		name, scheme, want string
		corrupt            func(t *testing.T, n *Network)
	}{
		{"nothing broken", params.SchemeIB, "", func(t *testing.T, n *Network) {}},
		{"nothing broken", params.SchemeSantos, "", func(t *testing.T, n *Network) {}},
		// What an ACK that leaks a credit leaves once the rest is back: the
		// sum still right, one credit used by no packet.
		{"a credit kept by the buffer", params.SchemeIB, "credits used, the packets there hold",
			func(t *testing.T, n *Network) {
				ln := n.lane(busy(n), 0)
				if ln.credits == 0 {
					t.Fatal("F1's port holds no credit")
				}
				ln.used++
				ln.credits--
			}},
		{"a packet bigger than its buffer", params.SchemeIB, "its buffer holds packets of",
			func(t *testing.T, n *Network) { n.pkts[liveData(t, n)].credits += int32(n.cfg.SwitchBufferCredits) }},
		{"a packet lost", params.SchemeIB, "lost",
			func(t *testing.T, n *Network) { n.free = append(n.free, liveData(t, n)) }},
		{"a packet freed twice", params.SchemeIB, "freed twice",
			func(t *testing.T, n *Network) { n.free = append(n.free, n.free[0]) }},
		{"an empty VoQ kept", params.SchemeIB, "exists for nothing",
			func(t *testing.T, n *Network) {
				sw := &n.sws[0]
				n.voqs.get(voqKey(sw.firstPort+sw.nPorts-1, 0, 0))
			}},
		{"a VoQ miscounted", params.SchemeIB, "VoQ table holds", func(t *testing.T, n *Network) { n.voqs.live++ }},
		{"a BECN lost", params.SchemeIB, "BECNs sent", func(t *testing.T, n *Network) { n.counters.CNPs++ }},
		{"CCTI over its limit", params.SchemeIB, "CCTI slot 2 at 4, outside [0, 3]", func(t *testing.T, n *Network) { n.cc.ccti[2]++ }},
		{"CCTI under its floor", params.SchemeIB, "CCTI slot 0 at -1", func(t *testing.T, n *Network) { n.cc.ccti[0] = -1 }},
		{"a link faster than its rate", params.SchemeIB, "Mbit/s", func(t *testing.T, n *Network) { n.ports[busy(n)].txBytes += 1 << 20 }},
		{"a santos window opened early", params.SchemeSantos, "window closed",
			func(t *testing.T, n *Network) {
				f := &n.flows[n.pkts[liveData(t, n)].flow]
				f.readyAt = n.Now()
			}},
		{"a santos rate over r_max", params.SchemeSantos, "outside", func(t *testing.T, n *Network) { n.santos.flows[0].rateGbps *= 1.5 }},
	}
	for _, c := range cases {
		t.Run(c.scheme+" "+c.name, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase, cfg.Sample = 100*engine.Microsecond, 100*engine.Microsecond // all five flows on by 400 µs
			cfg.CC.Scheme = c.scheme
			cfg.CC.CCTILimit = 3 // BECNs reach it
			n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			chk := newPropChecker(n)
			for at := engine.Time(0); at <= 460*engine.Microsecond; at += 50*engine.Microsecond + 7 {
				n.RunUntil(at)
				if err := chk.check(); err != nil {
					t.Fatalf("at %v before anything was broken: %v", at, err)
				}
			}
			// The model's own transport (no pinned older one): F3's CCTI
			// is at its limit at 450 µs (the last check, at 450 µs + 63 ps).
			if c.scheme == params.SchemeIB && (n.counters.BECNs == 0 || n.cc.ccti[2] != 3) {
				t.Fatalf("%d BECNs, F3's CCTI %d: want CC at work, F3's CCTI at its limit", n.counters.BECNs, n.cc.ccti[2])
			}
			c.corrupt(t, n)
			err = chk.check()
			switch {
			case c.want == "" && err != nil:
				t.Fatal(err)
			case c.want != "" && err == nil:
				t.Fatalf("nothing found; want %q", c.want)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Fatalf("found %v; want %q", err, c.want)
			}
			t.Log(err)
		})
	}
}
