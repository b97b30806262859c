package model

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// VL is a data virtual lane, 0..fabric.MaxVLs-1. A flow's packets travel on
// VL = SL mod vls (no SL-to-VL tables are modelled).
type VL uint8

// Event kinds of a Network.
const (
	evArrive    uint32 = iota // Arg packet: ready at a switch's VoQ, or its header at an HCA
	evTxDone                  // Arg port: a switch output's link is free and packets wait
	evCredit                  // Arg packed credit update, see packCredit
	evWake                    // Arg HCA: an injection wait (I/O pacing, IRD) is over
	evFlowStart               // Arg flow
	evSample                  // sample every flow's delivered bytes
	evCCTITimer               // Arg timer: a port-SL's CCTI timer expired (congestion control)
	evAck                     // Arg packet: an ACK with a BECN may leave its adapter (transport.go)
	evAppRank                 // Arg app<<20|rank: an app starts, or a rank's operation has taken its time (app.go)
	evAppMsg                  // Arg message: an app's message is in its destination's memory (app.go)
)

// Packet kinds.
const (
	kindData uint8 = iota
	kindCNP
)

// port is one end of a link: its output side sends to peer, its input side
// buffers what peer sends.
//
// A port keeps what a packet's hop needs of the peer (peerOwner, peerCap),
// so that a hop (sending, and the credit update that comes back) touches no
// other port. A port is two cache lines (128 bytes; the ports' slice is
// large enough to start on a line): the first holds what every event that
// reaches a port reads (a hop's timing and peer, arbitration's queue count,
// the credit check's buffer size, which side is a host), the second the rate,
// the byte count, CC's and VL arbitration's state and what building the
// network needs (TestPortHotFieldsShareALine).
type port struct {
	// First cache line: the hot fields.
	linkFree  engine.Time // the output's link is free from then
	txWakeAt  engine.Time // a switch output's one live evTxDone is due then; 0: none (see txDone)
	txPs      engine.Time // with txWire: the last packet size sent, and its time on the link
	prop      engine.Time
	peer      int32 // port at the far end, -1 if unconnected
	owner     int32 // index of the HCA or switch it belongs to
	peerOwner int32 // the peer's owner
	queued    int32 // packets in VoQs heading here, all VLs
	txWire    int32
	local     int32 // index among the node's ports
	peerCap   int32 // the peer's input buffer, per VL, in credits
	host      bool  // belongs to an HCA
	toHost    bool  // its peer belongs to an HCA
	// peerLocal is the peer's local index, hcaLocal when the peer is an
	// HCA's: what a packet sent here keeps of its input (packet.inLocal).
	peerLocal uint8

	// Second cache line.
	rateMbps int64
	txBytes  int64    // bytes sent, headers included
	leave    voqLeave // CC: the VoQ fill the packet on the link gives up when it has left
	node     fabric.NodeID
	arbIdx   int32 // current entry of the VL arbitration table
	arbLeft  int32 // bytes the current entry may still start
	// markThreshold is the fill in credits at which the port-VL is over
	// threshold (CC); 0 never.
	markThreshold int32
	bufCap        int32 // the input buffer, per VL, in credits
	victimMask    bool  // CC: marks as a victim too
}

// lane is a port's state for one VL, kept together so that one VL's
// counters share a cache line. The lanes of all ports live in one slice
// (Network.lanes, nVL per port) apart from the ports, so that a port stays
// small (two cache lines) however many VLs a run has.
type lane struct {
	// Output side.
	// heads counts changes of the VoQ heads heading here; failHeads and
	// failCredits are its value and the credits at the last scan that
	// found no head to send (nextInput).
	heads       uint32
	failHeads   uint32
	failCredits int32
	credits     int32 // credits held for the peer's input buffer
	rrIn        int32 // round-robin pointer among input ports
	commit      int32 // Arbitration "commit": 1 + the input the output waits for, 0 none (arbiter.go)
	waiting     int32 // packets in VoQs heading here
	// Congestion control, output side.
	markCount  int32 // eligible packets still to pass before the next mark
	voqFill    int32 // credits in the VoQs heading here
	fillInputs int32 // inputs whose VoQ heading here is not empty
	// The peer's input buffer, kept here beside the credits for it so
	// that a hop and its credit update touch one lane.
	used      int32 // credits taken by packets sent to the peer and not yet freed there
	returning int32 // credits freed at the peer and on their way back
}

// voqLeave is a VoQ fill change due when a packet has left the switch.
type voqLeave struct {
	at  engine.Time
	in  int32
	c   int32
	vl  VL
	set bool
}

type packet struct {
	flow    int32
	src     int32 // source HCA
	dst     int32 // destination HCA
	dlid    int32 // destination LID (Routes.LID), which switches route on
	payload int32
	wire    int32
	credits int32
	vl      VL
	kind    uint8
	fecn    bool
	becn    bool
	ackReq  bool // the requester asks for an ACK (transport.go)
	last    bool // the last packet of its message
	// nextCredits is the credits of the packet at next, written when that
	// packet joins the VoQ behind this one, so that a VoQ's pop reads the
	// new head's credits from the packet it pops and not from the new
	// head, a line more (credits fit a byte: 69 at most, see packCredit).
	nextCredits uint8
	// inLocal is inPort's local index at a switch, hcaLocal at an HCA
	// (transmit copies the sender's peerLocal), so that arriving reads no
	// line of the input port.
	inLocal uint8
	inPort  int32 // port whose input buffer holds it
	outPort int32 // at a switch, the output it was routed to
	next    int32 // the next packet in its VoQ (switch.go)
	tailAt  engine.Time
	born    engine.Time // with last: when the message arrived at its source
}

// flowState is a flow's state in a run. What sending a packet reads and
// writes, and the active bit an adapter's scan of its flows reads, come
// first, within the first cache line; what receiving reads (delivered,
// role and the CC slot apart) next, and the spec and series last. A flow
// is 256 bytes, so that in the flows' slice (large enough to start on a
// line) each flow's first line is one line (TestFlowHotFieldsShareALine).
type flowState struct {
	// First cache line: sending.
	readyAt engine.Time // earliest start of the next packet (CC's IRD)
	gen     *generator  // a generated source's messages; nil: a greedy flow
	msgLeft int         // bytes of the current message still to send; 0: none started
	msgSize int         // the current message's size
	born    engine.Time // when the current message arrived at the source
	sent    int64       // payload bytes injected
	dst     int32       // HCA
	dlid    int32       // destination LID
	cc      flowCC
	vl      VL
	active  bool
	role    uint8 // index into roleIndex, for the run's statistics
	_       [1]byte
	// Second cache line on.
	delivered int64 // payload bytes absorbed by the destination
	src       int32 // HCA
	start     engine.Time
	sampled   int64   // delivered at the last sample
	samples   []int64 // payload bytes delivered per sample interval
	cctiTrace []int32 // CCTI at the end of each sample interval (CC on)
	spec      workload.FlowSpec
	_         [24]byte // to 256 bytes
}

// Network is one simulation run: a scenario's topology and flows under a
// Config. Build it with NewNetwork, advance it with RunUntil, read it with
// Result. A Network is not safe for concurrent use.
type Network struct {
	cfg      params.Config
	scenario *workload.Scenario
	seed     uint64
	sim      engine.Sim
	end      engine.Time

	ports []port
	lanes []lane // per port and VL: lane(p, vl)
	hcas  []hcaState
	sws   []switchState
	voqs  voqTable // the VoQs of every switch (switch.go)

	// ready holds every switch output's ready bits, readyStride words
	// per output and VL, by global port (readyWord): bit in of output
	// p's words on VL vl is set while VoQ (in, vl, p) is not empty. An
	// arrival finds its word from the packet alone, without the output
	// port's line.
	ready       []uint64
	readyStride int32

	flows  []flowState
	pkts   []packet
	free   []int32
	nVL    int
	vlArb  []params.VLArbEntry
	commit bool // Arbitration "commit" (arbiter.go)
	routes *fabric.Routes
	stats  runStats

	msgGap     engine.Time // least time between message starts at one HCA; 0: no cap
	violations int         // credit counters seen out of range
	rng        *rand.Rand
	cc         ccState
	counters   Counters
	rc         rcState // RC transport (transport.go)

	// The schemes other than IB CC (schemes.go); nil when not running.
	// srcHook is set when one of them acts on every packet a source sends.
	santos  *santosState
	nic     *nicState
	srcHook bool
	drb     drbState // distributed routing balancing (drb.go); drb.on when running
	// allowDeadlock: the scenario runs a routing that may deadlock, and
	// the run is watched (deadlock.go).
	allowDeadlock bool
	ar            fabric.ARState // adaptive routing's groups (fabric.AdaptiveGroups); ar.On when adaptive
	apps          *appsState     // closed-loop applications (app.go); nil: none
}

// Counters are whole-run event counts.
type Counters struct {
	Packets int64 // data packets injected
	FECN    int64 // data packets marked with FECN by switches
	CNPs    int64 // congestion notifications (BECN) sent by destinations
	BECNs   int64 // congestion notifications received by sources
}

// NewNetwork builds the network of sc under cfg, ready to run from time 0.
// The seed drives every random choice of the run.
func NewNetwork(sc *workload.Scenario, cfg params.Config, seed uint64) (*Network, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	topo, err := sc.Build(&cfg)
	if err != nil {
		return nil, err
	}
	// The topology is linear in its size; the forwarding state is not:
	// refuse before paying for it what would not fit.
	if err := checkMemory(topo, sc.LMCFor(&cfg), sc.RoutingFor(&cfg)); err != nil {
		return nil, err
	}
	n := &Network{
		cfg: cfg, scenario: sc, seed: seed, nVL: cfg.VLs,
		end:    engine.Time(sc.Phases) * cfg.Phase,
		msgGap: msgGap(cfg.HCAMsgRate),
		rng:    rand.New(rand.NewPCG(seed, 0x1b)),
	}
	n.vlArb, _ = params.ParseVLArb(cfg.VLArb, cfg.VLs) // checked by Validate
	n.commit = cfg.Arbitration == params.ArbitrationCommit
	if err := n.build(topo); err != nil {
		return nil, err
	}
	hostNames := make([]string, len(n.hcas))
	hostIndex := make(map[string]int, len(n.hcas))
	for i := range n.hcas {
		hostNames[i] = topo.Nodes[n.hcas[i].node].Name
		hostIndex[hostNames[i]] = i
	}
	for i, fs := range sc.FlowsFor(&cfg) {
		src, okS := hostIndex[fs.Src]
		dst, okD := hostIndex[fs.Dst]
		if !okS || !okD || src == dst {
			fe := &FlowHostError{Scenario: sc.Name, Flow: i, Name: fs.Name, Src: fs.Src, Dst: fs.Dst}
			switch {
			case !okS:
				fe.Field = "src"
			case !okD:
				fe.Field = "dst"
			}
			return nil, fe
		}
		n.addFlow(fs, src, dst, nil)
	}
	traffic, err := sc.TrafficFor(&cfg)
	if err != nil {
		return nil, err
	}
	for t := range traffic {
		ts := &traffic[t]
		srcs, err := expandTraffic(ts, hostNames, hostIndex, rand.New(rand.NewPCG(seed, streamID(ts.Name, -1))))
		if err != nil { // a *TrafficError: which traffic of which scenario
			if te := (*TrafficError)(nil); errors.As(err, &te) {
				te.Scenario, te.Traffic = sc.Name, t
			}
			return nil, err
		}
		for i := range srcs {
			s := &srcs[i]
			fs := workload.FlowSpec{Name: s.name, Src: hostNames[s.host], Dst: "*", Role: s.role, StartPhase: ts.StartPhase, SL: ts.SL}
			if s.dst >= 0 {
				fs.Dst = hostNames[s.dst]
			}
			g := n.newGenerator(ts, s, seed)
			n.addFlow(fs, s.host, max(s.dst, 0), g)
		}
	}
	if err := n.addApps(sc.AppsFor(&cfg), hostNames, hostIndex, seed); err != nil {
		return nil, err
	}
	if len(n.flows) == 0 && n.apps == nil {
		return nil, fmt.Errorf("%w %s: no flows: the scenario sends nothing", fabric.ErrBadScenario, sc.Name)
	}
	if cfg.CC.Scheme == params.SchemeNICRate {
		// A rate past the last flow would request for no flow: a typo.
		if rates, _ := params.ParseRates(cfg.NICRate.Rates); len(rates) > len(n.flows) {
			return nil, fmt.Errorf("%w %s: nicrate.rates lists %d rates, but the run has %d flows", fabric.ErrBadScenario, sc.Name, len(rates), len(n.flows))
		}
	}
	n.initCC()
	n.initScheme()
	n.stats.to = n.end
	if from, _ := Window(sc, &cfg); from <= 0 {
		n.startWindow()
	} else {
		n.stats.from = from
	}
	n.initRC()
	if cfg.Sample > 0 {
		n.sim.At(cfg.Sample, evSample, 0)
	}
	return n, nil
}

// routeFlow sends flow f's packets on path p (the p-th LID) to its current
// destination, on the VL of its service level and the path's.
func (n *Network) routeFlow(f *flowState, p int) {
	f.dlid = int32(n.routes.LID(int(f.dst), p))
	f.vl = VL((f.spec.SL + n.routes.SL(int(f.src), int(f.dlid))) % n.nVL)
}

// addFlow adds a flow from HCA src to HCA dst (its first destination, for
// a generated source gen), starting at its spec's phase.
func (n *Network) addFlow(fs workload.FlowSpec, src, dst int, gen *generator) {
	i := int32(len(n.flows))
	f := flowState{spec: fs, src: int32(src), dst: int32(dst), start: engine.Time(fs.StartPhase) * n.cfg.Phase,
		role: roleIndex(fs.Role), gen: gen}
	n.routeFlow(&f, 0)
	if n.cfg.Sample > 0 { // the series' full length, so sampling never grows them
		f.samples = make([]int64, 0, int(n.end/n.cfg.Sample))
		if n.cfg.CC.IBMarking() {
			f.cctiTrace = make([]int32, 0, int(n.end/n.cfg.Sample))
		}
	}
	n.flows = append(n.flows, f)
	h := &n.hcas[src]
	h.flows = append(h.flows, i)
	n.sim.At(f.start, evFlowStart, uint32(i))
}

// newGenerator makes the message generator of source s of traffic ts, with
// its own random stream.
func (n *Network) newGenerator(ts *workload.TrafficSpec, s *source, seed uint64) *generator {
	g := &generator{src: s, rng: rand.New(rand.NewPCG(seed, streamID(ts.Name, s.host))),
		size: ts.MessageSize, load: s.load, burst: float64(ts.Burst), nHosts: len(n.hcas),
		bitsPs: float64(n.ports[n.hcas[s.host].port].rateMbps) / 1e6, winTo: n.end, winFrom: n.end}
	if g.size <= 0 {
		g.size = n.cfg.MessageSize
	}
	g.arrival = uint8(slices.Index(workload.Arrivals, ts.Arrival))
	if ts.Arrival == "" {
		g.arrival = arriveSaturate
	}
	g.dist = uint8(max(slices.Index(workload.SizeDists, ts.SizeDist), 0))
	return g
}

// streamID names the random stream of traffic name's source at host h (-1:
// the traffic's own draws), so that a source's draws depend on the seed,
// the traffic's name and the host only: the same at every grid point.
func streamID(name string, h int) uint64 {
	x := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(name); i++ {
		x = (x ^ uint64(name[i])) * 1099511628211
	}
	return x ^ uint64(int64(h))*0x9e3779b97f4a7c15
}

// nodePort returns the first global port of node id (an HCA's only port).
func (n *Network) nodePort(id fabric.NodeID) int32 {
	for i := range n.ports {
		if n.ports[i].node == id {
			return int32(i)
		}
	}
	return -1
}

func (n *Network) build(t *fabric.Topology) error {
	nPorts := 0
	for i := range t.Nodes {
		nPorts += t.Nodes[i].Ports
	}
	n.ports = make([]port, 0, nPorts)
	first := make([]int32, len(t.Nodes))
	for id, nd := range t.Nodes {
		first[id] = int32(len(n.ports))
		owner := int32(len(n.sws))
		if nd.Host {
			owner = int32(len(n.hcas))
			n.hcas = append(n.hcas, hcaState{port: first[id], node: fabric.NodeID(id)})
		} else {
			n.sws = append(n.sws, switchState{firstPort: first[id], nPorts: int32(nd.Ports)})
		}
		for p := 0; p < nd.Ports; p++ {
			n.ports = append(n.ports, port{node: fabric.NodeID(id), local: int32(p), peer: -1, owner: owner, host: nd.Host})
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
			p.peerOwner = n.ports[pair[1]].owner
			p.peerLocal = hcaLocal
			if !p.toHost {
				// At most maxSwitchPorts (254), which routing checks.
				p.peerLocal = uint8(n.ports[pair[1]].local)
			}
		}
	}
	if err := checkPorts(len(n.ports)); err != nil {
		return err
	}
	for s := range n.sws {
		sw := &n.sws[s]
		for i := sw.firstPort; i < sw.firstPort+sw.nPorts; i++ {
			p := &n.ports[i]
			if p.peer < 0 {
				continue
			}
			if sw.rateMbps == 0 {
				sw.rateMbps = p.rateMbps
			} else if p.rateMbps != sw.rateMbps {
				sw.rateMbps = -1
				break
			}
		}
		sw.rateMbps = max(sw.rateMbps, 0)
	}
	n.lanes = make([]lane, len(n.ports)*n.nVL)
	for h := range n.hcas {
		n.hcas[h].ioMbps = mbps(n.hostIOGbps(h))
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
			return fmt.Errorf("%w: link at %s port %d has no rate", fabric.ErrBadScenario, t.Nodes[p.node].Name, p.local)
		}
		p.peerCap = n.ports[p.peer].bufCap
		for v := 0; v < n.nVL; v++ {
			n.lane(int32(i), VL(v)).credits = p.peerCap
		}
	}
	switchPorts := 0
	for s := range n.sws {
		sw := &n.sws[s]
		sw.words = (sw.nPorts + 63) / 64
		n.readyStride = max(n.readyStride, sw.words)
		switchPorts += int(sw.nPorts)
	}
	n.ready = make([]uint64, len(n.ports)*n.nVL*int(n.readyStride))
	n.voqs.init(switchPorts) // room for a VoQ per switch port; grows if more are busy
	if err := n.applyVictimMask(t, n.cfg.CC.VictimMask); err != nil {
		return err
	}
	return n.route(t)
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
		if n.nic != nil && !n.nicStart(int32(e.Arg)) {
			break // refused by admission control
		}
		f.active = true
		f.born, f.readyAt = n.sim.Now(), n.sim.Now()
		if f.gen != nil {
			f.gen.start(n.sim.Now())
		}
		n.tryHCA(f.src)
	case evSample:
		n.sample()
	case evCCTITimer:
		n.cctiTimer(int32(e.Arg))
	case evAck:
		n.sendAck(int32(e.Arg))
	case evAppRank:
		n.appEvent(e.Arg)
	case evAppMsg:
		n.appArrive(int32(e.Arg))
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

// Pending returns the number of events scheduled and not yet run: the
// depth of the run's event queue.
func (n *Network) Pending() int { return n.sim.Pending() }

// lane returns port p's state for VL vl.
func (n *Network) lane(p int32, vl VL) *lane { return &n.lanes[int(p)*n.nVL+int(vl)] }

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

// arrive handles packet k becoming ready where it arrived. At an HCA it is
// its header arriving: a CNP raises the source's CCTI at once and frees its
// buffer; a data packet's FECN mark is answered (answerFECN, CC on) and the
// packet goes to the receive DMA. At a switch it is the packet becoming ready to forward
// (its header in, the switch latency passed, and late enough for
// cut-through, see transmit): it joins the VoQ of its input, VL and routed
// output, counts towards the output's fill (CC), and the output tries to
// send.
func (n *Network) arrive(k int32) {
	pk := &n.pkts[k]
	if pk.inLocal == hcaLocal {
		in := &n.ports[pk.inPort]
		if pk.kind == kindCNP {
			// The HCA acts on a CNP at once; it never reaches host memory.
			if n.santos != nil {
				n.santosOnAck(pk)
			} else {
				n.receiveBECN(pk)
			}
			n.freeBuffer(pk.inPort, pk.vl, pk.credits)
			n.freePacket(k)
			if n.santos != nil {
				n.tryHCA(in.owner)
			}
			return
		}
		if n.cc.on {
			n.answerFECN(pk)
		} else if n.santos != nil {
			n.santosAck(pk)
		}
		n.receive(in.owner, k)
		return
	}
	// At a switch: the output port (routed at transmit) names the switch,
	// the packet its input's local index.
	out := &n.ports[pk.outPort]
	in := int32(pk.inLocal)
	q := n.voqs.at(n.voqs.get(voqKey(pk.outPort, pk.vl, in)))
	n.push(q, k)
	ln := n.lane(pk.outPort, pk.vl)
	ln.waiting++
	out.queued++
	if q.head == k { // a new head
		n.ready[n.readyWord(pk.outPort, pk.vl)+int(in>>6)] |= 1 << (in & 63)
		ln.heads++
	}
	n.enterVoQ(in, pk.outPort, pk.vl, pk.credits)
	if n.santos != nil {
		n.santosArrive(k)
	}
	n.trySwitch(pk.outPort)
}

// FlowHostError reports a flow of a scenario that does not name two
// distinct hosts of its topology. Flow indexes Scenario.Flows; Field is
// "src" or "dst", the first that names no host, or "" when both name the
// same host. It wraps ErrBadScenario.
type FlowHostError struct {
	Scenario       string
	Flow           int
	Name, Src, Dst string
	Field          string
}

func (e *FlowHostError) Error() string {
	return fmt.Sprintf("%v %s: flow %s: %s->%s is not a pair of distinct hosts", fabric.ErrBadScenario, e.Scenario, e.Name, e.Src, e.Dst)
}

// Unwrap returns ErrBadScenario.
func (e *FlowHostError) Unwrap() error { return fabric.ErrBadScenario }
