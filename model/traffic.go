package model

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// source is one generated sender as expanded from a TrafficSpec: a host, its
// destination rule and its role.
type source struct {
	spec  *workload.TrafficSpec
	name  string
	host  int   // sending host index
	dst   int   // fixed destination host, or -1 for a random one per message
	dests []int // random destinations are drawn uniformly from these (nil: every host but host)
	cycle bool  // alltoall: go through dests in turn instead
	load  float64
	role  workload.Role
}

// expandTraffic turns a traffic spec into sources over hosts (names in host
// order), with rng drawing the random permutation and hot-spot senders.
func expandTraffic(ts *workload.TrafficSpec, hosts []string, index map[string]int, rng *rand.Rand) ([]source, error) {
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
	role := func(toHot bool) workload.Role {
		if ts.Role != "" {
			return ts.Role
		}
		switch {
		case toHot:
			return workload.Contributor
		case len(hot) > 0:
			return workload.Victim
		}
		return workload.Background
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
			d, err := workload.PatternDest(ts.Pattern, s, n)
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
