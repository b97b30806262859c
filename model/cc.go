package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// fillMode is how a switch output's buffer fill is measured against the
// marking threshold (fill_mode).
type fillMode uint8

const (
	fillPort    fillMode = iota // the sum of the VoQs heading to the port
	fillVoQ                     // the VoQ of the packet being sent
	fillPortAvg                 // the sum divided by the inputs contributing
)

var fillModes = map[string]fillMode{"port": fillPort, "voq": fillVoQ, "port_avg": fillPortAvg}

// ccLevel is what a CCTI belongs to (cc_level).
type ccLevel uint8

const (
	levelQP ccLevel = iota // each flow (queue pair) has its own CCTI
	levelSL                // the flows of an HCA port-SL share one
)

var ccLevels = map[string]ccLevel{"qp": levelQP, "sl": levelSL}

// ccState is the congestion-control state of a run (SPEC §2). Its modes
// are parsed from the Config's words once, when the run is built.
type ccState struct {
	on           bool
	fill         fillMode
	random       bool // marking_mode random: mark with probability 1/(rate+1), else by counter
	level        ccLevel
	perVoQ       bool  // the fill mode needs each VoQ's fill (voq, port_avg)
	mtuCredits   int32 // a port with fewer credits left than this is a victim
	cnpWire      int32
	cct          []engine.Time // injection-rate delay per CCTI
	ccti         []int32       // CCTI slots: one per flow (qp) or per HCA port-SL (sl)
	cctiSince    []engine.Time // when each slot last changed, for the time average
	cctiIntegral []float64     // Σ CCTI·dt over the measurement window, in CCTI·ps
	window       engine.Time   // start of the measurement window
	timers       []cctiTimer
}

// cctiTimer is the CCTI timer of one HCA port-SL and the slots it lowers.
type cctiTimer struct {
	slots []int32
}

// flowCC is a flow's link to its CCTI slot.
type flowCC struct {
	slot int32
}

// cctEntry returns CCT[i] = 7·i²/den² µs, rounded down to a picosecond.
func cctEntry(i, den int) engine.Time {
	return engine.Time(int64(7*engine.Microsecond) * int64(i) * int64(i) / (int64(den) * int64(den)))
}

// buildCCT returns the CCT of c: max(128, CCTILimit+1) injection-rate
// delays, one per CCTI.
//
//   - quadratic: cct[i] = 7·i²/CCTDenominator² µs (the testbed's formula);
//   - linear: cct[i] = CCTMaxDelay·i/CCTILimit, so that cct[CCTILimit] is
//     CCTMaxDelay (Omni-Path FM's shape; all 0 when CCTILimit is 0);
//   - table:D0,D1,...: cct[i] = Di, and the last entry for every i past it
//     (as Mellanox's CC manager fills a CCT from a shorter list).
//
// Entries are rounded down to a picosecond.
func buildCCT(c params.CCConfig) []engine.Time {
	cct := make([]engine.Time, max(128, c.CCTILimit+1))
	switch {
	case c.CCT == params.CCTLinear:
		if c.CCTILimit > 0 {
			for i := range cct {
				cct[i] = engine.Time(int64(c.CCTMaxDelay) * int64(i) / int64(c.CCTILimit))
			}
		}
	case strings.HasPrefix(c.CCT, params.CCTTablePrefix):
		table, _ := params.ParseCCTTable(strings.TrimPrefix(c.CCT, params.CCTTablePrefix)) // checked by cctValue
		for i := range cct {
			cct[i] = table[min(i, len(table)-1)]
		}
	default:
		for i := range cct {
			cct[i] = cctEntry(i, c.CCTDenominator)
		}
	}
	return cct
}

// initCC sets up IB CC for the run when it is enabled: the typed modes, each
// switch port's marking threshold in credits, the CCT, one CCTI slot per flow
// (cc_level qp) or per HCA port-SL (sl), and one CCTI timer per HCA port-SL,
// free-running from its first expiry (ccti_timer_start, transport.go). With
// CC off it leaves n.cc zero, and no CC code runs per packet.
func (n *Network) initCC() {
	c := n.cfg.CC
	if !c.IBMarking() {
		return
	}
	cc := &n.cc
	cc.on = true
	cc.fill = fillModes[c.FillMode] // the words are checked by Validate
	cc.random = c.MarkingMode == "random"
	cc.level = ccLevels[c.Level]
	cc.perVoQ = cc.fill != fillPort
	if c.Threshold > 0 {
		// 1-15 map uniformly onto 15/16 .. 1/16 of the full scale of the
		// fill measure: one input buffer for a VoQ or the per-input average;
		// for the port's sum, the buffers of every connected input but one
		// (a port's packets come from the others: inputs-1).
		for s := range n.sws {
			sw := &n.sws[s]
			inputs := int32(0)
			for p := sw.firstPort; p < sw.firstPort+sw.nPorts; p++ {
				if n.ports[p].peer >= 0 {
					inputs++
				}
			}
			scale := int32(n.cfg.SwitchBufferCredits)
			if cc.fill == fillPort {
				scale *= max(1, inputs-1)
			}
			for p := sw.firstPort; p < sw.firstPort+sw.nPorts; p++ {
				n.ports[p].markThreshold = max(1, scale*int32(16-c.Threshold)/16)
			}
		}
	}
	cc.mtuCredits = int32(params.Credits(n.cfg.MTU + n.cfg.HeaderBytes))
	cc.cnpWire = int32(n.cfg.HeaderBytes + 16)
	cc.cct = buildCCT(c)
	cc.window, _ = Window(n.scenario, &n.cfg)
	firstTick := n.cctiTimerStarts()
	slotOf := map[[2]int32]int32{} // (HCA, SL) -> slot, for SL level
	timerOf := map[[2]int32]int{}  // (HCA, SL) -> timer
	for i := range n.flows {
		f := &n.flows[i]
		key := [2]int32{f.src, int32(f.spec.SL)}
		slot, shared := slotOf[key]
		if cc.level == levelQP || !shared {
			slot = int32(len(cc.ccti))
			cc.ccti = append(cc.ccti, int32(c.CCTIMin))
			cc.cctiSince = append(cc.cctiSince, 0)
			cc.cctiIntegral = append(cc.cctiIntegral, 0)
			slotOf[key] = slot
		}
		f.cc.slot = slot
		t, ok := timerOf[key]
		if !ok {
			t = len(cc.timers)
			timerOf[key] = t
			cc.timers = append(cc.timers, cctiTimer{})
			n.sim.At(firstTick(), evCCTITimer, uint32(t))
		}
		if cc.level == levelQP || !shared {
			cc.timers[t].slots = append(cc.timers[t].slots, slot)
		}
	}
}

// setCCTI changes a slot's CCTI, keeping its time integral.
func (n *Network) setCCTI(slot int32, v int32) {
	cc := &n.cc
	now := n.sim.Now()
	if from := max(cc.cctiSince[slot], cc.window); now > from {
		cc.cctiIntegral[slot] += float64(cc.ccti[slot]) * float64(now-from)
	}
	cc.cctiSince[slot] = now
	cc.ccti[slot] = v
}

// markFECN decides, as switch output port p starts packet pk taken from input
// port from, whether to set its FECN bit. The port-VL is congested when the
// buffer fill (per fill_mode) has reached the threshold and the port is the
// root (it holds credits for another MTU packet after this one), or a victim
// with its victim mask set. While congested, data packets of at least
// packet_size credits are eligible, and one in marking_rate+1 is marked.
func (n *Network) markFECN(p, from int32, pk *packet) {
	cc := &n.cc
	pt := &n.ports[p]
	if pt.markThreshold == 0 || pk.kind != kindData || pk.credits < int32(n.cfg.CC.PacketSize) {
		return
	}
	vl := pk.vl
	ln := n.lane(p, vl)
	var fill int32
	switch cc.fill {
	case fillVoQ:
		if i := n.voqs.find(voqKey(p, vl, n.ports[from].local)); i >= 0 {
			fill = n.voqs.at(i).fill
		}
	case fillPort:
		fill = ln.voqFill
	case fillPortAvg:
		fill = ln.voqFill / max(1, ln.fillInputs)
	}
	if fill < pt.markThreshold {
		return
	}
	if ln.credits-pk.credits < cc.mtuCredits && !pt.victimMask {
		return // a victim without victim mask
	}
	rate := int32(n.cfg.CC.MarkingRate)
	if cc.random {
		if rate > 0 && n.rng.Int32N(rate+1) != 0 {
			return
		}
	} else if ln.markCount > 0 {
		ln.markCount--
		return
	} else {
		ln.markCount = rate
	}
	if !pk.fecn {
		pk.fecn = true
		n.counters.FECN++
	}
}

// enterVoQ and leaveVoQ keep the fill of the output port-VL, in credits,
// from a packet's arrival to the end of its transmission, and, when the fill
// mode needs them, the fill of each VoQ and the number of inputs whose VoQ
// is not empty. enterVoQ takes the input's local index, leaveVoQ its port.
func (n *Network) enterVoQ(inLocal, out int32, vl VL, c int32) {
	if !n.cc.on {
		return
	}
	n.settleLeave(out)
	ln := n.lane(out, vl)
	ln.voqFill += c
	if !n.cc.perVoQ {
		return
	}
	q := n.voqs.at(n.voqs.get(voqKey(out, vl, inLocal)))
	if q.fill == 0 {
		ln.fillInputs++
	}
	q.fill += c
}

func (n *Network) leaveVoQ(in, out int32, vl VL, c int32) {
	ln := n.lane(out, vl)
	ln.voqFill -= c
	if !n.cc.perVoQ {
		return
	}
	i := n.voqs.get(voqKey(out, vl, n.ports[in].local))
	q := n.voqs.at(i)
	if q.fill -= c; q.fill == 0 {
		ln.fillInputs--
		n.voqs.release(i)
	}
}

// settleLeave applies output p's pending VoQ fill change once the packet
// on its link has left. Every reader of p's fill settles it first, so the
// fill is as if the change were made at the end of the transmission.
func (n *Network) settleLeave(p int32) {
	if pt := &n.ports[p]; pt.leave.set && pt.leave.at <= n.sim.Now() {
		pt.leave.set = false
		n.leaveVoQ(pt.leave.in, p, pt.leave.vl, pt.leave.c)
	}
}

// sendCNP makes the destination of FECN-marked data packet pk send a
// congestion notification with BECN back to the source, ahead of its data.
func (n *Network) sendCNP(pk *packet) {
	flow, src, dst := pk.flow, pk.src, pk.dst
	// Back to the source's LID of the data's path offset (DRB reads the
	// offset), on that path's VL (dor's SL for it).
	dlid := int32(n.routes.LID(int(src), n.routes.PathOf(pk.dlid)))
	vl := VL((n.flows[flow].spec.SL + n.routes.SL(int(dst), int(dlid))) % n.nVL)
	k := n.newPacket()
	n.pkts[k] = packet{flow: flow, src: dst, dst: src, dlid: dlid, wire: n.cc.cnpWire, credits: int32(params.Credits(int(n.cc.cnpWire))),
		vl: vl, kind: kindCNP, becn: true}
	n.counters.CNPs++
	n.hcas[dst].ctrl.push(k)
	n.tryHCA(dst)
}

// receiveBECN raises the CCTI of the flow (or port-SL) that pk notifies.
func (n *Network) receiveBECN(pk *packet) {
	n.counters.BECNs++
	if n.drb.on {
		n.drbNotify(pk)
		if !n.drb.throttle {
			return
		}
	}
	slot := n.flows[pk.flow].cc.slot
	v := min(n.cc.ccti[slot]+int32(n.cfg.CC.CCTIIncrease), int32(n.cfg.CC.CCTILimit))
	n.setCCTI(slot, v)
}

// ird is the injection-rate delay flow f waits after a packet: CCT[CCTI]
// (see pacedGap for what a paced flow waits).
func (n *Network) ird(f *flowState) engine.Time {
	if !n.cc.on {
		return 0
	}
	return n.cc.cct[n.cc.ccti[f.cc.slot]]
}

// cctiTimer lowers by one the CCTI of every slot of timer t, never below
// ccti_min, and restarts the timer.
func (n *Network) cctiTimer(t int32) {
	floor := int32(n.cfg.CC.CCTIMin)
	for _, s := range n.cc.timers[t].slots {
		if v := n.cc.ccti[s]; v > floor {
			n.setCCTI(s, v-1)
		}
	}
	n.sim.At(n.sim.Now()+n.cfg.CC.CCTITimer, evCCTITimer, uint32(t))
}

// meanCCTI returns the time-average CCTI over the measurement window, across
// slots, as of time now.
func (n *Network) meanCCTI() float64 {
	cc := &n.cc
	now := n.sim.Now()
	if !cc.on || len(cc.ccti) == 0 || now <= cc.window {
		return 0
	}
	var sum float64
	for s := range cc.ccti {
		sum += cc.cctiIntegral[s]
		if from := max(cc.cctiSince[s], cc.window); now > from {
			sum += float64(cc.ccti[s]) * float64(now-from)
		}
	}
	return sum / float64(len(cc.ccti)) / float64(now-cc.window)
}

// applyVictimMask sets the victim mask of switch ports from spec: "host"
// (host-facing ports), "all", "none", or a comma-separated list of
// SWITCH:PORT with 1-based port numbers.
func (n *Network) applyVictimMask(t *fabric.Topology, spec string) error {
	for i := range n.ports {
		p := &n.ports[i]
		if p.host || p.peer < 0 {
			continue
		}
		switch spec {
		case "host":
			p.victimMask = p.toHost
		case "all":
			p.victimMask = true
		}
	}
	ports, err := victimPorts(t, spec)
	for _, sp := range ports {
		n.ports[n.nodePort(sp.node)+int32(sp.port-1)].victimMask = true
	}
	return err
}

// switchPort is a 1-based port of a switch.
type switchPort struct {
	node fabric.NodeID
	port int
}

// victimPorts returns the ports a victim_mask port list names in t (none
// for "host", "all" and "none"), or a ParamError for an item that is not
// SWITCH:PORT of t.
func victimPorts(t *fabric.Topology, spec string) ([]switchPort, error) {
	if spec == "host" || spec == "all" || spec == "none" {
		return nil, nil
	}
	var ports []switchPort
	for _, item := range strings.Split(spec, ",") {
		name, num, ok := strings.Cut(strings.TrimSpace(item), ":")
		id := t.Lookup(name)
		pn, err := strconv.Atoi(num)
		if !ok || id < 0 || t.Nodes[id].Host || err != nil || pn < 1 || pn > t.Nodes[id].Ports {
			return nil, &params.ParamError{Name: "victim_mask", Value: spec,
				Reason: fmt.Sprintf("%q is not SWITCH:PORT of this scenario (ports count from 1)", item)}
		}
		ports = append(ports, switchPort{id, pn})
	}
	return ports, nil
}

// CheckConfig checks what Config.Validate cannot, because it depends on the
// scenario: that a victim_mask port list names ports of sc's topology, and
// that the run keeps at most MaxSamples samples (CheckWork). It returns a
// *ParamError naming the parameter at fault.
func CheckConfig(sc *workload.Scenario, c params.Config) error {
	t, err := sc.Build(&c)
	if err != nil {
		return err
	}
	if _, err := victimPorts(t, c.CC.VictimMask); err != nil {
		return err
	}
	_, err = CheckWork(sc, c, 0)
	return err
}
