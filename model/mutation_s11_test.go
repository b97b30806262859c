package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of session 11's measurement sample
// of model (seed 13, docs/testing.md "Sampled runs"), after its figure was
// recorded: they are not counted in it.

// A pingpong's latency statistics are over every ordered pair of ranks:
// with ranks 0 and 1 on H1 (shared memory) and rank 2 on H2, the minimum
// and maximum are the shared-memory pair's and a network pair's (here the
// network is the faster: 0.76 against 0.80 µs), each as the same pair
// measures alone.
// Kills app.go's `s == c` negated in the pingpong metrics (only the
// pairs (c, c) looked at: their slots hold pair (0, 1) alone).
func TestMutPingPongStatsOverEveryPair(t *testing.T) {
	c := appConfig(engine.Millisecond)
	lat := func(name string, hosts []string, ranks int) map[string]float64 {
		a := workload.DefaultApp(name, "pingpong")
		a.Hosts, a.Ranks, a.RanksPerHost, a.Iterations = hosts, ranks, 2, 4
		m, _ := runApps(t, starScenario(name, 2, a), c, 1)
		return m
	}
	shm := lat("shm", []string{"H1"}, 2)["shm_latency_mean_us"]
	net := workload.DefaultApp("net", "pingpong")
	net.Hosts, net.Iterations = []string{"H1", "H2"}, 4
	m2, _ := runApps(t, starScenario("net", 2, net), c, 1)
	wire := m2["net_latency_mean_us"]
	if math.Abs(shm-wire) < 0.02*wire {
		t.Fatalf("shared-memory pair %v us, network pair %v us: too close to tell apart", shm, wire)
	}
	m := lat("mix", []string{"H1", "H2"}, 3)
	within(t, "mix_latency_min_us", m["mix_latency_min_us"], min(shm, wire), 0.01)
	within(t, "mix_latency_max_us", m["mix_latency_max_us"], max(shm, wire), 0.01)
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

// An app's program is checked by its own kind: an allreduce with an
// unknown algorithm and a bcast whose root is not a rank are refused,
// naming the field.
// Kills app.go's `sp.Program == "allreduce"` and `sp.Program == "bcast"`
// negated in buildProgram's checks.
func TestMutAppProgramChecks(t *testing.T) {
	ar := workload.DefaultApp("ar", "allreduce")
	ar.Hosts, ar.Algorithm = []string{"H1", "H2"}, "tree"
	bc := workload.DefaultApp("bc", "bcast")
	bc.Hosts, bc.Root = []string{"H1", "H2"}, 2
	for _, c := range []struct {
		app   workload.AppSpec
		field string
	}{{ar, "algorithm"}, {bc, "root"}} {
		_, err := NewNetwork(starScenario("check", 2, c.app), appConfig(engine.Millisecond), 1)
		var ae *AppError
		if !errors.As(err, &ae) || !errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: err = %v, want an app error naming %s", c.app.Name, err, c.field)
		}
	}
}

// An on-off source starts with a burst: its first messages arrive back to
// back at line rate from the start. With mean bursts of 1 ms and 1 µs
// messages, the first ten come 1 µs apart (the first burst is shorter
// than 10 µs with probability 1 %; the seeds here draw longer ones).
// Kills generator.go's `g.burstEnd = t + ...` turned into `t - ...` (a
// first burst that ended before it began).
func TestMutOnOffStartsWithABurst(t *testing.T) {
	const start = engine.Time(5000)
	src := &source{dst: 1}
	for seed := uint64(1); seed <= 5; seed++ {
		// 4000 bytes at 32 Gbit/s (0.032 bit/ps) take exactly 1 µs.
		g := &generator{src: src, rng: rand.New(rand.NewPCG(seed, 1)), arrival: arriveOnOff, dist: sizeFixed,
			size: 4000, bitsPs: 0.032, load: 0.5, burst: float64(engine.Millisecond), nHosts: 2}
		g.start(start)
		g.pull(start + 9*engine.Microsecond)
		if g.n != 10 {
			t.Fatalf("seed %d: %d messages by 9 us after the start, want 10", seed, g.n)
		}
		for i := 0; i < g.n; i++ {
			if at := g.queue[(g.head+i)%len(g.queue)].at; at != start+engine.Time(i)*engine.Microsecond {
				t.Fatalf("seed %d: message %d arrives at %v, want %v", seed, i, at, start+engine.Time(i)*engine.Microsecond)
			}
		}
	}
}

// FormatBytes spells 1024 bytes as 1.0 KiB, 1023 as bytes.
// Kills work.go's `b < 1024` turned into `<=`.
func TestMutFormatBytesFirstKiB(t *testing.T) {
	for b, want := range map[int64]string{1023: "1023 B", 1024: "1.0 KiB", 0: "0 B"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", b, got, want)
		}
	}
}

// A receive overhead of zero costs no event: a pingpong with no receive
// overhead takes fewer events than the same with 1 ps of it (each of its
// receives then waits for an event of its own).
// Kills app.go's `o > 0` turned into `>=` for RecvOverhead in appStep.
func TestMutZeroRecvOverheadIsInline(t *testing.T) {
	events := func(recv engine.Time) uint64 {
		a := workload.DefaultApp("pp", "pingpong")
		a.Hosts, a.RecvOverhead = []string{"H1", "H2"}, recv
		_, r := runApps(t, starScenario("pp", 2, a), appConfig(engine.Millisecond), 1)
		return r.Events
	}
	if e0, e1 := events(0), events(1); e0 >= e1 {
		t.Errorf("pingpong with no receive overhead: %d events; with 1 ps: %d; want fewer without", e0, e1)
	}
}

// A flow that starts at the run's end (StartPhase = Phases) sends nothing
// in the window: it is neither a sender (sender_gbps) nor offered load.
// On a star, A from H1 runs throughout and B from H2 starts at the end.
// Kills stats.go's `f.start >= s.to` turned into `>`.
func TestMutFlowStartingAtTheEndIsNoSender(t *testing.T) {
	sc := starScenario("late", 3)
	sc.Flows = []workload.FlowSpec{
		{Name: "A", Src: "H1", Dst: "H3", Role: workload.Contributor},
		{Name: "B", Src: "H2", Dst: "H3", Role: workload.Contributor, StartPhase: 1},
	}
	cfg := appConfig(engine.Millisecond)
	r, err := Run(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.SenderGbps != cfg.HostLinkGbps || r.Stats.OfferedGbps != cfg.HostLinkGbps {
		t.Errorf("sender_gbps %v, offered %v; want one host link, %v, each (B starts at the end)", r.Stats.SenderGbps, r.Stats.OfferedGbps, cfg.HostLinkGbps)
	}
}
