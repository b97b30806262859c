package model

import (
	"fmt"
	"math"
	"sync"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Work is what one run costs, estimated from its scenario and parameters
// before it runs, so that a run that could not finish in reasonable time or
// memory is refused instead of started.
type Work struct {
	// Packets bounds the data packets the run injects: every flow sending at
	// its source's full rate (the lesser of host_io_gbps and the host link,
	// and of hca_msg_rate messages per second) from its start to the end,
	// each message split into MTU packets.
	Packets float64
	// Events estimates the simulation events: eventsPerLink for each link a
	// packet crosses plus one, and the sampling events. Measured on the
	// testbed scenarios, a run takes 0.6 to 1 times this figure.
	Events float64
	// Samples is the number of throughput samples the run keeps: flows times
	// sample intervals. They stay in memory for the whole run.
	Samples int64
}

// eventsPerLink is the events a packet costs per link it crosses: its
// arrival, the credit update it returns and a share of the output's and
// the adapter's wake-ups. The testbed measures 7.3 to 7.7 events per packet
// over paths of 2 and 3 links.
const eventsPerLink = 2.5

// MaxSamples is the most throughput samples (flows × sample intervals) a
// run may keep: about 100 MB of series. A longer run needs a longer sample.
const MaxSamples = 10_000_000

// EstimateWork returns the work a run of sc with c implies.
func EstimateWork(sc *workload.Scenario, c params.Config) (Work, error) {
	sh, err := shapeOf(sc, &c)
	if err != nil {
		return Work{}, err
	}
	hops := sh.links
	end := float64(sc.Phases) * c.Phase.Seconds()
	traffic, err := sc.TrafficFor(&c)
	if err != nil {
		return Work{}, err
	}
	sources := len(sc.Flows)
	for _, ts := range traffic {
		sources += trafficSenders(&ts, sh.hosts)
	}
	w := Work{Samples: int64(sources) * int64(math.Floor(end/c.Sample.Seconds()))}
	packetsPerByte := math.Ceil(float64(c.MessageSize)/float64(c.MTU)) / float64(c.MessageSize)
	rate := min(c.HostPayloadGbps(c.HostLinkGbps), c.HostLinkGbps) * 1e9 / 8 // bytes/s
	for i, f := range sc.Flows {
		active := end - float64(f.StartPhase)*c.Phase.Seconds()
		if active <= 0 {
			continue
		}
		p := rate * active * packetsPerByte
		if c.HCAMsgRate > 0 { // the adapter's message rate may bound it first
			p = min(p, (c.HCAMsgRate*1e6*active+1)*math.Ceil(float64(c.MessageSize)/float64(c.MTU)))
		}
		w.Packets += p
		w.Events += p * (eventsPerLink*float64(hops[i]) + 1)
	}
	for _, ts := range traffic {
		active := end - float64(ts.StartPhase)*c.Phase.Seconds()
		if active <= 0 {
			continue
		}
		size := ts.MessageSize
		if size <= 0 {
			size = c.MessageSize
		}
		perByte := math.Ceil(float64(size)/float64(c.MTU)) / float64(size)
		r := rate
		if ts.Arrival != "" && ts.Arrival != "saturate" {
			r = min(rate, ts.Load*c.HostLinkGbps*1e9/8)
		}
		p := r * active * perByte * float64(trafficSenders(&ts, sh.hosts))
		w.Packets += p
		w.Events += p * (eventsPerLink*sh.meanLinks + 1)
	}
	w.Events += float64(w.Samples)
	return w, nil
}

// trafficSenders estimates the sources a traffic spec makes on a topology
// of hosts hosts.
func trafficSenders(ts *workload.TrafficSpec, hosts int) int {
	n := hosts
	if len(ts.Sources) > 0 {
		n = len(ts.Sources)
	}
	if ts.Pattern == "incast" && ts.Senders > 0 {
		n = min(n, ts.Senders)
	}
	if ts.Pattern == "hotspot" && ts.HotspotMode == "traffic" {
		n *= 2
	}
	return n
}

// CheckWork refuses a run whose series would exceed MaxSamples, or whose
// estimated events exceed maxEvents (0: no limit), with an error that says
// which parameter drives the cost.
func CheckWork(sc *workload.Scenario, c params.Config, maxEvents float64) (Work, error) {
	w, err := EstimateWork(sc, c)
	if err != nil {
		return w, err
	}
	if w.Samples > MaxSamples {
		return w, &params.ParamError{Name: "sample", Value: c.Sample, Reason: fmt.Sprintf(
			"%d flows sampled every %v for %v keep %d samples, more than the %d a run may keep; sample less often",
			w.Samples/max(int64(math.Floor(float64(sc.Phases)*c.Phase.Seconds()/c.Sample.Seconds())), 1), c.Sample, c.Phase*engine.Time(sc.Phases), w.Samples, MaxSamples)}
	}
	if maxEvents > 0 && w.Events > maxEvents {
		return w, &WorkError{Work: w, MaxEvents: maxEvents, PacketBytes: min(c.MTU, c.MessageSize)}
	}
	return w, nil
}

// WorkError is a run refused because its estimated events exceed a limit.
type WorkError struct {
	Work        Work
	MaxEvents   float64
	PacketBytes int // payload of a typical packet: min(mtu, message_size)
}

func (e *WorkError) Error() string {
	return fmt.Sprintf("this run would take about %.2g events (%.2g packets of %d bytes), over the limit of %.2g: "+
		"shorten the phase, send larger messages, set hca_msg_rate to the adapter's message rate, or raise the limit", e.Work.Events, e.Work.Packets, e.PacketBytes, e.MaxEvents)
}

// shape is what the work estimate needs of a scenario's topology: the
// links on each greedy flow's shortest path, the host count and the mean
// shortest-path length between hosts (from a sample of up to 16 hosts).
type shape struct {
	links     []int
	hosts     int
	meanLinks float64
}

// shapeOf returns sc's shape under c, cached per scenario and topology
// parameters (the shape does not depend on rates).
func shapeOf(sc *workload.Scenario, c *params.Config) (*shape, error) {
	key := any(sc)
	if r := sc.Resolve(c); r != nil {
		key = fmt.Sprint(sc.Name, r.Topology, r.Topo.K, r.Topo.Levels, r.Topo.Leaves, r.Topo.Spines,
			r.Topo.HostsPerLeaf, r.Topo.LinksPerPair, r.Topo.Preset, r.Topo.Dims, r.Topo.HostsPerRouter)
	}
	if v, ok := shapeCache.Load(key); ok {
		return v.(*shape), nil
	}
	t, err := sc.Build(c)
	if err != nil {
		return nil, err
	}
	adj := t.Neighbours()
	dist := make([]int, len(t.Nodes))
	sh := &shape{links: make([]int, len(sc.Flows))}
	for i, f := range sc.Flows {
		src, dst := t.Lookup(f.Src), t.Lookup(f.Dst)
		if src < 0 || dst < 0 {
			return nil, fmt.Errorf("%w: flow %s: no host %s or %s", fabric.ErrBadScenario, f.Name, f.Src, f.Dst)
		}
		t.HopsTo(adj, dst, dist)
		if dist[src] < 0 {
			return nil, fmt.Errorf("%w: flow %s: %s cannot reach %s", fabric.ErrBadScenario, f.Name, f.Src, f.Dst)
		}
		sh.links[i] = dist[src]
	}
	hosts := t.Hosts()
	sh.hosts = len(hosts)
	var sum, n float64
	for j := 0; j < min(16, len(hosts)); j++ {
		t.HopsTo(adj, hosts[j*len(hosts)/min(16, len(hosts))], dist)
		for _, h := range hosts {
			if dist[h] > 0 {
				sum += float64(dist[h])
				n++
			}
		}
	}
	if n > 0 {
		sh.meanLinks = sum / n
	}
	shapeCache.Store(key, sh)
	return sh, nil
}

var shapeCache sync.Map // *Scenario or a file scenario's topology key -> *shape

// MemoryBudget is the most memory, in bytes, NewNetwork lets one network
// take; 0 means no limit. A command sets it once, before building any
// network, from what its process may use (its address-space limit, its
// cgroup's, the machine's), so that a network that would not fit is
// refused with a MemoryError instead of growing until the kernel kills the
// process.
var MemoryBudget int64

// Bytes a built network holds, by what drives them: forwarding state per
// (switch, LID) pair (a routing's int32 table and the switch's byte
// table, which both exist while the network is built; it keeps the byte
// table only), ftree's list numbers per pair of switches (where the
// fabric is too large for tables, it makes none), dimension-order routing's service level per (host, LID) pair,
// and what each host (its adapter, port, flows and their samples) and each
// switch port (its state, lanes, VoQs) keeps apart from that. Against the
// live heap after NewNetwork of meshes of 1 000 and 2 000 hosts and fat
// trees of 1 000 and 2 744 (TestNetworkBytesBoundsTheLiveHeap), the
// estimate is 1.4 to 1.5 times it.
const (
	bytesPerForwardingEntry = 5
	bytesPerFTreePair       = 4
	bytesPerSLEntry         = 1
	bytesPerHost            = 12 << 10
	bytesPerSwitchPort      = 512
)

// NetworkBytes estimates the memory the network of topology t takes once
// built with lmc (LIDs per host 2^lmc) and routing algorithm routing. It
// grows as switches × hosts, the forwarding tables, except for dor on a
// complete mesh or torus, which computes its forwarding from coordinates
// (fabric.ComputeRunRoutes): then it grows as the nodes. ftree keeps at
// most a list number per pair of switches (fabric.FTreeRouter), while it
// is built and after, and tables only up to fabric.FTreeTablesUpTo
// entries.
func NetworkBytes(t *fabric.Topology, lmc int, routing string) int64 {
	var hosts, switches, ports int64
	for i := range t.Nodes {
		if t.Nodes[i].Host {
			hosts++
		} else {
			switches++
			ports += int64(t.Nodes[i].Ports)
		}
	}
	b := float64(hosts)*bytesPerHost + float64(ports)*bytesPerSwitchPort
	if routing == "dor" && fabric.DORComputed(t, lmc) {
		return int64(min(b, math.MaxInt64/2))
	}
	lids := hosts << lmc
	if routing == "ftree" {
		b += float64(switches) * float64(switches) * bytesPerFTreePair
		if !fabric.FTreeKeepsTables(int(switches), int(lids)) {
			return int64(min(b, math.MaxInt64/2))
		}
	}
	b += float64(switches) * float64(lids) * bytesPerForwardingEntry
	if routing == "dor" {
		b += float64(hosts) * float64(lids) * bytesPerSLEntry
	}
	return int64(min(b, math.MaxInt64/2))
}

// MemoryError reports a network that would not fit MemoryBudget. It wraps
// ErrBadScenario.
type MemoryError struct {
	Hosts, Switches int
	Bytes, Budget   int64
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("%v: a network of %d hosts and %d switches needs about %s, mostly forwarding state (switches × hosts); this process may use %s for it",
		fabric.ErrBadScenario, e.Hosts, e.Switches, FormatBytes(e.Bytes), FormatBytes(e.Budget))
}

// Unwrap returns ErrBadScenario.
func (e *MemoryError) Unwrap() error { return fabric.ErrBadScenario }

// checkMemory refuses, with a *MemoryError, a network of t that would not
// fit MemoryBudget.
func checkMemory(t *fabric.Topology, lmc int, routing string) error {
	budget := MemoryBudget
	if budget <= 0 {
		return nil
	}
	b := NetworkBytes(t, lmc, routing)
	if b <= budget {
		return nil
	}
	e := &MemoryError{Bytes: b, Budget: budget}
	for i := range t.Nodes {
		if t.Nodes[i].Host {
			e.Hosts++
		} else {
			e.Switches++
		}
	}
	return e
}

// FormatBytes spells a byte count with a binary unit: "512 B", "1.5 GiB".
func FormatBytes(b int64) string {
	const units = "KMGTPE"
	if b < 1024 {
		return fmt.Sprintf("%d B", b)
	}
	v, i := float64(b)/1024, 0
	for v >= 1024 && i < len(units)-1 {
		v /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %ciB", v, units[i])
}
