package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// bitsOf spells s in b binary digits, most significant first.
func bitsOf(s, b int) string {
	t := strconv.FormatInt(int64(s), 2)
	for len(t) < b {
		t = "0" + t
	}
	return t
}

func fromBits(t string) int {
	v, _ := strconv.ParseInt(t, 2, 64)
	return int(v)
}

// TestPatternDestinations checks each fixed permutation against its
// textbook definition (Dally & Towles), written on digit strings rather
// than with the shifts PatternDest uses.
func TestPatternDestinations(t *testing.T) {
	for _, n := range []int{4, 16, 64, 256} {
		b := int(math.Log2(float64(n)))
		side := int(math.Sqrt(float64(n)))
		for s := 0; s < n; s++ {
			d := bitsOf(s, b)
			rev := []byte(d)
			slices.Reverse(rev)
			want := map[string]int{
				"bitreverse": fromBits(string(rev)),
				"shuffle":    fromBits(d[1:] + d[:1]),              // rotate left
				"butterfly":  fromBits(d[b-1:] + d[1:b-1] + d[:1]), // swap first and last digit
				"neighbour":  (s + 1) % n,                          // next in host order
				"shift":      (s + n/2) % n,                        // half way round
				"transpose":  (s%side)*side + s/side,               // (row, col) -> (col, row)
			}
			if b == 1 {
				delete(want, "butterfly")
			}
			for pattern, w := range want {
				if w == s {
					w = -1 // maps to itself: sends nothing
				}
				got, err := workload.PatternDest(pattern, s, n)
				if err != nil || got != w {
					t.Errorf("%s n=%d s=%d (%s): got %d, %v; want %d", pattern, n, s, d, got, err, w)
				}
			}
		}
	}
	for _, c := range []struct {
		pattern string
		n       int
	}{{"transpose", 8}, {"bitreverse", 12}, {"shuffle", 6}, {"butterfly", 2}} {
		if _, err := workload.PatternDest(c.pattern, 0, c.n); err == nil {
			t.Errorf("%s on %d hosts: no error", c.pattern, c.n)
		}
	}
}

func hostList(n int) ([]string, map[string]int) {
	names := make([]string, n)
	index := map[string]int{}
	for i := range names {
		names[i] = fmt.Sprintf("H%d", i+1)
		index[names[i]] = i
	}
	return names, index
}

// TestExpandTraffic checks the sources each pattern makes: who sends, to
// whom, and in which role.
func TestExpandTraffic(t *testing.T) {
	names, index := hostList(16)
	rng := rand.New(rand.NewPCG(1, 2))
	expand := func(ts workload.TrafficSpec) []source {
		t.Helper()
		srcs, err := expandTraffic(&ts, names, index, rng)
		if err != nil {
			t.Fatal(err)
		}
		return srcs
	}
	t.Run("permutation is a derangement", func(t *testing.T) {
		for seed := range 20 {
			rng = rand.New(rand.NewPCG(uint64(seed), 2))
			srcs := expand(workload.TrafficSpec{Name: "p", Pattern: "permutation"})
			seen := map[int]bool{}
			for _, s := range srcs {
				if s.dst == s.host || s.dst < 0 || seen[s.dst] {
					t.Fatalf("seed %d: host %d -> %d (seen %v)", seed, s.host, s.dst, seen[s.dst])
				}
				seen[s.dst] = true
			}
			if len(srcs) != 16 {
				t.Fatalf("%d senders, want 16", len(srcs))
			}
		}
	})
	t.Run("incast", func(t *testing.T) {
		srcs := expand(workload.TrafficSpec{Name: "i", Pattern: "incast", Hot: []string{"H3"}, Senders: 5})
		if len(srcs) != 5 {
			t.Fatalf("%d senders, want 5", len(srcs))
		}
		for j, s := range srcs {
			if s.dst != 2 || s.host != 3+j || s.role != workload.Contributor {
				t.Errorf("sender %d: %+v", j, s)
			}
		}
	})
	t.Run("hotspot by hosts", func(t *testing.T) {
		srcs := expand(workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotNodes: 2, HotspotFraction: 0.5})
		hot := map[int]int{}
		var victims int
		for _, s := range srcs {
			switch s.role {
			case workload.Contributor:
				hot[s.dst]++
			case workload.Victim:
				victims++
				if slices.Contains(s.dests, s.host) || len(s.dests) != 13 {
					t.Errorf("victim %d draws from %v", s.host, s.dests)
				}
			}
		}
		// 14 hosts are not hot: 7 send to the hot nodes, 4 and 3 or so each.
		if len(srcs) != 14 || victims != 7 || len(hot) != 2 || hot[4]+hot[12] != 7 {
			t.Errorf("%d sources, %d victims, hot %v", len(srcs), victims, hot)
		}
	})
	t.Run("hotspot by traffic", func(t *testing.T) {
		srcs := expand(workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotNodes: 1, HotspotFraction: 0.25,
			HotspotMode: "traffic", Arrival: "poisson", Load: 0.8})
		for _, s := range srcs {
			want := 0.8 * 0.75
			if s.role == workload.Contributor {
				want = 0.8 * 0.25
			}
			if math.Abs(s.load-want) > 1e-12 {
				t.Errorf("%s: load %v, want %v", s.name, s.load, want)
			}
		}
		if len(srcs) != 30 {
			t.Errorf("%d sources, want two for each of 15 hosts", len(srcs))
		}
	})
	t.Run("alltoall cycles", func(t *testing.T) {
		srcs := expand(workload.TrafficSpec{Name: "a", Pattern: "alltoall"})
		g := &generator{src: &srcs[3], nHosts: 16}
		var got []int32
		for range 16 {
			got = append(got, g.drawDest())
		}
		want := []int32{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 4}
		if !slices.Equal(got, want) {
			t.Errorf("host 3 sends to %v, want %v", got, want)
		}
	})
	t.Run("explicit role wins", func(t *testing.T) {
		for _, s := range expand(workload.TrafficSpec{Name: "u", Pattern: "uniform", Role: workload.Victim}) {
			if s.role != workload.Victim {
				t.Fatalf("%s: role %s", s.name, s.role)
			}
		}
	})
	t.Run("uniform never sends to itself", func(t *testing.T) {
		srcs := expand(workload.TrafficSpec{Name: "u", Pattern: "uniform"})
		g := &generator{src: &srcs[5], nHosts: 16, rng: rand.New(rand.NewPCG(3, 4))}
		count := make([]int, 16)
		for range 16000 {
			count[g.drawDest()]++
		}
		if count[5] != 0 {
			t.Fatalf("host 5 sent %d messages to itself", count[5])
		}
		for d, c := range count {
			if d != 5 && (c < 850 || c > 1300) { // mean 1066.7, sd 32
				t.Errorf("destination %d drawn %d times of 16000", d, c)
			}
		}
	})
}

// TestHotspotWithNoColdDestinationIsRefused: when every host but one is
// hot, that one host's uniform part has nowhere to go. It is refused with
// the traffic's name, in both hotspot modes, where it once panicked in the
// generator's first draw (rand.IntN(0)).
func TestHotspotWithNoColdDestinationIsRefused(t *testing.T) {
	names, index := hostList(4)
	for _, ts := range []workload.TrafficSpec{
		{Name: "hs", Pattern: "hotspot", HotNodes: 3, HotspotMode: "traffic", HotspotFraction: 0.5, Arrival: "poisson", Load: 0.5},
		{Name: "hs", Pattern: "hotspot", HotNodes: 3, HotspotMode: "hosts", HotspotFraction: 0, Arrival: "poisson", Load: 0.5},
	} {
		_, err := expandTraffic(&ts, names, index, rand.New(rand.NewPCG(1, 2)))
		if err == nil || !strings.Contains(err.Error(), "traffic hs:") || !strings.Contains(err.Error(), "every other host is hot") {
			t.Errorf("mode %s: %v, want a refusal naming traffic hs", ts.HotspotMode, err)
		}
		// One host fewer hot leaves two cold hosts: each has the other.
		ts.HotNodes = 2
		if _, err := expandTraffic(&ts, names, index, rand.New(rand.NewPCG(1, 2))); err != nil {
			t.Errorf("mode %s, 2 hot of 4: %v", ts.HotspotMode, err)
		}
	}
}

// twoHosts is A - S1 - B, one generated traffic from A to B.
func twoHosts(ts workload.TrafficSpec, phases int) *workload.Scenario {
	return &workload.Scenario{Name: "two", Phases: phases, Traffic: []workload.TrafficSpec{ts},
		Build: func(c *params.Config) (*fabric.Topology, error) {
			t := &fabric.Topology{}
			s := t.AddSwitch("S1", 4)
			for _, h := range []string{"A", "B"} {
				if err := t.Connect(t.AddHost(h), s, c.HostLinkGbps); err != nil {
					return nil, err
				}
			}
			return t, nil
		}}
}

// TestLoneMessageLatency: a message alone in the network takes its closed
// form: the propagation delay of two links, the switch latency, and the
// longer of its time on the wire and its time through the receive DMA
// (the packet is cut through, so the first link's serialization overlaps
// the second's). Poisson arrivals at a tiny load keep messages alone.
func TestLoneMessageLatency(t *testing.T) {
	for _, io := range []float64{16, 8} {
		t.Run(fmt.Sprint("io=", io), func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase, cfg.Sample = 20*engine.Millisecond, engine.Millisecond
			cfg.HostIOGbps = io
			const size = 1000
			sc := twoHosts(workload.TrafficSpec{Name: "one", Pattern: "incast", Hot: []string{"B"}, Sources: []string{"A"},
				Arrival: "poisson", Load: 0.001, MessageSize: size}, 1)
			res, err := Run(sc, cfg, 7)
			if err != nil {
				t.Fatal(err)
			}
			wire := txTime(size+int32(cfg.HeaderBytes), mbps(cfg.HostLinkGbps))
			dma := txTime(size, mbps(io))
			want := 2*cfg.PropDelay + cfg.SwitchLatency + max(wire, dma)
			all := res.Stats.All
			if all.Count < 5 {
				t.Fatalf("%d messages", all.Count)
			}
			if got := all.Mean * float64(engine.Microsecond); math.Abs(got-float64(want)) > 1 {
				t.Errorf("mean latency %v ps, want %v ps", got, int64(want))
			}
			if l := res.Stats.Latency[roleIndex(workload.Contributor)]; l.Count != all.Count {
				t.Errorf("contributor messages %d of %d", l.Count, all.Count)
			}
		})
	}
}

// TestGeneratedTrafficConservesAndRepeats runs each arrival process on a
// fat tree: bytes and credits are conserved at odd instants, the offered
// load is what was asked, and a second run gives the same result.
func TestGeneratedTrafficConservesAndRepeats(t *testing.T) {
	for _, ts := range []workload.TrafficSpec{
		{Name: "u", Pattern: "uniform", Arrival: "poisson", Load: 0.4, MessageSize: 3000, SizeDist: "exponential"},
		{Name: "b", Pattern: "bitreverse", Arrival: "onoff", Load: 0.3, Burst: 20 * engine.Microsecond, MessageSize: 2048},
		{Name: "h", Pattern: "hotspot", HotNodes: 1, HotspotFraction: 0.25, MessageSize: 8192, SizeDist: "uniform"},
	} {
		t.Run(ts.Name, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase, cfg.Sample = 3*engine.Millisecond, 100*engine.Microsecond
			cfg.HostIOGbps, cfg.CC.Scheme = 16, params.SchemeIB
			sc := &workload.Scenario{Name: "ft", Phases: 1, Traffic: []workload.TrafficSpec{ts}, Routing: "ftree",
				Build: func(c *params.Config) (*fabric.Topology, error) {
					return fabric.GenerateTopology("fattree", fabric.TopoParams{K: 4, Levels: 2, HostGbps: 16, SwitchGbps: 16})
				}}
			n, err := NewNetwork(sc, cfg, 3)
			if err != nil {
				t.Fatal(err)
			}
			runConserving(t, n, 333*engine.Microsecond+7)
			res := n.Result()
			m := res.Metrics()
			if ts.Load > 0 && math.Abs(m.OfferedLoad-ts.Load) > 0.1*ts.Load {
				t.Errorf("offered load %v, want %v", m.OfferedLoad, ts.Load)
			}
			if ts.Load > 0 && m.AcceptedLoad > m.OfferedLoad*1.1 {
				t.Errorf("accepted %v above offered %v", m.AcceptedLoad, m.OfferedLoad)
			}
			if m.All.Count == 0 || m.MaxLinkUtil <= 0 || m.MaxLinkUtil > 1.0001 {
				t.Errorf("latencies %d, busiest link %v", m.All.Count, m.MaxLinkUtil)
			}
			again, err := Run(sc, cfg, 3)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(again.Metrics()) != fmt.Sprint(m) || again.Events != res.Events {
				t.Errorf("second run differs:\n%v\n%v", again.Metrics(), m)
			}
		})
	}
}

// TestLatencyHistogram: quantiles land within the histogram's resolution.
func TestLatencyHistogram(t *testing.T) {
	var h latencyHist
	for v := 1; v <= 100000; v++ {
		h.add(engine.Time(v) * engine.Nanosecond)
	}
	for _, q := range []float64{0.5, 0.99} {
		want := q * 100000 * float64(engine.Nanosecond) / float64(engine.Microsecond)
		if got := h.quantileUs(q); math.Abs(got-want)/want > 1.0/32 {
			t.Errorf("q%v = %v µs, want %v", q, got, want)
		}
	}
	if got, want := h.meanUs(), 50.0005; math.Abs(got-want) > 1e-9 {
		t.Errorf("mean %v, want %v", got, want)
	}
	for b := 0; b < 1800; b++ { // buckets and their values agree (up to 2^61 ps)
		if got := latBucket(engine.Time(latValue(b))); got != b {
			t.Fatalf("bucket %d's middle %v falls in bucket %d", b, latValue(b), got)
		}
	}
}

// TestOfferedLoadCountsABlockedSourcesArrivals: a source whose adapter
// last looked at it well before the end (a message rate of one message per
// 0.5 ms) still counts every arrival of the window as offered. The
// expectation replays the same sources' streams in a network that never
// runs.
func TestOfferedLoadCountsABlockedSourcesArrivals(t *testing.T) {
	ts := workload.TrafficSpec{Name: "p", Pattern: "neighbour", Arrival: "poisson", Load: 0.6, MessageSize: 4096}
	cfg := params.DefaultConfig()
	cfg.Phase, cfg.HCAMsgRate = 2*engine.Millisecond, 0.002
	sc := &workload.Scenario{Name: "ft", Phases: 1, Traffic: []workload.TrafficSpec{ts}, Routing: "ftree",
		Build: func(c *params.Config) (*fabric.Topology, error) {
			return fabric.GenerateTopology("fattree", fabric.TopoParams{K: 2, Levels: 2, HostGbps: 16, SwitchGbps: 16})
		}}
	n, err := NewNetwork(sc, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	n.RunUntil(n.End())
	got := n.Result().Stats.OfferedGbps
	replay, err := NewNetwork(sc, cfg, 5)
	if err != nil {
		t.Fatal(err)
	}
	var bytes int64
	for i := range replay.flows {
		g := replay.flows[i].gen
		g.winFrom = 0 // the window is the whole one-phase run
		g.start(replay.flows[i].start)
		g.pull(replay.End())
		bytes += g.offered
	}
	want := float64(bytes) * 8 / float64(replay.End()) * 1000
	if math.Abs(got-want) > 1e-9*want || want == 0 {
		t.Errorf("offered %.6f Gbit/s; the sources' streams give %.6f", got, want)
	}
}

// Hotspot traffic of mode "traffic": each sender's cold share goes to the
// hosts that are not hot, chosen per message, so its flow has no fixed
// destination ("*"); the hot share goes to the one hot host.
// Kills traffic.go's `add(s, -1, d, ...)` for the cold share turned into
// `+1` (a fixed destination, host 1).
func TestMutHotspotTrafficSharesHaveNoFixedDestination(t *testing.T) {
	sc := starScenario("hot", 6)
	sc.Traffic = []workload.TrafficSpec{{Name: "h", Pattern: "hotspot", HotspotMode: "traffic", HotNodes: 1,
		HotspotFraction: 0.5, Arrival: "poisson", Load: 0.2, MessageSize: 4096, SizeDist: "fixed"}}
	n, err := NewNetwork(sc, appConfig(engine.Millisecond), 1)
	if err != nil {
		t.Fatal(err)
	}
	hot, cold := 0, 0
	for i := range n.flows {
		f := &n.flows[i].spec
		if strings.HasSuffix(f.Name, ":hot") {
			hot++
			continue
		}
		cold++
		if f.Dst != "*" {
			t.Errorf("cold share %s from %s: destination %q, want * (drawn per message)", f.Name, f.Src, f.Dst)
		}
	}
	if hot != 5 || cold != 5 {
		t.Errorf("%d hot and %d cold shares, want 5 each (every host but the hot one sends both)", hot, cold)
	}
}

// TestMutHotspotNoneHot mirrors TestMutHotspotAllHot: with
// hotspot_fraction 0 every sender's whole load goes to the cold hosts, and
// no sender gets a hot part (a source of load 0 would be a flow of its own
// in the results). Kills traffic.go's hot part `f > 0` turned into `>=`.
func TestMutHotspotNoneHot(t *testing.T) {
	srcs := expandOn16(t, workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotspotMode: "traffic", HotNodes: 2, HotspotFraction: 0, Load: 0.5})
	if len(srcs) != 14 {
		t.Errorf("%d sources, want one per sender that is not hot (14)", len(srcs))
	}
	for _, s := range srcs {
		if s.load != 0.5 || strings.HasSuffix(s.name, ":hot") {
			t.Errorf("%s: load %v; want only cold sources with the whole load", s.name, s.load)
		}
	}
}

// TestMutHotspotEveryOtherHostHotNamesItsField: when a sender has no cold
// host to send its uniform part to, the error names the field the scenario
// set the hot nodes with: hot (a list) or hot_nodes (a count). Kills
// traffic.go's `len(ts.Hot) > 0` negated in that message.
func TestMutHotspotEveryOtherHostHotNamesItsField(t *testing.T) {
	names, index := hostList(3)
	for _, tc := range []struct {
		ts    workload.TrafficSpec
		field string
	}{
		{workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotspotMode: "traffic", Hot: []string{"H1", "H2"}, HotspotFraction: 0.5, Load: 0.5}, "hot"},
		{workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotspotMode: "traffic", HotNodes: 2, HotspotFraction: 0.5, Load: 0.5}, "hot_nodes"},
	} {
		_, err := expandTraffic(&tc.ts, names, index, nil)
		if err == nil || !strings.Contains(err.Error(), tc.field+": ") || !strings.Contains(err.Error(), "every other host is hot") {
			t.Errorf("hot %v, hot_nodes %d on 3 hosts: error %v; want it at %s", tc.ts.Hot, tc.ts.HotNodes, err, tc.field)
		}
	}
}

func expandOn16(t *testing.T, ts workload.TrafficSpec) []source {
	t.Helper()
	names, index := hostList(16)
	srcs, err := expandTraffic(&ts, names, index, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return srcs
}

// TestMutIncastFromEveryOtherHost checks an incast with no senders limit:
// every host but the target sends to it, in host order from the target's
// successor, the target itself not.
// Kills traffic.go's incast loop `j < n` turned into `<=` (the target
// sends to itself).
func TestMutIncastFromEveryOtherHost(t *testing.T) {
	srcs := expandOn16(t, workload.TrafficSpec{Name: "i", Pattern: "incast", Hot: []string{"H3"}})
	var hosts []int
	for _, s := range srcs {
		if s.dst != 2 {
			t.Errorf("%s sends to %d, want 2", s.name, s.dst)
		}
		hosts = append(hosts, s.host)
	}
	want := []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1}
	if !slices.Equal(hosts, want) {
		t.Errorf("senders %v, want %v", hosts, want)
	}
}

// TestMutShiftSendsToHostZero checks the shift pattern on 16 hosts: each
// host s sends to (s+8) mod 16 (TestPatternDestinations checks the rule),
// so host 8 to host 0, the first host.
// Kills traffic.go's `d >= 0` turned into `d > 0` (a destination of host 0
// dropped).
func TestMutShiftSendsToHostZero(t *testing.T) {
	srcs := expandOn16(t, workload.TrafficSpec{Name: "s", Pattern: "shift"})
	if len(srcs) != 16 {
		t.Fatalf("%d sources, want 16", len(srcs))
	}
	for _, s := range srcs {
		if s.dst != (s.host+8)%16 {
			t.Errorf("host %d sends to %d, want %d", s.host, s.dst, (s.host+8)%16)
		}
	}
}

// TestMutHotspotAllHot checks a hot-spot traffic (hotspot_mode traffic:
// each sender splits its load) whose whole load goes to
// the hot nodes (hotspot_fraction 1): no sender gets a cold part.
// Kills traffic.go's `f > 0` turned into `>=` (a cold source of load 0).
func TestMutHotspotAllHot(t *testing.T) {
	srcs := expandOn16(t, workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotspotMode: "traffic", HotNodes: 2, HotspotFraction: 1, Load: 0.5})
	for _, s := range srcs {
		if s.load <= 0 || s.role != workload.Contributor {
			t.Errorf("%s: load %v, role %v; want only contributors with load", s.name, s.load, s.role)
		}
	}
}
