package model

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
)

// TrafficSpec is one generated workload of a scenario: which hosts send,
// where their messages go (Pattern), when messages arrive (Arrival, Load)
// and how big they are. Every sender becomes one source: a queue pair with
// its own message queue, throughput series and CCTI (cc_level qp); a sender
// whose messages go to varying destinations (uniform, all-to-all, hot-spot
// traffic) is one queue pair that addresses each message, like an
// unreliable-datagram QP.
type TrafficSpec struct {
	Name string
	// Pattern is where messages go (Patterns).
	Pattern string
	// Arrival is "saturate" (a message always waits: greedy), "poisson"
	// (exponential gaps) or "onoff" (bursts at line rate of exponential
	// length Burst, separated by exponential gaps that make the mean
	// offered load Load).
	Arrival string
	// Load is the offered load of each sender, a fraction of its host
	// link's data rate (poisson and onoff).
	Load float64
	// MessageSize is the (mean) message size in bytes; 0 takes the run's
	// message_size.
	MessageSize int
	// SizeDist is "fixed", "exponential" (mean MessageSize) or "uniform"
	// (1 to 2·MessageSize-1 bytes).
	SizeDist string
	// Burst is onoff's mean burst length.
	Burst engine.Time
	// Hot names the hot nodes of hotspot and the target of incast; when
	// empty, HotNodes hosts spread evenly over the host order are hot.
	Hot      []string
	HotNodes int
	// HotspotFraction is, in mode "hosts", the fraction of the other hosts
	// that send only to the hot nodes (the rest send uniformly); in mode
	// "traffic", the fraction of every host's messages that go to them.
	HotspotFraction float64
	HotspotMode     string
	// Senders is how many hosts send in an incast (0: all but the target).
	Senders int
	// Sources restricts the senders to these hosts; empty: every host.
	Sources []string
	// Role labels the sources; "" is the rule: traffic towards a hot node
	// is a contributor, other traffic of a scenario with hot nodes a victim,
	// the rest background.
	Role       Role
	StartPhase int
	SL         int
}

// Patterns are the destination patterns of TrafficSpec.Pattern. The
// permutations act on host indexes 0..n-1 (Topology.Hosts order): transpose
// needs n a perfect square, bitreverse, shuffle and butterfly a power of two.
var Patterns = []string{"uniform", "permutation", "transpose", "bitreverse", "shuffle",
	"butterfly", "neighbour", "shift", "hotspot", "incast", "alltoall"}

// Arrivals are the arrival processes of TrafficSpec.Arrival.
var Arrivals = []string{"saturate", "poisson", "onoff"}

// SizeDists are the message size distributions of TrafficSpec.SizeDist.
var SizeDists = []string{"fixed", "exponential", "uniform"}

// PatternDest returns the destination of host s of n under a fixed
// permutation pattern (transpose, bitreverse, shuffle, butterfly,
// neighbour: s+1, shift: s+n/2, all mod n), or -1 where the pattern maps s to itself (s sends nothing).
// It returns an error if n does not suit the pattern.
func PatternDest(pattern string, s, n int) (int, error) {
	lg := bits.Len(uint(n)) - 1
	pow2 := n > 1 && n&(n-1) == 0
	d := -1
	switch pattern {
	case "transpose":
		side := isqrt(n)
		if side*side != n || n < 4 {
			return -1, fmt.Errorf("transpose needs a square number of hosts (at least 4), not %d", n)
		}
		d = s%side*side + s/side
	case "bitreverse":
		if !pow2 {
			return -1, fmt.Errorf("bitreverse needs a power of two hosts, not %d", n)
		}
		d = int(bits.Reverse(uint(s)) >> (bits.UintSize - lg))
	case "shuffle": // rotate left by one bit
		if !pow2 {
			return -1, fmt.Errorf("shuffle needs a power of two hosts, not %d", n)
		}
		d = (s<<1 | s>>(lg-1)) & (n - 1)
	case "butterfly": // swap the most and least significant bits
		if !pow2 || n < 4 {
			return -1, fmt.Errorf("butterfly needs a power of two hosts (at least 4), not %d", n)
		}
		hi, lo := s>>(lg-1)&1, s&1
		d = s&^(1<<(lg-1)|1) | lo<<(lg-1) | hi
	case "neighbour":
		d = (s + 1) % n
	case "shift": // half way round the host order: every flow crosses the bisection
		d = (s + n/2) % n
	default:
		return -1, fmt.Errorf("%q is not a fixed permutation", pattern)
	}
	if d == s {
		return -1, nil
	}
	return d, nil
}

func isqrt(n int) int {
	r := 0
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// source is one generated sender as expanded from a TrafficSpec: a host, its
// destination rule and its role.
type source struct {
	spec  *TrafficSpec
	name  string
	host  int   // sending host index
	dst   int   // fixed destination host, or -1 for a random one per message
	dests []int // random destinations are drawn uniformly from these (nil: every host but host)
	cycle bool  // alltoall: go through dests in turn instead
	load  float64
	role  Role
}

// expandTraffic turns a traffic spec into sources over hosts (names in host
// order), with rng drawing the random permutation and hot-spot senders.
func expandTraffic(ts *TrafficSpec, hosts []string, index map[string]int, rng *rand.Rand) ([]source, error) {
	bad := func(field, format string, args ...any) error {
		return &TrafficError{Name: ts.Name, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	n := len(hosts)
	if n < 2 {
		return nil, bad("", "needs at least two hosts")
	}
	senders := make([]bool, n)
	if len(ts.Sources) == 0 {
		for i := range senders {
			senders[i] = true
		}
	}
	for _, name := range ts.Sources {
		i, ok := index[name]
		if !ok {
			return nil, bad("sources", "%q is not a host of the topology", name)
		}
		senders[i] = true
	}
	var hot []int
	for _, name := range ts.Hot {
		i, ok := index[name]
		if !ok {
			return nil, bad("hot", "%q is not a host of the topology", name)
		}
		hot = append(hot, i)
	}
	if len(hot) == 0 && (ts.Pattern == "hotspot" || ts.Pattern == "incast") {
		k := max(ts.HotNodes, 1)
		if k >= n {
			return nil, bad("hot_nodes", "%d: want fewer than the %d hosts", k, n)
		}
		for j := 0; j < k; j++ { // spread evenly over the host order
			hot = append(hot, j*n/k+n/(2*k))
		}
	}
	role := func(toHot bool) Role {
		if ts.Role != "" {
			return ts.Role
		}
		switch {
		case toHot:
			return Contributor
		case len(hot) > 0:
			return Victim
		}
		return Background
	}
	var out []source
	add := func(s int, dst int, dests []int, toHot bool, load float64) {
		out = append(out, source{spec: ts, name: fmt.Sprintf("%s:%s", ts.Name, hosts[s]), host: s, dst: dst,
			dests: dests, load: load, role: role(toHot)})
	}
	switch ts.Pattern {
	case "uniform":
		for s := range n {
			if senders[s] {
				add(s, -1, nil, false, ts.Load)
			}
		}
	case "alltoall":
		for s := range n {
			if senders[s] {
				dests := make([]int, 0, n-1)
				for j := 1; j < n; j++ {
					dests = append(dests, (s+j)%n)
				}
				add(s, -1, dests, false, ts.Load)
				out[len(out)-1].cycle = true
			}
		}
	case "permutation":
		perm := make([]int, n) // Sattolo: a random cyclic permutation, no host maps to itself
		for i := range perm {
			perm[i] = i
		}
		for i := n - 1; i > 0; i-- {
			j := rng.IntN(i)
			perm[i], perm[j] = perm[j], perm[i]
		}
		for s := range n {
			if senders[s] {
				add(s, perm[s], nil, false, ts.Load)
			}
		}
	case "transpose", "bitreverse", "shuffle", "butterfly", "neighbour", "shift":
		for s := range n {
			if !senders[s] {
				continue
			}
			d, err := PatternDest(ts.Pattern, s, n)
			if err != nil {
				return nil, bad("pattern", "%v", err)
			}
			if d >= 0 {
				add(s, d, nil, false, ts.Load)
			}
		}
	case "incast":
		target := hot[0]
		count := 0
		for j := 1; j < n; j++ { // the hosts after the target, in host order
			s := (target + j) % n
			if !senders[s] || ts.Senders > 0 && count == ts.Senders {
				continue
			}
			add(s, target, nil, true, ts.Load)
			count++
		}
		if ts.Senders > count {
			return nil, bad("senders", "%d: only %d hosts can send", ts.Senders, count)
		}
	case "hotspot":
		isHot := make([]bool, n)
		for _, h := range hot {
			isHot[h] = true
		}
		var others []int
		for s := range n {
			if senders[s] && !isHot[s] {
				others = append(others, s)
			}
		}
		cold := make([]int, 0, n)
		for s := range n {
			if !isHot[s] {
				cold = append(cold, s)
			}
		}
		// coldFor is where sender s sends its uniform part: the hosts that
		// are not hot, itself excepted.
		coldFor := func(s int) ([]int, error) {
			if d := withoutHost(cold, s); len(d) > 0 {
				return d, nil
			}
			field := "hot_nodes"
			if len(ts.Hot) > 0 {
				field = "hot"
			}
			return nil, bad(field, "%s sends part of its load to the hosts that are not hot, but every other host is hot (%d of %d): fewer hot nodes, or hotspot_fraction 1",
				hosts[s], len(hot), n)
		}
		switch ts.HotspotMode {
		case "", "hosts":
			// A fraction of the senders, spread evenly, send only to the hot
			// nodes (each to one, in turn); the rest send uniformly to the
			// hosts that are not hot.
			m := len(others)
			k := int(ts.HotspotFraction*float64(m) + 0.5)
			chosen := make([]bool, m)
			for j := 0; j < k; j++ {
				chosen[j*m/k] = true
			}
			j := 0
			for i, s := range others {
				if chosen[i] {
					add(s, hot[j%len(hot)], nil, true, ts.Load)
					j++
				} else {
					d, err := coldFor(s)
					if err != nil {
						return nil, err
					}
					add(s, -1, d, false, ts.Load)
				}
			}
		case "traffic":
			// Every sender sends a fraction of its load to the hot nodes and
			// the rest uniformly to the others: two sources per host.
			for _, s := range others {
				if f := ts.HotspotFraction; f > 0 {
					add(s, -1, hot, true, ts.Load*f)
					out[len(out)-1].name += ":hot"
				}
				if f := 1 - ts.HotspotFraction; f > 0 {
					d, err := coldFor(s)
					if err != nil {
						return nil, err
					}
					add(s, -1, d, false, ts.Load*f)
				}
			}
		default:
			return nil, bad("hotspot_mode", "%q: want hosts or traffic", ts.HotspotMode)
		}
	default:
		return nil, bad("pattern", "%q: unknown pattern", ts.Pattern)
	}
	for i := range out { // one random destination left: it is fixed
		if s := &out[i]; s.dst < 0 && len(s.dests) == 1 {
			s.dst, s.dests = s.dests[0], nil
		}
	}
	return out, nil
}

// TrafficError reports a traffic of a scenario that does not fit its
// topology. Traffic indexes the scenario's traffic; Field names the
// TrafficSpec field at fault as the scenario file spells it ("pattern",
// "sources", "hot", "hot_nodes", "senders", "hotspot_mode"), or is "" for
// the traffic as a whole; Msg says what is wrong with it. It wraps
// ErrBadScenario.
type TrafficError struct {
	Scenario string
	Traffic  int
	Name     string
	Field    string
	Msg      string
}

func (e *TrafficError) Error() string {
	s := fabric.ErrBadScenario.Error()
	if e.Scenario != "" {
		s += " " + e.Scenario
	}
	s += ": traffic " + e.Name + ": "
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Msg
}

// Unwrap returns ErrBadScenario.
func (e *TrafficError) Unwrap() error { return fabric.ErrBadScenario }

// withoutHost returns hosts without h, as a new slice.
func withoutHost(hosts []int, h int) []int {
	return slices.DeleteFunc(slices.Clone(hosts), func(x int) bool { return x == h })
}
