package model

import (
	"cmp"
	"math"
	"slices"

	"github.com/ccsweep/ccsweep/engine"
)

// Distributed routing balancing (DRB, reference 003): congestion control by
// routing instead of by injection throttling.
//
// Switches mark with IB CC's marking and destinations return BECNs as under
// IB CC. A source keeps, for every destination it sends to (per flow, and per
// destination of a generated source), a DRB pair: the paths to that
// destination in a fixed order (drbOrder: LID offset 0 first, then shortest,
// then most disjoint from the paths before it, each distinct path once), of
// which the first k are open. A source starts with k = 1, the minimal path.
// Every drb.open_after BECNs open the next path (up to drb.max_paths and
// the distinct paths there are), and every BECN restarts the pair's timer;
// each expiry of drb.timer with no BECN since closes the path opened last,
// down to one. Each message travels on one open path (so an RC QP's
// packets stay in order within a message), chosen by smooth weighted
// round-robin with weights inversely proportional to 1 + the BECNs each
// path received; each timer expiry halves those counts, so the weights
// follow recent congestion. The choice is deterministic: DRB draws no
// random numbers.
//
// The timer is evaluated lazily: the timer restarts on every BECN and an
// expiry closes a path only when no BECN came since the last one, so the
// expiries between two events of a pair fall at last+T, last+2T, … and
// advance applies them exactly when the pair is next used. DRB therefore
// schedules no events, and a run without DRB runs none of this code.

// drbWeight is the weight of a path with no BECN; a path with c BECNs
// weighs drbWeight/(1+c).
const drbWeight = 1 << 20

// drbState is DRB's per-run state; zero when DRB is off.
type drbState struct {
	on       bool
	throttle bool
	timer    engine.Time
	maxPaths int
	openAt   int32
	window   engine.Time         // start of the measurement window
	pairs    []drbPair           // every pair used so far, in order of first use
	pairOf   map[uint64]int32    // flow<<32 | destination host -> index into pairs
	orders   map[uint64]drbOrder // source host<<32 | destination host -> path order, shared by its pairs
}

// drbOrder is the LID offsets of a (source, destination) pair's distinct
// paths, best first.
type drbOrder []uint8

// drbPair is one source's DRB state towards one destination.
type drbPair struct {
	order drbOrder
	open  int32 // paths open: order[:open]
	// becns and credit, per path of order, are made at the pair's first
	// BECN, so a pair that never had one costs its order's share only.
	becns   []int32     // BECNs per open path, halved at each expiry
	credit  []int64     // smooth weighted round-robin state per open path
	pending int32       // BECNs towards the next opening
	last    engine.Time // the timer's last (re)start; it expires at last+timer
	// Time integral of open over the measurement window, from the pair's
	// first use (born) up to since.
	born, since engine.Time
	integral    float64
}

// initDRB sets DRB up for a run of scheme drb (initScheme). Routes must
// be built.
func (n *Network) initDRB() {
	c := n.cfg.DRB
	d := &n.drb
	*d = drbState{on: true, throttle: c.Throttle, timer: c.Timer, maxPaths: c.MaxPaths, openAt: int32(max(c.OpenAfter, 1)),
		pairOf: map[uint64]int32{}, orders: map[uint64]drbOrder{}}
	d.window, _ = Window(n.scenario, &n.cfg)
}

// drbPick routes flow fi's new message: it picks one of the open paths to
// the message's destination and sets the flow's DLID and VL to it.
func (n *Network) drbPick(fi int32) {
	f := &n.flows[fi]
	pr := n.drbPair(fi, f.src, f.dst)
	pr.advance(n.sim.Now(), &n.drb)
	p := int(pr.order[pr.pick()])
	n.routeFlow(f, p)
}

// drbNotify counts the BECN pk brought to its source: it came back from the
// data's destination (pk.src) on the path the data took (pk.dlid's offset).
func (n *Network) drbNotify(pk *packet) {
	pr := n.drbPair(pk.flow, pk.dst, pk.src)
	pr.notify(n.sim.Now(), uint8(n.routes.PathOf(pk.dlid)), &n.drb)
}

// notify counts a BECN for path (a LID offset) at now: the path's count
// grows if it is open, the timer restarts, and every drb.open_after-th
// BECN opens the next path in order, if there is one.
func (pr *drbPair) notify(now engine.Time, path uint8, d *drbState) {
	pr.advance(now, d)
	if pr.becns == nil {
		pr.becns, pr.credit = make([]int32, len(pr.order)), make([]int64, len(pr.order))
	}
	if j := slices.Index(pr.order[:pr.open], path); j >= 0 {
		pr.becns[j]++
	}
	pr.last = now
	if pr.pending++; pr.pending >= d.openAt && int(pr.open) < len(pr.order) {
		pr.pending = 0
		pr.integrate(now, d.window)
		pr.open++
	}
}

// drbPair returns the pair of flow fi (from host src) towards host dst,
// creating it on first use.
func (n *Network) drbPair(fi, src, dst int32) *drbPair {
	d := &n.drb
	key := uint64(fi)<<32 | uint64(dst)
	if i, ok := d.pairOf[key]; ok {
		return &d.pairs[i]
	}
	hk := uint64(src)<<32 | uint64(dst)
	order, ok := d.orders[hk]
	if !ok {
		order = n.drbPathOrder(int(src), int(dst))
		d.orders[hk] = order
	}
	d.pairs = append(d.pairs, newDRBPair(order, n.sim.Now()))
	d.pairOf[key] = int32(len(d.pairs) - 1)
	return &d.pairs[len(d.pairs)-1]
}

// newDRBPair returns a pair on the first path of order, first used at now.
func newDRBPair(order drbOrder, now engine.Time) drbPair {
	return drbPair{order: order, open: 1, last: now, born: now, since: now}
}

// advance applies the timer expiries due by now: each closes the path
// opened last (its count and round-robin state forgotten) and halves the
// others' counts; at one path the timer stops and the count is forgotten.
func (pr *drbPair) advance(now engine.Time, d *drbState) {
	for pr.open > 1 && pr.last+d.timer <= now {
		pr.last += d.timer
		pr.integrate(pr.last, d.window)
		pr.open--
		pr.becns[pr.open], pr.credit[pr.open] = 0, 0
		for j := range pr.open {
			pr.becns[j] >>= 1
		}
		if pr.open == 1 {
			pr.becns[0] = 0 // alone again: the next opening starts clean
		}
	}
}

// integrate adds the open paths' time integral from pr.since to t, counting
// only time after the window's start.
func (pr *drbPair) integrate(t, window engine.Time) {
	if from := max(pr.since, window); t > from {
		pr.integral += float64(pr.open) * float64(t-from)
	}
	pr.since = max(pr.since, t)
}

// pick returns the index in order of the open path the next message takes:
// smooth weighted round-robin (every open path gains its weight, the one
// with the most credit is taken and pays the total), weights drbWeight/(1+
// BECNs), ties to the earlier path. Over many picks each path's share is
// its weight's share, spread as evenly as the weights allow.
func (pr *drbPair) pick() int {
	if pr.open == 1 {
		return 0
	}
	best, total := 0, int64(0)
	for j := range int(pr.open) {
		w := int64(drbWeight / (1 + pr.becns[j]))
		total += w
		pr.credit[j] += w
		if pr.credit[j] > pr.credit[best] {
			best = j
		}
	}
	pr.credit[best] -= total
	return best
}

// drbPathsOpenMean returns the time-average number of open paths per pair
// over the measurement window up to now, across the pairs in use (each from
// its first use); NaN without DRB or before the window. It applies the
// timer expiries due by now, which changes nothing that follows: they fall
// at the same instants whenever they are applied.
func (n *Network) drbPathsOpenMean() float64 {
	d := &n.drb
	now := n.sim.Now()
	if !d.on || now <= d.window || len(d.pairs) == 0 {
		return math.NaN()
	}
	var sum, span float64
	for i := range d.pairs {
		pr := &d.pairs[i]
		pr.advance(now, d)
		pr.integrate(now, d.window)
		if from := max(pr.born, d.window); now > from {
			span += float64(now - from)
		}
		sum += pr.integral
	}
	if span == 0 {
		return math.NaN()
	}
	return sum / span
}

// drbPathOrder walks every LID of host dst from host src through the
// forwarding tables and orders the distinct paths: offset 0 first (the
// path a source starts on), then by length, then by the fewest channels
// shared with the paths already ordered, then by offset. It keeps at most
// drb.max_paths.
func (n *Network) drbPathOrder(src, dst int) drbOrder {
	nPaths := 1 << n.routes.LMC
	paths := make([][]int32, nPaths)
	for p := range nPaths {
		paths[p] = n.walk(src, int32(n.routes.LID(dst, p)))
	}
	var cand []int
	for p := 1; p < nPaths; p++ {
		if !slices.ContainsFunc(cand, func(q int) bool { return slices.Equal(paths[q], paths[p]) }) &&
			!slices.Equal(paths[0], paths[p]) {
			cand = append(cand, p)
		}
	}
	limit := nPaths
	if m := n.drb.maxPaths; m > 0 {
		limit = min(limit, m)
	}
	order := drbOrder{0}
	used := map[int32]bool{}
	for _, c := range paths[0] {
		used[c] = true
	}
	for len(cand) > 0 && len(order) < limit {
		shared := func(p int) int {
			k := 0
			for _, c := range paths[p] {
				if used[c] {
					k++
				}
			}
			return k
		}
		best := slices.MinFunc(cand, func(a, b int) int {
			return cmp.Or(cmp.Compare(len(paths[a]), len(paths[b])), cmp.Compare(shared(a), shared(b)), cmp.Compare(a, b))
		})
		order = append(order, uint8(best))
		for _, c := range paths[best] {
			used[c] = true
		}
		cand = slices.DeleteFunc(cand, func(p int) bool { return p == best })
	}
	return order
}

// walk returns the switch output ports (global port numbers) a packet from
// host src to lid leaves by, in order. Routing has checked that it arrives.
func (n *Network) walk(src int, lid int32) []int32 {
	var out []int32
	gp := n.ports[n.hcas[src].port].peer
	for !n.ports[gp].host {
		sw := &n.sws[n.ports[gp].owner]
		o := sw.out(lid)
		out = append(out, o)
		gp = n.ports[o].peer
	}
	return out
}
