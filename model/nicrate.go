package model

import (
	"math"
	"slices"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// nicState is the nicrate scheme's state in a run (reference 004): each
// flow's admitted rate and next dispatch time.
type nicState struct {
	// ndt is each flow's next dispatch time (NDT): it may send no earlier.
	ndt []engine.Time
	// rateMbps is each flow's admitted rate; 0 for a refused flow.
	rateMbps []int64
	// admittedGbps is each flow's admitted rate in Gbit/s of payload; 0
	// for a refused flow.
	admittedGbps []float64
	scratch      []engine.Time // nicPick's NDTs of one HCA's flows
}

// initNICRate runs admission control and sets each admitted flow's rate.
// A flow requests its scenario rate, else its entry of nicrate.rates;
// requests are admitted in scenario order, each if its source, every link
// of its path and its destination stay within capacity with it, else
// refused. The flows that request nothing then get their max-min fair
// share of what the admitted requests leave (maxMinShares), which fits by
// construction. A refused flow never starts, and Result lists it.
func (n *Network) initNICRate() {
	rates, _ := params.ParseRates(n.cfg.NICRate.Rates) // checked by Param.Parse
	paths, capacity := n.nicResources()
	s := &nicState{ndt: make([]engine.Time, len(n.flows)), rateMbps: make([]int64, len(n.flows)),
		admittedGbps: make([]float64, len(n.flows))}
	used := make([]float64, len(capacity))
	var open []int // the flows that request no rate
	for i, path := range paths {
		req := 0.0
		switch {
		case n.flows[i].spec.RateGbps > 0:
			req = n.flows[i].spec.RateGbps
		case i < len(rates):
			req = rates[i]
		}
		if req <= 0 {
			open = append(open, i)
		} else if admit(path, capacity, used, req) {
			s.admittedGbps[i] = req
		}
	}
	left := make([]float64, len(capacity))
	for r := range capacity {
		left[r] = max(capacity[r]-used[r], 0)
	}
	openPaths := make([][]int, len(open))
	for j, i := range open {
		openPaths[j] = paths[i]
	}
	for j, share := range maxMinShares(openPaths, left) {
		if i := open[j]; admit(paths[i], capacity, used, share) {
			s.admittedGbps[i] = share
		}
	}
	for i, g := range s.admittedGbps {
		if g > 0 {
			s.rateMbps[i] = max(1, mbps(g))
		}
	}
	n.nic = s
}

// admitTolerance absorbs rounding in the sums of shares that fill a
// resource exactly.
const admitTolerance = 1e-9

// admit reports whether a flow of rate Gbit/s over resources path fits in
// what capacity leaves beyond used, and if so adds it to used.
func admit(path []int, capacity, used []float64, rate float64) bool {
	if rate <= 0 {
		return false
	}
	for _, r := range path {
		if used[r]+rate > capacity[r]*(1+admitTolerance) {
			return false
		}
	}
	for _, r := range path {
		used[r] += rate
	}
	return true
}

// nicResources returns the resources each flow uses, as indexes into
// capacity (Gbit/s of payload): its source HCA's send side, every link
// direction of its path from the source's port on, and its destination
// HCA's receive side. An HCA sends and receives at most its I/O bandwidth
// and its link's payload rate, a link at its payload rate for MTU packets.
func (n *Network) nicResources() (paths [][]int, capacity []float64) {
	nh := len(n.hcas)
	payload := float64(n.cfg.MTU) / float64(n.cfg.MTU+n.cfg.HeaderBytes)
	capacity = make([]float64, 2*nh+len(n.ports))
	for h := range n.hcas {
		c := min(n.hostIOGbps(h), float64(n.ports[n.hcas[h].port].rateMbps)/1000*payload)
		capacity[h], capacity[nh+h] = c, c
	}
	for p := range n.ports {
		capacity[2*nh+p] = float64(n.ports[p].rateMbps) / 1000 * payload
	}
	for i := range n.flows {
		f := &n.flows[i]
		path := []int{int(f.src), nh + int(f.dst)}
		p := n.hcas[f.src].port
		for hop := 0; hop <= len(n.ports); hop++ {
			path = append(path, 2*nh+int(p))
			peer := &n.ports[n.ports[p].peer]
			if peer.host {
				break
			}
			p = n.sws[peer.owner].out(f.dlid)
		}
		paths = append(paths, path)
	}
	return paths, capacity
}

// maxMinShares returns the max-min fair rates of flows over resources
// paths (indexes into capacity), found by progressive filling: the flows
// grow together until a resource they use is full, which fixes theirs,
// and the rest go on.
func maxMinShares(paths [][]int, capacity []float64) []float64 {
	rate := make([]float64, len(paths))
	left := slices.Clone(capacity)
	growing := make([]bool, len(paths))
	users := make([]int, len(capacity))
	for i, path := range paths {
		growing[i] = true
		for _, r := range path {
			users[r]++
		}
	}
	for {
		step := math.Inf(1)
		for r, u := range users {
			if u > 0 {
				step = min(step, max(left[r], 0)/float64(u))
			}
		}
		if math.IsInf(step, 1) {
			return rate
		}
		for r, u := range users {
			left[r] -= step * float64(u)
		}
		for i, path := range paths {
			if !growing[i] {
				continue
			}
			rate[i] += step
			if slices.ContainsFunc(path, func(r int) bool { return left[r] <= capacity[r]*admitTolerance }) {
				growing[i] = false
				for _, r := range path {
					users[r]--
				}
			}
		}
	}
}

// earliestDue returns the index of the flow that dispatches at now: the
// one with the smallest NDT no later than now among those ok accepts, the
// first in order on a tie (reference 004, Table 1); -1 when none is due.
func earliestDue(ndt []engine.Time, now engine.Time, ok func(i int) bool) int {
	best := -1
	for i, t := range ndt {
		if t <= now && (best < 0 || t < ndt[best]) && ok(i) {
			best = i
		}
	}
	return best
}

// nicPick points HCA hc's round-robin at the flow that dispatches now
// (earliestDue over its active flows whose own time has passed), so that
// tryHCA tries it first; if it cannot send (no credits), the others that
// are due follow in round-robin order.
func (n *Network) nicPick(hc *hcaState, now engine.Time) {
	ndt := n.nic.scratch[:0]
	for _, fi := range hc.flows {
		ndt = append(ndt, n.nic.ndt[fi])
	}
	n.nic.scratch = ndt
	if i := earliestDue(ndt, now, func(i int) bool {
		f := &n.flows[hc.flows[i]]
		return f.active && f.readyAt <= now
	}); i >= 0 {
		hc.rr = i
	}
}

// nicStart starts flow fi if admission control admitted it: its NDT is
// the later of now and its NDT (it banks no credit while idle). It
// reports false for a refused flow.
func (n *Network) nicStart(fi int32) bool {
	s := n.nic
	if s.rateMbps[fi] == 0 {
		return false
	}
	s.ndt[fi] = max(s.ndt[fi], n.sim.Now())
	return true
}

// nicSent advances flow fi's NDT by its inter-dispatch time for a packet
// of payload bytes, IDT = T·B_peak/B_req for an MTU packet, and holds the
// flow until then.
func (n *Network) nicSent(fi int32, payload int32) {
	s := n.nic
	s.ndt[fi] += txTime(payload, s.rateMbps[fi])
	f := &n.flows[fi]
	f.readyAt = max(f.readyAt, s.ndt[fi])
}
