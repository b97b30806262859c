package model

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of the 300-mutant sampled mutation
// run of model of session 10 (docs/testing.md, "Sampled runs").

// TestMutLatValueIsTheMiddleOfItsBucket checks latValue against the
// buckets latBucket makes, found by brute force over every latency up to
// 2^14 ps: a bucket holding one latency is exact, a wider one's value is
// the middle of the interval [lo, hi+1) its latencies cover.
// Kills stats.go's `b < 2*latSub` turned into `<=` (bucket 64 holds 64
// and 65 ps: its middle is 65, the mutant says 64).
func TestMutLatValueIsTheMiddleOfItsBucket(t *testing.T) {
	lo, hi := map[int]int{}, map[int]int{}
	for u := 0; u < 1<<14; u++ {
		b := latBucket(engine.Time(u))
		if _, ok := lo[b]; !ok {
			lo[b] = u
		}
		hi[b] = u
	}
	last := latBucket(1<<14 - 1) // may be cut short by the range: left out
	for b, l := range lo {
		if b == last {
			continue
		}
		want := float64(l)
		if hi[b] > l {
			want = float64(l+hi[b]+1) / 2
		}
		if got := latValue(b); got != want {
			t.Errorf("bucket %d holds %d-%d ps: latValue %v, want %v", b, l, hi[b], got, want)
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

// TestMutPingPongTokens checks the pingpong program's tokens: the next
// client waits for a token from the previous one, so n ranks pass n-1
// tokens (8 bytes each), client c-1 to client c, and the first client
// waits for none.
// Kills app.go's `prevClient := -1` turned into `+1` (a token from rank 1
// to rank 0 before the first pair).
func TestMutPingPongTokens(t *testing.T) {
	for _, n := range []int{2, 3, 5} {
		sp := workload.DefaultApp("pp", "pingpong")
		sp.Size, sp.Iterations = 64, 2
		prog, _, err := buildProgram(&sp, n, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		var tokens [][2]int32
		pings := 0
		for r, ops := range prog {
			for _, op := range ops {
				switch {
				case op.kind == opSend && op.arg == 8:
					tokens = append(tokens, [2]int32{int32(r), op.peer})
				case op.kind == opSend && op.arg == 64:
					pings++
				}
			}
		}
		var want [][2]int32
		for c := 1; c < n; c++ {
			want = append(want, [2]int32{int32(c - 1), int32(c)})
		}
		if !slices.Equal(tokens, want) {
			t.Errorf("%d ranks: tokens %v, want %v", n, tokens, want)
		}
		// Every ordered pair, a warm-up and 2 timed round trips of 2 messages.
		if want := n * (n - 1) * 3 * 2; pings != want {
			t.Errorf("%d ranks: %d messages of 64 bytes, want %d", n, pings, want)
		}
	}
}

// TestMutWindowStartsFromTheBuffersHeld checks that the window's largest
// switch buffer fill starts from what the switches' input buffers hold as
// it begins (stats.go's startWindow): a buffer already at its peak when the
// window starts and draining after it must count. A port's lane is the
// buffer at its far end (link.go counts credits at the sender), so the
// lanes of an HCA's port and of a switch port facing a switch are switch
// input buffers, and the lane of a switch port facing a host is the HCA's,
// not counted.
// Kills stats.go's `p.peer >= 0` negated (only unconnected ports read)
// and `!p.toHost` negated (the host-facing lane, the fullest, read).
func TestMutWindowStartsFromTheBuffersHeld(t *testing.T) {
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), params.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	sw, toHost, hca := -1, -1, -1
	for i := range n.ports {
		p := &n.ports[i]
		switch {
		case p.peer < 0:
		case p.host:
			hca = i
		case p.toHost:
			toHost = i
		case sw < 0:
			sw = i
		}
	}
	if sw < 0 || toHost < 0 || hca < 0 {
		t.Fatalf("testbed-s1 has no port of each kind: switch %d, to host %d, HCA %d", sw, toHost, hca)
	}
	n.lane(int32(sw), 0).used = 7
	n.lane(int32(hca), 0).used = 11
	n.lane(int32(toHost), 0).used = 13
	n.startWindow()
	if n.stats.maxBuf != 11 {
		t.Errorf("largest fill as the window starts = %d credits, want 11 (the leaf's input from the HCA)", n.stats.maxBuf)
	}
}

// TestMutAdaptiveChoiceOnEveryLeaf applies TestAdaptiveChoiceRule's first
// two steps on every leaf of hotUplink's fat tree, not only the first
// switch (whose ports are numbered from 0): towards a host on another
// leaf, an idle table port is kept, a busy one is left for an idle port of
// the group (the leaf's up ports).
// Kills routes.go's group membership test `table-sw.firstPort` turned into
// `table+sw.firstPort` (the same on a switch whose first port is 0; on the
// others the table port is not found in its group and adaptive routing
// never leaves it).
func TestMutAdaptiveChoiceOnEveryLeaf(t *testing.T) {
	n, _ := hotUplink(t, true, params.SchemeOff)
	leaves := 0
	for s := range n.sws {
		sw := &n.sws[s]
		hosted := false
		for o := sw.firstPort; o < sw.firstPort+sw.nPorts; o++ {
			hosted = hosted || n.ports[o].toHost
		}
		if !hosted {
			continue
		}
		leaves++
		lid := int32(-1)
		for l := int32(0); l < 16; l++ {
			if !n.ports[sw.out(l)].toHost {
				lid = l
				break
			}
		}
		if lid < 0 {
			t.Fatalf("switch %d reaches every host directly", s)
		}
		table := sw.out(lid)
		if got := n.adaptiveOut(int32(s), lid, table); got != table {
			t.Errorf("switch %d, LID %d, all idle: port %d, want the table's %d", s, lid, got-sw.firstPort+1, table-sw.firstPort+1)
		}
		n.ports[table].linkFree = engine.Microsecond
		got := n.adaptiveOut(int32(s), lid, table)
		if got == table || got < sw.firstPort || got >= sw.firstPort+sw.nPorts || n.ports[got].toHost {
			t.Errorf("switch %d, LID %d, table port %d busy: port %d, want another up port", s, lid, table-sw.firstPort+1, got-sw.firstPort+1)
		}
		n.ports[table].linkFree = 0
	}
	if leaves != 4 {
		t.Errorf("%d leaves, want 4", leaves)
	}
}

// TestMutMixedRateSwitchHasNoOneRate checks that a switch whose links run
// at different rates has no single link rate (rateMbps 0: cut-through is
// then timed from each output link, link.go), including when the odd
// link is the one to the fabric's first port (node 0, host H1, at
// 8 Gbit/s; H2 and H3 at 16), and that a switch whose links share one
// rate has it.
// Kills network.go's `p.peer < 0` turned into `<= 0` (the switch's port
// facing global port 0 left out of the comparison).
func TestMutMixedRateSwitchHasNoOneRate(t *testing.T) {
	for _, c := range []struct {
		h1Gbps float64
		want   int64
	}{{8, 0}, {16, 16000}} {
		sc := &workload.Scenario{Name: "mixed", Phases: 1, Flows: []workload.FlowSpec{{Name: "F", Src: "H2", Dst: "H1"}},
			Build: func(*params.Config) (*fabric.Topology, error) {
				tp := &fabric.Topology{}
				h1 := tp.AddHost("H1")
				s := tp.AddSwitch("S1", 3)
				if err := tp.Connect(h1, s, c.h1Gbps); err != nil {
					return nil, err
				}
				for _, h := range []string{"H2", "H3"} {
					if err := tp.Connect(tp.AddHost(h), s, 16); err != nil {
						return nil, err
					}
				}
				return tp, nil
			}}
		n, err := NewNetwork(sc, params.DefaultConfig(), 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := n.sws[0].rateMbps; got != c.want {
			t.Errorf("H1 at %g Gbit/s, the others at 16: the switch's one rate %d Mbit/s, want %d", c.h1Gbps, got, c.want)
		}
	}
}

// TestMutInspectLFTsScenario inspects a scenario routed by the tables a
// subnet manager computed (fabric's small ibnetdiscover fabric and its
// ibroute tables, as grids' TestScenarioRoutingFiles reads them from a
// scenario file): with no routing named, InspectScenario describes those
// tables (switch S1's link to S2 carries 12 routes); with a routing named,
// that routing's tables.
// Kills routes.go's `routing == ""` negated (the named routing ignored for
// the tables, and no routing named sent to an engine called "lfts").
func TestMutInspectLFTsScenario(t *testing.T) {
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	sc, err := workload.ScenarioOf("inspect-lfts", workload.ScenarioSpec{Name: "inspect-lfts", Phases: 1, Topology: "ibnetdiscover",
		Fabric: read("fabric/testdata/ibnetdiscover/small.txt"), FabricName: "small.txt",
		Routing: "lfts", LFTs: read("fabric/testdata/lfts/small-ibroute.txt"), LFTsName: "small-ibroute.txt",
		Traffic: []workload.TrafficSpec{{Name: "u", Pattern: "uniform", Arrival: "poisson", Load: 0.1}}})
	if err != nil {
		t.Fatal(err)
	}
	info, err := InspectScenario(sc, sc.Config(), "")
	if err != nil {
		t.Fatal(err)
	}
	if info.Routing != "lfts" || info.Balance.SwitchMax != 12 {
		t.Errorf("no routing named: routing %s, max %d; want lfts, 12", info.Routing, info.Balance.SwitchMax)
	}
	info, err = InspectScenario(sc, sc.Config(), "minhop")
	if err != nil {
		t.Fatal(err)
	}
	if info.Routing != "minhop" {
		t.Errorf("minhop named: routing %s", info.Routing)
	}
}

// TestMutHostIOIsTheLinkWhenNotGiven checks an HCA's DMA payload rate
// when neither host_io_gbps nor PCIe is given: its link's data rate
// (hostio.go's top: "own link's data rate: no cap beyond the link"), in
// Mbit/s as the link's.
// Kills hostio.go's `rateMbps) / 1000` turned into `* 1000` (a DMA a
// million times faster than the link).
func TestMutHostIOIsTheLinkWhenNotGiven(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.HostIOGbps, cfg.PCIeGen, cfg.PCIeLanes = 0, 0, 0
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for h := range n.hcas {
		if link := n.ports[n.hcas[h].port].rateMbps; n.hcas[h].ioMbps != link || link == 0 {
			t.Errorf("HCA %d: DMA at %d Mbit/s, link at %d", h, n.hcas[h].ioMbps, link)
		}
	}
}

// TestMutCheckWorkKeepsExactlyMaxSamples checks CheckWork's bound on the
// samples a run keeps: MaxSamples is the most a run may keep, so 10 flows
// sampled every µs for 1 s (10 × 10^6 = MaxSamples) pass and 11 flows are
// refused, naming the sample interval.
// Kills work.go's `w.Samples > MaxSamples` turned into `>=`.
func TestMutCheckWorkKeepsExactlyMaxSamples(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase, cfg.Sample = engine.Second, engine.Microsecond
	for _, flows := range []int{10, 11} {
		sc := starScenario(fmt.Sprint("max-samples-", flows), 2)
		for i := range flows {
			sc.Flows = append(sc.Flows, workload.FlowSpec{Name: fmt.Sprint("F", i), Src: "H1", Dst: "H2"})
		}
		w, err := CheckWork(sc, cfg, 0)
		if want := int64(flows) * 1_000_000; w.Samples != want {
			t.Fatalf("%d flows: %d samples, want %d", flows, w.Samples, want)
		}
		var pe *params.ParamError
		if refused := errors.As(err, &pe) && pe.Name == "sample"; refused != (flows == 11) {
			t.Errorf("%d flows, %d samples of at most %d: err = %v", flows, w.Samples, MaxSamples, err)
		}
	}
}

// TestMutRingAllreduceChunks checks the ring allreduce's program: each of
// its 2(n-1) steps sends a chunk of size/n rounded up to the right
// neighbour (1000 bytes over 3 ranks: 334).
// Kills app.go's `(size + n - 1) / n` turned into `(size - n - 1) / n`.
func TestMutRingAllreduceChunks(t *testing.T) {
	sp := workload.DefaultApp("ar", "allreduce")
	sp.Size, sp.Iterations, sp.Algorithm = 1000, 1, "ring"
	b := &progBuilder{n: 3, ops: make([][]appOp, 3)}
	b.collective(&sp)
	for r, ops := range b.ops {
		sends := 0
		for _, op := range ops {
			if op.kind != opSend {
				continue
			}
			sends++
			if op.peer != int32((r+1)%3) || op.arg != 334 {
				t.Errorf("rank %d sends %d bytes to %d, want 334 to %d", r, op.arg, op.peer, (r+1)%3)
			}
		}
		if sends != 4 {
			t.Errorf("rank %d: %d sends, want 2(n-1) = 4", r, sends)
		}
	}
}

// TestMutBcastIsATree checks the bcast program (a binomial tree from the
// root) on rank counts that are powers of two and not, from root 0 (the
// default) and another root: every rank but the root receives once, the
// root never, and each send is matched by the receiver's receive from
// that sender: n-1 messages in all.
// Kills app.go's `sp.Root < 0` turned into `<=` (root 0 refused) and
// `vr+mask < n` turned into `vr-mask < n` (sends past the last rank wrap
// round to ranks that expect nothing).
func TestMutBcastIsATree(t *testing.T) {
	for _, n := range []int{2, 3, 5, 6, 8} {
		for _, root := range []int{0, n - 1} {
			sp := workload.DefaultApp("bc", "bcast")
			sp.Size, sp.Iterations, sp.Root = 64, 1, root
			prog, _, err := buildProgram(&sp, n, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				t.Fatalf("%d ranks, root %d: %v", n, root, err)
			}
			sends := map[[2]int32]int{}
			recvs := map[[2]int32]int{}
			recvd := make([]int, n)
			for r, ops := range prog {
				for _, op := range ops {
					if op.arg != 64 {
						continue // the barrier's messages
					}
					switch op.kind {
					case opSend:
						sends[[2]int32{int32(r), op.peer}]++
					case opRecv:
						recvs[[2]int32{op.peer, int32(r)}]++
						recvd[r]++
					}
				}
			}
			for r, c := range recvd {
				if want := map[bool]int{true: 0, false: 1}[r == root]; c != want {
					t.Errorf("%d ranks, root %d: rank %d receives %d times, want %d", n, root, r, c, want)
				}
			}
			if !maps.Equal(sends, recvs) || len(sends) != n-1 {
				t.Errorf("%d ranks, root %d: sends %v, receives %v; want the same n-1", n, root, sends, recvs)
			}
		}
	}
}

// TestMutAllreduceRDNeedsAPowerOfTwo checks that recursive doubling on 3
// ranks is refused (its partner r XOR 2^k would be rank 3), and that the
// rule is the allreduce's: another program given algorithm rd on 3 ranks
// is built.
// Kills app.go's `sp.Program == "allreduce"` negated in that check.
func TestMutAllreduceRDNeedsAPowerOfTwo(t *testing.T) {
	sp := workload.DefaultApp("ar", "allreduce")
	sp.Algorithm = "rd"
	if _, _, err := buildProgram(&sp, 3, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "power of two") {
		t.Errorf("allreduce rd on 3 ranks: err = %v, want a power of two asked for", err)
	}
	bar := workload.DefaultApp("b", "barrier")
	bar.Algorithm = "rd"
	if _, _, err := buildProgram(&bar, 3, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Errorf("barrier (algorithm rd ignored) on 3 ranks: %v", err)
	}
}

// TestMutShapeMeanLinks checks the work estimate's mean shortest path
// between hosts on a star of 4 hosts: every host is 2 links from every
// other (host, switch, host), so the mean is 2.
// Kills work.go's sampling loop `j < min(16, len(hosts))` negated (no host
// sampled: 0) and `dist[h] > 0` negated (the source itself counted, the
// others not).
func TestMutShapeMeanLinks(t *testing.T) {
	sc := starScenario("shape-star", 4)
	cfg := params.DefaultConfig()
	sh, err := shapeOf(sc, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if sh.hosts != 4 || sh.meanLinks != 2 {
		t.Errorf("star of 4 hosts: %d hosts, mean path %v links; want 4, 2", sh.hosts, sh.meanLinks)
	}
}

// TestMutNICRateLinkCapacity checks nicrate's capacity of a host when its
// link bounds it (host_io_gbps 0): the link's payload rate for MTU
// packets, 16 Gbit/s × 2048 / (2048 + 26) on testbed-s1.
// Kills nicrate.go's `rateMbps)/1000*payload` turned into `*1000*payload`
// (the link's bound lost).
func TestMutNICRateLinkCapacity(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.HostIOGbps = 0
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, capacity := n.nicResources()
	want := 16 * float64(cfg.MTU) / float64(cfg.MTU+cfg.HeaderBytes)
	for h := range n.hcas {
		for _, c := range []float64{capacity[h], capacity[len(n.hcas)+h]} {
			if math.Abs(c-want) > 1e-9 {
				t.Errorf("host %d: capacity %v Gbit/s, want %v", h, c, want)
			}
		}
	}
}

// TestMutAppRanksGiven checks an app's rank count: ranks when given
// (2 of 4 hosts), else one per host and ranks_per_host (4).
// Kills app.go's `ar.n == 0` negated.
func TestMutAppRanksGiven(t *testing.T) {
	for _, c := range []struct{ ranks, want int }{{2, 2}, {0, 4}} {
		a := workload.DefaultApp("pp", "pingpong")
		a.Hosts, a.Iterations, a.Ranks = []string{"H1", "H2", "H3", "H4"}, 1, c.ranks
		n, err := NewNetwork(starScenario(fmt.Sprint("ranks-", c.ranks), 4, a), appConfig(engine.Millisecond), 1)
		if err != nil {
			t.Fatal(err)
		}
		if got := n.apps.list[0].n; got != c.want {
			t.Errorf("ranks %d on 4 hosts: %d ranks, want %d", c.ranks, got, c.want)
		}
	}
}

// TestMutQuantileOfMany checks quantile's rule, the smallest value with
// at least q of the values at or below it: of 1..100, the 0.99-quantile is
// 99 and the 0.5-quantile 50.
// Kills app.go's `q*float64(len(s))` turned into `q/float64(len(s))`.
func TestMutQuantileOfMany(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[len(xs)-1-i] = float64(i + 1) // unsorted
	}
	for q, want := range map[float64]float64{0.99: 99, 0.5: 50, 1: 100} {
		if got := quantile(xs, q); got != want {
			t.Errorf("quantile(1..100, %v) = %v, want %v", q, got, want)
		}
	}
}

// TestMutCompletionFromTheAppsStart checks an app's completion time is
// counted from its own start: the same pingpong run after another (After)
// on an otherwise idle star takes the same time as the first, within 1 %.
// Kills app.go's `last - ap.start` turned into `last + ap.start`.
func TestMutCompletionFromTheAppsStart(t *testing.T) {
	first := workload.DefaultApp("first", "pingpong")
	first.Hosts, first.Iterations = []string{"H1", "H2"}, 3
	second := first
	second.Name, second.After = "second", "first"
	m, _ := runApps(t, starScenario("after", 2, first, second), appConfig(5*engine.Millisecond), 1)
	a, b := m["first_completion_us"], m["second_completion_us"]
	if !(a > 0) || !(math.Abs(b-a) <= 0.01*a) {
		t.Errorf("completion: first %v µs, second (after it) %v µs; want the same", a, b)
	}
}

// TestMutUniformSizesStayInRange checks the uniform message size
// distribution of mean s: whole sizes 1 to 2s-1 (docs/scenarios.md), every
// one drawn.
// Kills generator.go's `2*g.size-1` turned into `2*g.size+1` (sizes up to
// 2s+1, mean s+1).
func TestMutUniformSizesStayInRange(t *testing.T) {
	g := &generator{dist: sizeUniform, size: 3, rng: rand.New(rand.NewPCG(1, 2))}
	seen := map[int32]int{}
	for range 10_000 {
		seen[g.drawSize()]++
	}
	for v := range seen {
		if v < 1 || v > 5 {
			t.Errorf("size %d drawn, outside 1..5", v)
		}
	}
	for v := int32(1); v <= 5; v++ {
		if seen[v] == 0 {
			t.Errorf("size %d never drawn in 10 000", v)
		}
	}
}

// TestMutRingOrderChoices checks the ring program's order: natural,
// random or empty (natural) are built, anything else refused.
// Kills app.go's `sp.Order != ""` negated (empty refused, others taken).
func TestMutRingOrderChoices(t *testing.T) {
	for order, ok := range map[string]bool{"natural": true, "random": true, "": true, "reversed": false} {
		sp := workload.DefaultApp("r", "ring")
		sp.Order = order
		_, _, err := buildProgram(&sp, 4, rand.New(rand.NewPCG(1, 2)))
		if (err == nil) != ok {
			t.Errorf("ring order %q: err = %v, want accepted %v", order, err, ok)
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

// TestMutFormatBytesUnitBoundary checks FormatBytes at a unit's first
// value: 1024 KiB is "1.0 MiB", not "1024.0 KiB".
// Kills work.go's `v >= 1024` turned into `>`.
func TestMutFormatBytesUnitBoundary(t *testing.T) {
	for b, want := range map[int64]string{1 << 20: "1.0 MiB", 1 << 30: "1.0 GiB", 1<<20 - 1<<10: "1023.0 KiB"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", b, got, want)
		}
	}
}

// TestMutFixedDestinationNamed checks the flows a fixed-destination
// pattern makes name their destination host, host 0 too: shift on a star
// of 4 hosts sends H3 to H1.
// Kills network.go's `s.dst >= 0` turned into `>` (host 0 named "*", a
// random destination).
func TestMutFixedDestinationNamed(t *testing.T) {
	sc := starScenario("shift-named", 4)
	sc.Traffic = []workload.TrafficSpec{{Name: "s", Pattern: "shift", Arrival: "saturate"}}
	n, err := NewNetwork(sc, params.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	dst := map[string]string{}
	for i := range n.flows {
		dst[n.flows[i].spec.Src] = n.flows[i].spec.Dst
	}
	want := map[string]string{"H1": "H3", "H2": "H4", "H3": "H1", "H4": "H2"}
	if !maps.Equal(dst, want) {
		t.Errorf("destinations %v, want %v", dst, want)
	}
}
