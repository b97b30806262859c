package model

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// The invariants of propChecker, on small scenarios drawn at random:
// topology, routing, scheme, parameters and traffic all come from a seed.
// CI runs seeds 1..propCISeeds; -prop.seeds N runs 1..N, -prop.seed S
// replays seed S alone.
var (
	propSeeds = flag.Int("prop.seeds", propCISeeds, "TestProperties: run seeds 1..N")
	propSeed  = flag.Uint64("prop.seed", 0, "TestProperties: replay this seed only (0: the -prop.seeds range)")
)

// propCISeeds is the seeds TestProperties runs by default: about 5 s of
// one core (12 ms a seed), within CI's budget of 10-20 s for it.
const propCISeeds = 400

// propRerunEvery: every this many seeds (and a replayed one) is drawn and
// run a second time, which must come out the same: a run is a function of
// its scenario, configuration and seed alone.
const propRerunEvery = 10

// propMaxHosts bounds a drawn topology's hosts.
const propMaxHosts = 32

func TestProperties(t *testing.T) {
	seeds := make([]uint64, 0, *propSeeds)
	if *propSeed != 0 {
		seeds = append(seeds, *propSeed)
	} else {
		for s := 1; s <= *propSeeds; s++ {
			seeds = append(seeds, uint64(s))
		}
	}
	schemes := map[string]int{}
	drained := 0
	for _, seed := range seeds {
		pc, n, err := drawPropNetwork(seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		schemes[pc.cfg.CC.Scheme]++
		if err := pc.run(n); err != nil {
			t.Errorf("property failed for seed %d (replay: go test ./model -run TestProperties -prop.seed %d)\n%v\nscenario:\n%s",
				seed, seed, err, pc)
		}
		if pc.drained {
			drained++
		}
		if seed%propRerunEvery == 0 || *propSeed != 0 {
			if err := propRerun(pc, n); err != nil {
				t.Errorf("seed %d run twice differs (replay: go test ./model -run TestProperties -prop.seed %d): %v\nscenario:\n%s", seed, seed, err, pc)
			}
		}
		t.Logf("seed %d: %s %s %d hosts, %d refused, %d events to %v, %d packets, %d FECNs, %d BECNs",
			seed, pc.cfg.CC.Scheme, pc.spec.Topology, pc.hosts, pc.attempt, n.Events(), n.Now(), n.counters.Packets, n.counters.FECN, n.counters.CNPs)
	}
	t.Logf("%d seeds, schemes %v, %d drained", len(seeds), schemes, drained)
}

// propCase is a drawn scenario: its spec, the parameters set on the
// default configuration (in the order set), and when the run is stopped
// to be checked.
type propCase struct {
	seed     uint64
	attempt  uint64   // draws of this seed the model refused before this one
	refusals []string // why
	spec     workload.ScenarioSpec
	hosts    int
	sets     []propSet
	cfg      params.Config
	instants []engine.Time
	drained  bool // the run was drained: its sources stopped after the last instant
}

type propSet struct {
	name string
	val  any
}

// run runs n to each instant and checks the invariants there; it returns
// the first instant's failures.
func (pc *propCase) run(n *Network) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("at %v (%d events): panic: %v\n%s", n.Now(), n.Events(), p, debug.Stack())
		}
	}()
	c := newPropChecker(n)
	for _, at := range pc.instants {
		n.RunUntil(at)
		if err := c.check(); err != nil {
			return fmt.Errorf("at %v (%d events): %w", at, n.Events(), err)
		}
	}
	// Then the sources stop, and what is in the network must leave it:
	// nothing stuck, every credit back.
	if !c.drainable() {
		return nil
	}
	pc.drained = true
	for i := range n.flows {
		n.flows[i].active = false
	}
	n.RunUntil(n.End())
	if err := c.check(); err != nil {
		return fmt.Errorf("draining, at %v (%d events): %w", n.Now(), n.Events(), err)
	}
	if err := c.drained(); err != nil {
		return fmt.Errorf("drained, at %v (%d events): %w", n.Now(), n.Events(), err)
	}
	return nil
}

// propRerun draws and runs pc's seed again and compares the outcome with
// n, pc's run: the events, the counters and every flow's bytes.
func propRerun(pc *propCase, n *Network) error {
	pc2, n2, err := drawPropNetwork(pc.seed)
	if err != nil {
		return err
	}
	if err := pc2.run(n2); err != nil {
		return err
	}
	if n.Events() != n2.Events() || n.Now() != n2.Now() || n.counters != n2.counters {
		return fmt.Errorf("%d events to %v, %+v; then %d events to %v, %+v", n.Events(), n.Now(), n.counters, n2.Events(), n2.Now(), n2.counters)
	}
	for i := range n.flows {
		f, f2 := &n.flows[i], &n2.flows[i]
		if f.sent != f2.sent || f.delivered != f2.delivered {
			return fmt.Errorf("flow %s sent %d bytes, delivered %d; then %d, %d", f.spec.Name, f.sent, f.delivered, f2.sent, f2.delivered)
		}
	}
	return nil
}

// drawPropNetwork draws a scenario from seed and builds it. A draw the
// model refuses (Config.Validate, the topology generator, routing, the
// traffic's expansion) is drawn again from the next stream of the seed.
func drawPropNetwork(seed uint64) (*propCase, *Network, error) {
	var refusals []string
	for attempt := uint64(0); attempt < 100; attempt++ {
		pc, err := drawPropCase(rand.New(rand.NewPCG(seed, attempt)))
		if err != nil {
			return nil, nil, err // the generator's own mistake: a value out of its documented range
		}
		pc.seed, pc.attempt, pc.refusals = seed, attempt, refusals
		sc, err := workload.ScenarioOf(fmt.Sprintf("prop-%d", seed), pc.spec)
		if err != nil {
			return nil, nil, err
		}
		n, err := NewNetwork(sc, pc.cfg, seed)
		var pe *params.ParamError
		if errors.Is(err, fabric.ErrBadScenario) || errors.As(err, &pe) {
			refusals = append(refusals, err.Error())
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		return pc, n, nil
	}
	return nil, nil, fmt.Errorf("100 draws refused, the last: %s", refusals[len(refusals)-1])
}

// drawPropCase draws one scenario. Every value is within its parameter's
// documented range; relations between them (ccti_min above ccti_limit,
// santos.r_min above r_max, a buffer smaller than a packet, a pattern the
// host count does not suit, a routing the topology does not allow) are left
// for the model to refuse.
func drawPropCase(r *rand.Rand) (*propCase, error) {
	pc := &propCase{cfg: params.DefaultConfig()}
	pick := func(words ...string) string { return words[r.IntN(len(words))] }
	between := func(lo, hi int) int { return lo + r.IntN(hi-lo+1) }
	set := func(name string, v any) {
		pc.sets = append(pc.sets, propSet{name, v})
	}
	us := func(x float64) engine.Time { return engine.Time(x * float64(engine.Microsecond)) }

	// Topology and routing.
	sp := &pc.spec
	sp.Phases = 1
	sp.Topology = pick(fabric.TopologyKinds...)
	for {
		switch sp.Topology {
		case "fattree":
			sp.Topo.K, sp.Topo.Levels = between(2, 5), between(1, 4)
		case "clos":
			sp.Topo.Leaves, sp.Topo.Spines, sp.Topo.HostsPerLeaf = between(1, 4), between(1, 3), between(1, 8)
			sp.Topo.LinksPerPair = between(0, 2)
		default:
			sp.Topo.Dims = make([]int, between(1, 3))
			for i := range sp.Topo.Dims {
				sp.Topo.Dims[i] = between(2, 4)
			}
			sp.Topo.HostsPerRouter = between(1, 3)
		}
		if h := propHosts(&sp.Topo, sp.Topology); h >= 2 && h <= propMaxHosts {
			pc.hosts = h
			break
		}
	}
	if r.IntN(4) == 0 {
		sp.Routing = pick(fabric.RoutingAlgorithms...) // may be one the topology refuses
	} else if sp.Topology == "mesh" || sp.Topology == "torus" {
		sp.Routing = pick("dor", "updn")
	} else {
		sp.Routing = pick("minhop", "updn", "ftree")
	}
	sp.LMC = []int{0, 0, 0, 1, 1, 2}[r.IntN(6)]

	// The run's physics.
	vls := []int{1, 1, 1, 2, 2, 3, 4}[r.IntN(7)]
	set("vls", vls)
	if vls > 1 && r.IntN(2) == 0 {
		var entries []string
		for _, v := range r.Perm(vls) {
			entries = append(entries, fmt.Sprintf("%d:%d", v, between(1, 255)))
		}
		set("vl_arb", strings.Join(entries, ","))
	}
	mtu := []int{256, 512, 1024, 2048, 2048, 4096}[r.IntN(6)]
	set("mtu", mtu)
	header := 26
	if r.IntN(4) == 0 {
		header = between(0, 64)
	}
	set("header_bytes", header)
	pkt := params.Credits(mtu + header)
	bufCredits := func() int {
		switch r.IntN(5) {
		case 0:
			return pkt - 1 + r.IntN(2) // one packet, or one credit short: refused
		case 1:
			return 1024
		}
		return pkt * between(1, 6)
	}
	set("switch_buffer_credits", bufCredits())
	set("hca_buffer_credits", bufCredits())
	set("message_size", []int{100, mtu, 3*mtu + 7, 64 << 10, 64 << 10, between(1, 200000)}[r.IntN(6)])
	set("host_link_gbps", pick("8", "16", "32", "40.5"))
	set("switch_link_gbps", pick("8", "16", "32", "64"))
	set("host_io_gbps", 2+38*r.Float64())
	if r.IntN(3) == 0 {
		set("hca_msg_rate", 1+50*r.Float64())
	}
	set("prop_delay", engine.Time(r.Int64N(int64(200*engine.Nanosecond))))
	set("switch_latency", engine.Time(r.Int64N(int64(300*engine.Nanosecond))))
	set("arbitration", pick(params.ArbitrationFit, params.ArbitrationCommit))
	set("fc_delay", engine.Time(r.Int64N(int64(200*engine.Nanosecond))))
	set("phase", 2*engine.Millisecond) // the run's length: checked to 500 µs, then drained
	set("sample", us(1+999*r.Float64()))

	// The scheme and its parameters.
	scheme := pick(params.Schemes...)
	set("cc", scheme)
	if scheme == params.SchemeIB || scheme == params.SchemeDRB || r.IntN(4) == 0 {
		// IB CC's parameters; they do nothing under the other schemes.
		set("threshold", []int{0, between(1, 15), between(8, 15), between(12, 15), 15, 15, 15, 15}[r.IntN(8)])
		set("marking_rate", between(0, 8))
		set("packet_size", []int{0, between(0, 8), between(0, 8), between(0, 40)}[r.IntN(4)])
		set("ccti_increase", []int{0, 1, 1, between(1, 10)}[r.IntN(4)])
		limit := between(0, 15) // small enough for BECNs to reach
		if r.IntN(3) == 0 {
			limit = between(16, 500)
		}
		set("ccti_limit", limit)
		set("ccti_min", between(0, min(limit+2, 20))) // above the limit: refused
		set("ccti_timer", us(1+300*r.Float64()))
		victims := pick("host", "all", "none", "list")
		if victims == "list" { // SWITCH:PORT of this topology's naming; a port it lacks is refused
			sw := map[string]string{"fattree": "S1_1", "clos": pick("L1", "S1"), "mesh": "R1", "torus": "R2"}[sp.Topology]
			victims = fmt.Sprintf("%s:%d,%s:%d", sw, between(1, 6), sw, between(1, 6))
		}
		set("victim_mask", victims)
		set("cc_level", pick("qp", "sl"))
		set("fill_mode", pick("voq", "port", "port_avg"))
		set("marking_mode", pick("counter", "random"))
		set("cct_denominator", between(10, 200))
		set("becn_return", pick("ack", "cnp"))
		set("ack_req_packets", between(0, 20))
		set("ccti_timer_start", pick("random", "zero"))
		set("paced_read_latency", us(3*r.Float64()))
	}
	switch scheme {
	case params.SchemeSantos:
		set("santos.marking", pick("naive", "input", "input_output"))
		set("santos.output_threshold", between(1, 16))
		set("santos.response", pick("aimd", "fimd", "lipd"))
		set("santos.m", 1.0001+4*r.Float64())
		if r.IntN(2) == 0 {
			set("santos.r_min", 0.1+4*r.Float64())
		}
		if r.IntN(2) == 0 {
			set("santos.r_max", 1+20*r.Float64())
		}
		set("santos.aimd_increase", 0.01+5*r.Float64())
	case params.SchemeNICRate:
		if r.IntN(2) == 0 {
			rates := make([]string, between(1, 6))
			for i := range rates {
				rates[i] = pick("0", "1", "2.5", "4", "9", "20")
			}
			set("nicrate.rates", strings.Join(rates, ","))
		}
	case params.SchemeDRB:
		set("drb.timer", us(10+1000*r.Float64()))
		set("drb.throttle", r.IntN(2) == 0)
		set("drb.max_paths", between(0, 4))
		set("drb.open_after", between(1, 4))
	}
	for _, s := range pc.sets {
		if err := pc.cfg.Set(s.name, s.val); err != nil {
			return nil, fmt.Errorf("drawn %s = %v: %w", s.name, s.val, err)
		}
	}

	// Traffic: greedy flows between random pairs, generated workloads
	// (incast, Poisson or on-off with random sizes, the patterns), at
	// least one of either.
	host := func() string { return fmt.Sprintf("H%d", 1+r.IntN(pc.hosts)) }
	sl := func() int { return r.IntN(vls + 1) }
	hot := host() // where greedy flows converge, half of them
	for i := range []int{0, between(1, 3), between(2, 8), between(2, 8)}[r.IntN(4)] {
		f := workload.FlowSpec{Name: fmt.Sprintf("F%d", i+1), Src: host(), Dst: host(), SL: sl()} // Src = Dst: refused
		if r.IntN(3) > 0 {
			f.Dst = hot
		}
		if scheme == params.SchemeNICRate && r.IntN(2) == 0 {
			f.RateGbps = 0.5 + 10*r.Float64()
		}
		sp.Flows = append(sp.Flows, f)
	}
	for i := range between(0, 2) {
		ts := workload.TrafficSpec{Name: fmt.Sprintf("t%d", i+1), SL: sl(),
			Arrival:  pick("saturate", "saturate", "poisson", "poisson", "onoff"),
			Load:     0.05 + 0.95*r.Float64(),
			SizeDist: pick("fixed", "exponential", "uniform")}
		if r.IntN(2) == 0 {
			ts.MessageSize = []int{1, 64, mtu, 10 * mtu, between(1, 100000)}[r.IntN(5)]
		}
		if ts.Arrival == "onoff" {
			ts.Burst = us(1 + 50*r.Float64())
		}
		switch ts.Pattern = pick("incast", "incast", "uniform", "permutation", "hotspot", "shift", "neighbour",
			"transpose", "bitreverse", "alltoall"); ts.Pattern {
		case "incast":
			if r.IntN(2) == 0 {
				ts.Hot = []string{host()}
			}
			ts.Senders = between(0, pc.hosts-1)
		case "hotspot":
			ts.HotNodes = between(1, 3)
			ts.HotspotFraction = r.Float64()
			ts.HotspotMode = pick("hosts", "traffic")
		}
		if r.IntN(4) == 0 {
			for range between(1, 3) {
				ts.Sources = append(ts.Sources, host())
			}
		}
		sp.Traffic = append(sp.Traffic, ts)
	}

	// Where to stop: a short run, checked at odd instants.
	horizon := us(50 + 450*r.Float64())
	for t := engine.Time(0); t < horizon; {
		t += 1 + engine.Time(r.Int64N(int64(horizon/8)))
		pc.instants = append(pc.instants, min(t, horizon))
	}
	return pc, nil
}

// propHosts returns the hosts of a generated topology of kind with p.
func propHosts(p *fabric.TopoParams, kind string) int {
	switch kind {
	case "fattree":
		h := 1
		for range p.Levels {
			h *= p.K
		}
		return h
	case "clos":
		return p.Leaves * p.HostsPerLeaf
	}
	h := p.HostsPerRouter
	for _, d := range p.Dims {
		h *= d
	}
	return h
}

// String describes the case readably: what a failure needs to be read.
func (pc *propCase) String() string {
	var b strings.Builder
	sp := &pc.spec
	fmt.Fprintf(&b, "  seed %d, draw %d (%d refused by the model", pc.seed, pc.attempt, len(pc.refusals))
	if len(pc.refusals) > 0 {
		fmt.Fprintf(&b, "; the last: %s", pc.refusals[len(pc.refusals)-1])
	}
	b.WriteString(")\n")
	fmt.Fprintf(&b, "  topology %s", sp.Topology)
	switch sp.Topology {
	case "fattree":
		fmt.Fprintf(&b, " k=%d levels=%d", sp.Topo.K, sp.Topo.Levels)
	case "clos":
		fmt.Fprintf(&b, " leaves=%d spines=%d hosts_per_leaf=%d links_per_pair=%d", sp.Topo.Leaves, sp.Topo.Spines, sp.Topo.HostsPerLeaf, sp.Topo.LinksPerPair)
	default:
		fmt.Fprintf(&b, " dims=%v hosts_per_router=%d", sp.Topo.Dims, sp.Topo.HostsPerRouter)
	}
	fmt.Fprintf(&b, " (%d hosts), routing %s, lmc %d\n", pc.hosts, sp.Routing, sp.LMC)
	b.WriteString("  set")
	for _, s := range pc.sets {
		v := s.val
		if f, ok := v.(float64); ok {
			v = fmt.Sprintf("%.4g", f)
		}
		fmt.Fprintf(&b, " %s=%v", s.name, v)
	}
	b.WriteString("\n")
	for _, f := range sp.Flows {
		fmt.Fprintf(&b, "  flow %s %s->%s sl %d", f.Name, f.Src, f.Dst, f.SL)
		if f.RateGbps > 0 {
			fmt.Fprintf(&b, " rate %.4g Gbit/s", f.RateGbps)
		}
		b.WriteString("\n")
	}
	for _, ts := range sp.Traffic {
		fmt.Fprintf(&b, "  traffic %s %s %s load %.3g size %d %s sl %d", ts.Name, ts.Pattern, ts.Arrival, ts.Load, ts.MessageSize, ts.SizeDist, ts.SL)
		if ts.Burst > 0 {
			fmt.Fprintf(&b, " burst %v", ts.Burst)
		}
		if len(ts.Hot) > 0 || ts.HotNodes > 0 {
			fmt.Fprintf(&b, " hot %v hot_nodes %d", ts.Hot, ts.HotNodes)
		}
		if ts.Pattern == "incast" {
			fmt.Fprintf(&b, " senders %d", ts.Senders)
		}
		if ts.Pattern == "hotspot" {
			fmt.Fprintf(&b, " fraction %.3g mode %s", ts.HotspotFraction, ts.HotspotMode)
		}
		if len(ts.Sources) > 0 {
			fmt.Fprintf(&b, " sources %v", ts.Sources)
		}
		b.WriteString("\n")
	}
	last := pc.instants[len(pc.instants)-1]
	fmt.Fprintf(&b, "  checked at %d instants up to %v", len(pc.instants), last)
	return b.String()
}
