package model

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"

	"github.com/ccsweep/ccsweep/engine"
)

// maxVLs bounds the data virtual lanes (IB has VL0-VL14 for data).
const maxVLs = 15

// Event kinds of a Network.
const (
	evArrive    uint32 = iota // Arg packet: ready at a switch's VoQ, or its header at an HCA
	evTxDone                  // Arg port: a switch output's link is free and packets wait
	evCredit                  // Arg packed credit update, see packCredit
	evWake                    // Arg HCA: an injection wait (I/O pacing, IRD) is over
	evFlowStart               // Arg flow
	evSample                  // sample every flow's delivered bytes
	evCCTITimer               // Arg timer: a port-SL's CCTI timer expired (congestion control)
)

// Packet kinds.
const (
	kindData uint8 = iota
	kindCNP
)

// port is one end of a link: its output side sends to peer, its input side
// buffers what peer sends.
type port struct {
	node     NodeID
	local    int32 // index among the node's ports
	peer     int32 // port at the far end, -1 if unconnected
	owner    int32 // index of the HCA or switch it belongs to
	host     bool  // belongs to an HCA
	toHost   bool  // its peer belongs to an HCA
	rateMbps int64
	prop     engine.Time

	// Output side.
	linkFree engine.Time  // the output's link is free from then
	wakeSet  bool         // a switch output's evTxDone is due at linkFree
	queued   int32        // packets in VoQs heading here, all VLs
	leave    voqLeave     // CC: the VoQ fill the packet on the link gives up when it has left
	arbIdx   int32        // current entry of the VL arbitration table
	arbLeft  int32        // bytes the current entry may still start
	lane     [maxVLs]lane // per-VL state, output and input side

	// Congestion control (output side).
	victimMask    bool
	markThreshold int32 // fill in credits at which the port-VL is over threshold; 0 never

	// Input side.
	bufCap int32
}

// lane is a port's state for one VL, kept together so that one VL's
// counters share a cache line.
type lane struct {
	// Output side.
	ready   uint64 // bit i: input i's VoQ heading here is not empty (switches of up to 64 ports)
	credits int32  // credits held for the peer's input buffer
	rrIn    int32  // round-robin pointer among input ports
	waiting int32  // packets in VoQs heading here
	// Congestion control, output side.
	markCount  int32 // eligible packets still to pass before the next mark
	voqFill    int32 // credits in the VoQs heading here
	fillInputs int32 // inputs whose VoQ heading here is not empty
	// Input side.
	bufUsed   int32 // credits taken by packets sent to this buffer and not yet freed
	returning int32 // credits freed and on their way back to the peer
}

// voqLeave is a VoQ fill change due when a packet has left the switch.
type voqLeave struct {
	in  int32
	vl  uint8
	c   int32
	at  engine.Time
	set bool
}

type hcaState struct {
	port    int32
	node    NodeID
	flows   []int32 // flows sourced here, in scenario order
	rr      int
	ioFree  engine.Time // the send DMA can start the next packet then
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

type switchState struct {
	firstPort int32
	nPorts    int32
	voq       []fifo  // [in][vl][out]
	fill      []int32 // credits per VoQ, kept when CC is on
	lft       []int32 // destination HCA -> output port (global)
}

type packet struct {
	flow    int32
	src     int32 // source HCA
	dst     int32 // destination HCA
	payload int32
	wire    int32
	credits int32
	vl      uint8
	kind    uint8
	fecn    bool
	becn    bool
	inPort  int32 // port whose input buffer holds it
	outPort int32 // at a switch, the output it was routed to
	tailAt  engine.Time
}

type flowState struct {
	spec      FlowSpec
	src, dst  int32 // HCAs
	vl        uint8
	start     engine.Time
	active    bool
	msgLeft   int
	readyAt   engine.Time // earliest start of the next packet (CC's IRD)
	sent      int64       // payload bytes injected
	delivered int64       // payload bytes absorbed by the destination
	sampled   int64       // delivered at the last sample
	samples   []int64     // payload bytes delivered per sample interval
	cctiTrace []int32     // CCTI at the end of each sample interval (CC on)
	cc        flowCC
}

// Network is one simulation run: a scenario's topology and flows under a
// Config. Build it with NewNetwork, advance it with RunUntil, read it with
// Result. A Network is not safe for concurrent use.
type Network struct {
	cfg      Config
	scenario *Scenario
	seed     uint64
	sim      engine.Sim
	end      engine.Time

	ports []port
	hcas  []hcaState
	sws   []switchState
	flows []flowState
	pkts  []packet
	free  []int32
	nVL   int
	vlArb []arbEntry

	ioMbps     int64
	violations int // credit counters seen out of range
	rng        *rand.Rand
	cc         ccState
	counters   Counters
}

// Counters are whole-run event counts.
type Counters struct {
	Packets int64 // data packets injected
	FECN    int64 // data packets marked with FECN by switches
	CNPs    int64 // congestion notifications (BECN) sent by destinations
	BECNs   int64 // congestion notifications received by sources
}

// ErrBadScenario is wrapped by errors about a scenario's topology or flows.
var ErrBadScenario = errors.New("bad scenario")

// NewNetwork builds the network of sc under cfg, ready to run from time 0.
// The seed drives every random choice of the run.
func NewNetwork(sc *Scenario, cfg Config, seed uint64) (*Network, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	topo := sc.Build(&cfg)
	n := &Network{
		cfg: cfg, scenario: sc, seed: seed, nVL: cfg.VLs,
		end:    engine.Time(sc.Phases) * cfg.Phase,
		ioMbps: mbps(cfg.HostIOGbps),
		rng:    rand.New(rand.NewPCG(seed, 0x1b)),
	}
	n.vlArb, _ = parseVLArb(cfg.VLArb, cfg.VLs) // checked by Validate
	if err := n.build(topo); err != nil {
		return nil, err
	}
	for i, fs := range sc.Flows {
		src, dst := topo.Lookup(fs.Src), topo.Lookup(fs.Dst)
		if src < 0 || dst < 0 || !topo.Nodes[src].Host || !topo.Nodes[dst].Host || src == dst {
			return nil, fmt.Errorf("%w %s: flow %s: %s->%s is not a pair of distinct hosts", ErrBadScenario, sc.Name, fs.Name, fs.Src, fs.Dst)
		}
		f := flowState{
			spec: fs, src: n.ports[n.nodePort(src)].owner, dst: n.ports[n.nodePort(dst)].owner,
			vl:    uint8(fs.SL % cfg.VLs),
			start: engine.Time(fs.StartPhase) * cfg.Phase,
		}
		n.flows = append(n.flows, f)
		h := &n.hcas[f.src]
		h.flows = append(h.flows, int32(i))
		n.sim.At(f.start, evFlowStart, uint32(i))
	}
	n.initCC()
	if cfg.Sample > 0 {
		n.sim.At(cfg.Sample, evSample, 0)
	}
	return n, nil
}

// nodePort returns the first global port of node id (an HCA's only port).
func (n *Network) nodePort(id NodeID) int32 {
	for i := range n.ports {
		if n.ports[i].node == id {
			return int32(i)
		}
	}
	return -1
}

func mbps(gbps float64) int64 { return int64(math.Round(gbps * 1000)) }

// txTime is the time bytes take at rateMbps, rounded up to a picosecond.
func txTime(bytes int32, rateMbps int64) engine.Time {
	return engine.Time((int64(bytes)*8_000_000 + rateMbps - 1) / rateMbps)
}

func (n *Network) build(t *Topology) error {
	first := make([]int32, len(t.Nodes))
	for id, nd := range t.Nodes {
		first[id] = int32(len(n.ports))
		owner := int32(len(n.sws))
		if nd.Host {
			owner = int32(len(n.hcas))
			n.hcas = append(n.hcas, hcaState{port: first[id], node: NodeID(id)})
		} else {
			n.sws = append(n.sws, switchState{firstPort: first[id], nPorts: int32(nd.Ports)})
		}
		for p := 0; p < nd.Ports; p++ {
			n.ports = append(n.ports, port{node: NodeID(id), local: int32(p), peer: -1, owner: owner, host: nd.Host})
		}
	}
	for _, l := range t.Links {
		a, b := first[l.A]+int32(l.APort), first[l.B]+int32(l.BPort)
		for _, pair := range [][2]int32{{a, b}, {b, a}} {
			p := &n.ports[pair[0]]
			p.peer = pair[1]
			p.rateMbps = mbps(l.Gbps)
			p.prop = n.cfg.PropDelay
			p.toHost = t.Nodes[n.ports[pair[1]].node].Host
		}
	}
	if len(n.ports) >= 1<<20 {
		return fmt.Errorf("%w: %d ports; credit updates address at most 2^20", ErrBadScenario, len(n.ports))
	}
	for i := range n.ports {
		p := &n.ports[i]
		p.bufCap = int32(n.cfg.SwitchBufferCredits)
		if p.host {
			p.bufCap = int32(n.cfg.HCABufferCredits)
		}
	}
	for i := range n.ports {
		p := &n.ports[i]
		if p.peer < 0 {
			continue
		}
		if p.rateMbps <= 0 {
			return fmt.Errorf("%w: link at %s port %d has no rate", ErrBadScenario, t.Nodes[p.node].Name, p.local)
		}
		for v := 0; v < n.nVL; v++ {
			p.lane[v].credits = n.ports[p.peer].bufCap
		}
	}
	for s := range n.sws {
		sw := &n.sws[s]
		sw.voq = make([]fifo, int(sw.nPorts)*n.nVL*int(sw.nPorts))
		sw.fill = make([]int32, len(sw.voq))
	}
	if err := n.applyVictimMask(t, n.cfg.CC.VictimMask); err != nil {
		return err
	}
	return n.route(t, first)
}

// route fills every switch's linear forwarding table with min-hop routes:
// a breadth-first search from each destination HCA, ties broken by the
// lowest port number, so routes are deterministic.
func (n *Network) route(t *Topology, first []int32) error {
	dist := make([]int, len(t.Nodes))
	for s := range n.sws {
		n.sws[s].lft = make([]int32, len(n.hcas))
	}
	for h := range n.hcas {
		for i := range dist {
			dist[i] = -1
		}
		dst := n.hcas[h].node
		dist[dst] = 0
		queue := []NodeID{dst}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			if t.Nodes[u].Host && u != dst {
				continue // hosts do not forward
			}
			for p := int32(0); p < int32(t.Nodes[u].Ports); p++ {
				peer := n.ports[first[u]+p].peer
				if peer < 0 {
					continue
				}
				v := n.ports[peer].node
				if dist[v] < 0 {
					dist[v] = dist[u] + 1
					queue = append(queue, v)
				}
			}
		}
		for s := range n.sws {
			sw := &n.sws[s]
			node := n.ports[sw.firstPort].node
			sw.lft[h] = -1
			if dist[node] < 0 {
				continue
			}
			for p := int32(0); p < sw.nPorts; p++ {
				peer := n.ports[sw.firstPort+p].peer
				if peer >= 0 && dist[n.ports[peer].node] == dist[node]-1 {
					sw.lft[h] = sw.firstPort + p
					break
				}
			}
		}
	}
	return nil
}

// Handle runs one event; it is the Network's engine.Handler.
func (n *Network) Handle(e engine.Event) {
	switch e.Kind {
	case evArrive:
		n.arrive(int32(e.Arg))
	case evTxDone:
		n.txDone(int32(e.Arg))
	case evCredit:
		n.credit(e.Arg)
	case evWake:
		h := &n.hcas[e.Arg]
		if h.wakeAt <= n.sim.Now() {
			h.wakeAt = 0
		}
		n.tryHCA(int32(e.Arg))
	case evFlowStart:
		f := &n.flows[e.Arg]
		f.active = true
		f.msgLeft = n.cfg.MessageSize
		f.readyAt = n.sim.Now()
		n.tryHCA(f.src)
	case evSample:
		n.sample()
	case evCCTITimer:
		n.cctiTimer(int32(e.Arg))
	}
}

// RunUntil advances the run to time t (at most to its end).
func (n *Network) RunUntil(t engine.Time) {
	if t > n.end {
		t = n.end
	}
	n.sim.Run(t, n)
}

// End returns the run's length.
func (n *Network) End() engine.Time { return n.end }

// Now returns the run's current time.
func (n *Network) Now() engine.Time { return n.sim.Now() }

// Events returns the number of events run so far.
func (n *Network) Events() uint64 { return n.sim.Handled() }

func (n *Network) newPacket() int32 {
	if k := len(n.free); k > 0 {
		id := n.free[k-1]
		n.free = n.free[:k-1]
		return id
	}
	n.pkts = append(n.pkts, packet{})
	return int32(len(n.pkts) - 1)
}

func (n *Network) freePacket(k int32) { n.free = append(n.free, k) }

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
	}
	pt.lane[vl].credits -= pk.credits
	if pt.lane[vl].credits < 0 {
		n.violations++
	}
	peer := &n.ports[pt.peer]
	peer.lane[vl].bufUsed += pk.credits
	now := n.sim.Now()
	tx := txTime(pk.wire, pt.rateMbps)
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
			pt.wakeSet = true
		}
	}
	header := now + pt.prop
	pk.inPort = pt.peer
	pk.tailAt = header + tx
	if peer.host {
		n.sim.At(header, evArrive, uint32(k))
		return
	}
	out := n.sws[peer.owner].lft[pk.dst]
	pk.outPort = out
	ready := header + n.cfg.SwitchLatency
	if t := pk.tailAt - txTime(pk.wire, n.ports[out].rateMbps); t > ready {
		ready = t
	}
	n.sim.At(ready, evArrive, uint32(k))
}

// txDone wakes switch output p when its link frees with packets waiting.
func (n *Network) txDone(p int32) {
	n.ports[p].wakeSet = false
	n.trySwitch(p)
}

// freeBuffer releases c credits of VL vl at input port q now; see
// freeBufferAt.
func (n *Network) freeBuffer(q int32, vl uint8, c int32) { n.freeBufferAt(q, vl, c, n.sim.Now()) }

// freeBufferAt releases c credits of VL vl at input port q as of time at
// (counted as returning from now on); the credit update reaches the upstream
// port after the flow-control delay and the link's propagation delay.
func (n *Network) freeBufferAt(q int32, vl uint8, c int32, at engine.Time) {
	in := &n.ports[q]
	in.lane[vl].bufUsed -= c
	in.lane[vl].returning += c
	n.sim.At(at+n.cfg.FCDelay+in.prop, evCredit, packCredit(in.peer, vl, c))
}

// packCredit packs a credit update for port p: 20 bits of port, 4 of VL and
// 8 of credits (an MTU-4096 packet takes 69 credits).
func packCredit(p int32, vl uint8, c int32) uint32 {
	return uint32(p)<<12 | uint32(vl)<<8 | uint32(c)
}

func (n *Network) credit(arg uint32) {
	p, vl, c := int32(arg>>12), uint8(arg>>8&15), int32(arg&255)
	pt := &n.ports[p]
	pt.lane[vl].credits += c
	n.ports[pt.peer].lane[vl].returning -= c
	if pt.lane[vl].credits > n.ports[pt.peer].bufCap {
		n.violations++
	}
	n.tryOutput(p)
}

func (n *Network) tryOutput(p int32) {
	if n.ports[p].host {
		n.tryHCA(n.ports[p].owner)
	} else {
		n.trySwitch(p)
	}
}

// voqIndex returns the VoQ of input in, VL vl, output out (switch-local ports).
func (n *Network) voqIndex(sw *switchState, in, vl, out int32) int32 {
	return (in*int32(n.nVL)+vl)*sw.nPorts + out
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
		if !pt.wakeSet {
			n.sim.At(pt.linkFree, evTxDone, uint32(o))
			pt.wakeSet = true
		}
		return
	}
	sw := &n.sws[pt.owner]
	table := n.vlArb
	if len(table) == 1 { // one data VL: nothing to arbitrate
		if pt.lane[0].waiting > 0 {
			if in := n.nextInput(sw, pt, 0); in >= 0 {
				n.transmit(o, n.takeVoQ(sw, pt, in, 0), sw.firstPort+in)
			}
		}
		return
	}
	for j := 0; j < len(table); j++ {
		idx := (int(pt.arbIdx) + j) % len(table)
		vl := table[idx].vl
		if pt.lane[vl].waiting == 0 {
			continue
		}
		in := n.nextInput(sw, pt, vl)
		if in < 0 {
			continue
		}
		k := n.takeVoQ(sw, pt, in, vl)
		if idx != int(pt.arbIdx) || pt.arbLeft <= 0 {
			pt.arbIdx, pt.arbLeft = int32(idx), table[idx].weight
		}
		if pt.arbLeft -= n.pkts[k].wire; pt.arbLeft <= 0 {
			next := (idx + 1) % len(table)
			pt.arbIdx, pt.arbLeft = int32(next), table[next].weight
		}
		n.transmit(o, k, sw.firstPort+in)
		return
	}
}

// takeVoQ removes the head of VoQ (in, vl) of output pt and moves pt's
// round-robin pointer past in.
func (n *Network) takeVoQ(sw *switchState, pt *port, in, vl int32) int32 {
	q := &sw.voq[n.voqIndex(sw, in, vl, pt.local)]
	k := q.pop()
	if q.n == 0 {
		pt.lane[vl].ready &^= 1 << uint(in)
	}
	pt.lane[vl].waiting--
	pt.queued--
	if pt.lane[vl].rrIn = in + 1; pt.lane[vl].rrIn == sw.nPorts {
		pt.lane[vl].rrIn = 0
	}
	return k
}

// nextInput returns the input port that output pt serves next on VL vl:
// round-robin from pt's pointer among inputs whose VoQ head fits in pt's
// credits, or -1.
func (n *Network) nextInput(sw *switchState, pt *port, vl int32) int32 {
	cr := pt.lane[vl].credits
	start := pt.lane[vl].rrIn
	nIn := sw.nPorts
	if nIn <= 64 {
		// Rotate the ready mask so that the pointer's bit comes first.
		m := bits.RotateLeft64(pt.lane[vl].ready, -int(start))
		for m != 0 {
			tz := int32(bits.TrailingZeros64(m))
			m &^= 1 << uint(tz)
			in := (start + tz) & 63
			if n.pkts[sw.voq[n.voqIndex(sw, in, vl, pt.local)].peek()].credits <= cr {
				return in
			}
		}
		return -1
	}
	for i := int32(0); i < nIn; i++ {
		in := start + i
		if in >= nIn {
			in -= nIn
		}
		q := &sw.voq[n.voqIndex(sw, in, vl, pt.local)]
		if q.n > 0 && n.pkts[q.peek()].credits <= cr {
			return in
		}
	}
	return -1
}

func (n *Network) arrive(k int32) {
	pk := &n.pkts[k]
	in := &n.ports[pk.inPort]
	if in.host {
		if pk.kind == kindCNP {
			// The HCA acts on a CNP at once; it never reaches host memory.
			n.receiveBECN(pk)
			n.freeBuffer(pk.inPort, pk.vl, pk.credits)
			n.freePacket(k)
			return
		}
		if pk.fecn && n.cc.on {
			n.sendCNP(pk)
		}
		n.receive(in.owner, k)
		return
	}
	sw := &n.sws[in.owner]
	out := &n.ports[pk.outPort]
	sw.voq[n.voqIndex(sw, in.local, int32(pk.vl), out.local)].push(k)
	out.lane[pk.vl].waiting++
	out.queued++
	if in.local < 64 {
		out.lane[pk.vl].ready |= 1 << uint(in.local)
	}
	n.enterVoQ(pk.inPort, pk.outPort, pk.vl, pk.credits)
	n.trySwitch(pk.outPort)
}

// receive hands data packet k, whose header has just reached HCA h, to the
// receive DMA, which moves payloads to host memory one at a time at the I/O
// bandwidth and cannot finish a packet before its tail has arrived. The DMA
// schedule is known at once: the buffer frees (and its credits start back)
// when the move ends, and the payload counts as delivered from then on.
func (n *Network) receive(h, k int32) {
	hc := &n.hcas[h]
	pk := &n.pkts[k]
	end := max(n.sim.Now(), hc.dmaFree) + txTime(pk.payload, n.ioMbps)
	end = max(end, pk.tailAt)
	hc.dmaFree = end
	n.freeBufferAt(hc.port, pk.vl, pk.credits, end)
	hc.arrived = append(hc.arrived, delivery{at: end, flow: pk.flow, bytes: pk.payload})
	n.freePacket(k)
}

// settleDeliveries counts as delivered every payload whose DMA has ended by
// now, and forgets them.
func (n *Network) settleDeliveries() {
	now := n.sim.Now()
	for h := range n.hcas {
		hc := &n.hcas[h]
		i := 0
		for ; i < len(hc.arrived) && hc.arrived[i].at <= now; i++ {
			d := hc.arrived[i]
			n.flows[d.flow].delivered += int64(d.bytes)
		}
		hc.arrived = hc.arrived[:copy(hc.arrived, hc.arrived[i:])]
	}
}

// wake makes HCA h try to send again at t, unless a try is due by then.
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
		if n.pkts[k].credits <= pt.lane[n.pkts[k].vl].credits {
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
		payload := int32(min(n.cfg.MTU, f.msgLeft))
		wire := payload + int32(n.cfg.HeaderBytes)
		c := int32(credits(int(wire)))
		if c > pt.lane[f.vl].credits {
			continue // a credit update will try again
		}
		k := n.newPacket()
		n.pkts[k] = packet{flow: fi, src: h, dst: f.dst, payload: payload, wire: wire, credits: c, vl: f.vl, kind: kindData}
		f.msgLeft -= int(payload)
		if f.msgLeft == 0 {
			f.msgLeft = n.cfg.MessageSize
		}
		f.sent += int64(payload)
		n.counters.Packets++
		hc.rr = idx + 1
		if hc.rr == nf {
			hc.rr = 0
		}
		hc.ioFree = now + txTime(payload, n.ioMbps)
		// The injection-rate delay adds to the packet's own time on the
		// link or through the send DMA, whichever is longer.
		f.readyAt = now + max(txTime(wire, pt.rateMbps), txTime(payload, n.ioMbps)) + n.ird(f)
		n.transmit(hc.port, k, -1)
		n.wake(h, n.nextSend(hc, pt))
		return
	}
}

// nextSend returns the earliest time HCA hc could inject data: when its link
// and send DMA are free and a flow's injection delay has passed
// (math.MaxInt64 when no flow is active).
func (n *Network) nextSend(hc *hcaState, pt *port) engine.Time {
	ready := engine.Time(math.MaxInt64)
	for _, fi := range hc.flows {
		if f := &n.flows[fi]; f.active {
			ready = min(ready, f.readyAt)
		}
	}
	if ready == math.MaxInt64 {
		return ready
	}
	return max(pt.linkFree, hc.ioFree, ready)
}

func (n *Network) sample() {
	n.settleDeliveries()
	for i := range n.flows {
		f := &n.flows[i]
		f.samples = append(f.samples, f.delivered-f.sampled)
		f.sampled = f.delivered
		if n.cc.on {
			f.cctiTrace = append(f.cctiTrace, n.cc.ccti[f.cc.slot])
		}
	}
	if next := n.sim.Now() + n.cfg.Sample; next <= n.end {
		n.sim.At(next, evSample, 0)
	}
}
