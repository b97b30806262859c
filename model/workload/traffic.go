package workload

import (
	"fmt"
	"math/bits"

	"github.com/ccsweep/ccsweep/engine"
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
