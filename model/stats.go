package model

import (
	"math"
	"math/bits"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/workload"
)

// roles lists the flow roles in the order of runStats' per-role arrays.
var roles = [...]workload.Role{workload.Victim, workload.Contributor, workload.Background}

// roleIndex returns r's index in roles (background for an unknown role).
func roleIndex(r workload.Role) uint8 {
	for i, x := range roles {
		if x == r {
			return uint8(i)
		}
	}
	return 2
}

// runStats collects what the throughput series do not show, over the
// measurement window: message latencies per role, every output port's
// bytes sent and the fullest switch input buffer. From is the first sample
// boundary inside the window (where the window's throughput samples start),
// so every window metric covers the same time.
type runStats struct {
	from, to engine.Time
	started  bool        // the window has begun: the counters below count
	winStart engine.Time // when it began
	lat      [len(roles)]latencyHist
	all      latencyHist
	txAt     []int64 // each port's bytes sent when the window began
	maxBuf   int32   // largest switch input buffer fill seen in the window, credits
}

// message records a message that arrived at its source at born and was
// delivered (its last byte in host memory) at end.
func (s *runStats) message(role uint8, born, end engine.Time) {
	if !s.started || end > s.to {
		return
	}
	s.lat[role].add(end - born)
	s.all.add(end - born)
}

// startWindow begins the window's counters.
func (n *Network) startWindow() {
	s := &n.stats
	s.started, s.winStart = true, n.sim.Now()
	s.txAt = make([]int64, len(n.ports))
	for i := range n.ports {
		s.txAt[i] = n.ports[i].txBytes
	}
	s.maxBuf = 0
	for i := range n.ports { // what the switches' buffers hold as the window begins
		if p := &n.ports[i]; p.peer >= 0 && !p.toHost {
			for v := 0; v < n.nVL; v++ {
				s.maxBuf = max(s.maxBuf, n.lane(int32(i), VL(v)).used)
			}
		}
	}
	for i := range n.flows {
		if g := n.flows[i].gen; g != nil {
			g.winFrom = n.sim.Now()
		}
	}
}

// latencyHist is a log-linear histogram of latencies: values below 64 ps
// exactly, above in buckets 1/32 of a power of two wide (relative error
// under 1.6 %), with the exact sum for the mean.
type latencyHist struct {
	count   int64
	sum     float64 // ps
	buckets []int64
}

const latSub = 32 // buckets per power of two

func latBucket(v engine.Time) int {
	u := uint64(max(v, 0))
	if u < 2*latSub {
		return int(u)
	}
	shift := bits.Len64(u) - 6 // top holds u's leading 6 bits, in [32, 64)
	top := u >> uint(shift)
	return shift*latSub + int(top)
}

// latValue is the middle of bucket b.
func latValue(b int) float64 {
	if b < 2*latSub {
		return float64(b)
	}
	shift := b/latSub - 1
	top := b - shift*latSub
	return (float64(top) + 0.5) * math.Ldexp(1, shift)
}

func (h *latencyHist) add(v engine.Time) {
	b := latBucket(v)
	if b >= len(h.buckets) {
		h.buckets = append(h.buckets, make([]int64, b+1-len(h.buckets))...)
	}
	h.buckets[b]++
	h.count++
	h.sum += float64(v)
}

// meanUs returns the mean latency in µs (NaN for no messages).
func (h *latencyHist) meanUs() float64 {
	if h.count == 0 {
		return math.NaN()
	}
	return h.sum / float64(h.count) / float64(engine.Microsecond)
}

// quantileUs returns the q-quantile in µs (NaN for no messages): the
// middle of the bucket holding the ⌈q·count⌉-th smallest latency.
func (h *latencyHist) quantileUs(q float64) float64 {
	if h.count == 0 {
		return math.NaN()
	}
	rank := int64(math.Ceil(q * float64(h.count)))
	rank = min(max(rank, 1), h.count)
	var seen int64
	for b, c := range h.buckets {
		if seen += c; seen >= rank {
			return latValue(b) / float64(engine.Microsecond)
		}
	}
	return math.NaN()
}

// LatencySummary is a role's message latency over the window, in µs.
type LatencySummary struct {
	Count          int64
	Mean, P50, P99 float64
}

func (h *latencyHist) summary() LatencySummary {
	return LatencySummary{Count: h.count, Mean: h.meanUs(), P50: h.quantileUs(0.5), P99: h.quantileUs(0.99)}
}

// runStats summarizes the window's statistics for a Result.
func (n *Network) runStats() RunStats {
	s := &n.stats
	var r RunStats
	for i := range s.lat {
		r.Latency[i] = s.lat[i].summary()
	}
	r.All = s.all.summary()
	for i := range n.flows {
		if g := n.flows[i].gen; g != nil {
			// Arrivals are made when the adapter looks at its source; one
			// blocked since is brought up to now, so that what arrived
			// (and what a full queue dropped) is all counted. The draws
			// are the ones the adapter would make when it looks.
			if n.flows[i].active {
				g.pull(n.sim.Now())
			}
			r.Dropped += g.dropped
		}
	}
	if !s.started || s.winStart >= s.to {
		nan := math.NaN()
		r.OfferedGbps, r.SenderGbps, r.MaxLinkUtil, r.MaxBufferFill = nan, nan, nan, nan
		return r
	}
	dur := float64(s.to - s.winStart)  // ps
	sends := make([]bool, len(n.hcas)) // by host: summed in host order, so the sum is the same every run
	for i := range n.flows {
		f := &n.flows[i]
		if f.start >= s.to {
			continue
		}
		sends[f.src] = true
		rate := float64(n.ports[n.hcas[f.src].port].rateMbps) / 1000 // Gbit/s
		if g := f.gen; g != nil && g.arrival != arriveSaturate {
			r.OfferedGbps += float64(g.offered) * 8 / dur * 1000
		} else {
			r.OfferedGbps += rate
		}
	}
	for h, ok := range sends {
		if ok {
			r.SenderGbps += float64(n.ports[n.hcas[h].port].rateMbps) / 1000
		}
	}
	for i := range n.ports {
		p := &n.ports[i]
		if p.peer < 0 || p.rateMbps == 0 {
			continue
		}
		sent := float64(p.txBytes-s.txAt[i]) * 8 // bits
		r.MaxLinkUtil = max(r.MaxLinkUtil, sent/(float64(p.rateMbps)*1e-6*dur))
	}
	r.MaxBufferFill = float64(s.maxBuf) / float64(n.cfg.SwitchBufferCredits)
	return r
}
