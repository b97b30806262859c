package model

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// starScenario is hosts H1..Hn on one switch, running apps; phases of
// phase each.
func starScenario(name string, hosts int, apps ...workload.AppSpec) *workload.Scenario {
	return &workload.Scenario{Name: name, Phases: 1, Apps: apps, Build: func(c *params.Config) (*fabric.Topology, error) {
		t := &fabric.Topology{}
		s := t.AddSwitch("S1", hosts)
		for i := 1; i <= hosts; i++ {
			if err := t.Connect(t.AddHost(fmt.Sprintf("H%d", i)), s, c.HostLinkGbps); err != nil {
				return nil, err
			}
		}
		return t, nil
	}}
}

// appConfig is the default configuration with a short phase.
func appConfig(phase engine.Time) params.Config {
	c := params.DefaultConfig()
	c.Phase, c.Sample = phase, phase/10
	return c
}

// runApps runs sc and returns its apps' metrics by name.
func runApps(t *testing.T, sc *workload.Scenario, c params.Config, seed uint64) (map[string]float64, *Result) {
	t.Helper()
	res, err := Run(sc, c, seed)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]float64{}
	for _, a := range res.Apps {
		for _, x := range a.Metrics {
			m[x.Name] = x.Value
		}
	}
	return m, res
}

// oneWay is the closed form of a one-packet message's time through one
// switch on an idle network (docs/apps.md): the sender's overhead, the
// packet serialized once (virtual cut-through), two link propagation
// delays, the switch latency, the receiver's overhead. The receive DMA
// of a small payload ends before the tail arrives.
func oneWay(c params.Config, a workload.AppSpec, size int) float64 {
	wire := float64(max(size, 1) + c.HeaderBytes)
	ns := float64(a.SendOverhead+a.RecvOverhead+2*c.PropDelay+c.SwitchLatency)/1000 + wire*8/c.HostLinkGbps
	return ns / 1000 // µs
}

func within(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got/want-1) > tol {
		t.Errorf("%s = %.4g, want %.4g within %.0f %%", what, got, want, tol*100)
	} else {
		t.Logf("%s = %.4g (closed form %.4g)", what, got, want)
	}
}

// TestAppPingPongClosedForm checks ping-pong latency and bandwidth on an
// idle two-host network against the closed forms from the link, switch and
// adapter parameters.
func TestAppPingPongClosedForm(t *testing.T) {
	c := appConfig(20 * engine.Millisecond)
	lat := workload.DefaultApp("lat", "pingpong")
	lat.Hosts = []string{"H1", "H2"}
	bw := lat
	bw.Name, bw.Size, bw.Iterations, bw.After = "bw", 2_000_000, 2, "lat"
	m, _ := runApps(t, starScenario("pp", 2, lat, bw), c, 1)
	want := oneWay(c, lat, 8)
	for _, s := range []string{"min", "mean", "max"} {
		// The closed form is the model's exact path: hold it to 1 %.
		within(t, "lat_latency_"+s+"_us", m["lat_latency_"+s+"_us"], want, 0.01)
	}
	// 2 MB: 977 packets streamed at the slower of the host link's payload
	// rate and the adapter's I/O rate, behind the first packet's latency.
	payloadGbps := math.Min(c.HostIOGbps, c.HostLinkGbps*float64(c.MTU)/float64(c.MTU+c.HeaderBytes))
	oneWayUs := oneWay(c, bw, c.MTU) + 2e6*8/payloadGbps/1e3
	within(t, "bw_bandwidth_mean_mbps", m["bw_bandwidth_mean_mbps"], 2e6/oneWayUs, 0.05)
	within(t, "bw_bandwidth_min_mbps", m["bw_bandwidth_min_mbps"], 2e6/oneWayUs, 0.05)
}

// TestAppBarrierClosedForm checks a dissemination barrier of 8 ranks on
// one switch: ceil(log2 8) = 3 rounds of one one-way message each.
func TestAppBarrierClosedForm(t *testing.T) {
	c := appConfig(5 * engine.Millisecond)
	for _, n := range []int{2, 5, 8} {
		b := workload.DefaultApp("bar", "barrier")
		b.Iterations = 4
		b.Ranks = n
		m, _ := runApps(t, starScenario("bar", 8, b), c, 1)
		rounds := math.Ceil(math.Log2(float64(n)))
		within(t, fmt.Sprintf("%d ranks: bar_iteration_mean_us", n), m["bar_iteration_mean_us"], rounds*oneWay(c, b, 0), 0.01)
	}
}

// TestAppSharedMemory checks that two ranks on one host exchange messages
// through shared memory only: latency + size/bandwidth, and no flow.
func TestAppSharedMemory(t *testing.T) {
	c := appConfig(5 * engine.Millisecond)
	a := workload.DefaultApp("shm", "pingpong")
	a.Hosts, a.RanksPerHost, a.Size = []string{"H1"}, 2, 100_000
	m, res := runApps(t, starScenario("shm", 2, a), c, 1)
	want := float64(a.SendOverhead+a.SHMLatency+a.RecvOverhead)/1e6 + 100_000*8/a.SHMGbps/1e3
	within(t, "shm_latency_mean_us", m["shm_latency_mean_us"], want, 0.01)
	if len(res.Flows) != 0 {
		t.Errorf("%d flows, want none: ranks on one host do not use the network", len(res.Flows))
	}
}

// runTwoRankTrace runs the GOAL schedule goal as app name on hosts H1 and
// H2 of a star for 1 ms, the app changed by set if not nil, and returns
// the run's error.
func runTwoRankTrace(t *testing.T, name, goal string, set func(*workload.AppSpec)) error {
	t.Helper()
	tr, err := workload.ParseGOAL([]byte(goal))
	if err != nil {
		t.Fatal(err)
	}
	a := workload.DefaultApp(name, "trace")
	a.Trace, a.Hosts = tr, []string{"H1", "H2"}
	if set != nil {
		set(&a)
	}
	_, err = Run(starScenario(name, 2, a), appConfig(engine.Millisecond), 1)
	return err
}

// TestAppDeadlock checks that a program that never finishes ends the run
// with an error naming the rank and its operation.
func TestAppDeadlock(t *testing.T) {
	err := runTwoRankTrace(t, "dead", "num_ranks 2\nrank 0 {\nl1: recv 8b from 1\n}\nrank 1 {\nl1: calc 100\n}\n", nil)
	if !errors.Is(err, ErrAppUnfinished) || !strings.Contains(err.Error(), "rank 0 at operation 1 of 1, recv 8 B from rank 1") {
		t.Fatalf("err = %v, want ErrAppUnfinished naming rank 0's recv", err)
	}
}

// fatTreeApps is a 4-ary 2-tree (16 hosts, ftree routing) running apps.
func fatTreeApps(t *testing.T, apps ...workload.AppSpec) *workload.Scenario {
	t.Helper()
	sc, err := workload.ScenarioOf("ft-apps", workload.ScenarioSpec{Name: "ft-apps", Phases: 1, Topology: "fattree",
		Topo: fabric.TopoParams{K: 4, Levels: 2}, Routing: "ftree", Apps: apps})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestAppRingAllreduceClosedForm checks a ring all-reduce of 16 ranks on
// an idle fat tree against 2(n-1) steps of one chunk (size/n) each: the
// chunk at the payload rate plus the latency terms of the longest path
// (three switches) and the overheads.
func TestAppRingAllreduceClosedForm(t *testing.T) {
	c := appConfig(20 * engine.Millisecond)
	a := workload.DefaultApp("ar", "allreduce")
	a.Size, a.Iterations = 4<<20, 2
	m, _ := runApps(t, fatTreeApps(t, a), c, 1)
	n := 16.0
	chunk := float64(a.Size) / n
	payloadGbps := math.Min(c.HostIOGbps, c.HostLinkGbps*float64(c.MTU)/float64(c.MTU+c.HeaderBytes))
	// Three switches: one more switch latency and two more propagation
	// delays than oneWay's single switch.
	step := oneWay(c, a, c.MTU) + float64(c.SwitchLatency+2*c.PropDelay)/1e6 + chunk*8/payloadGbps/1e3
	within(t, "ar_iteration_mean_us", m["ar_iteration_mean_us"], 2*(n-1)*step, 0.05)
	within(t, "ar_op_latency_max_us", m["ar_op_latency_max_us"], 2*(n-1)*step, 0.05)
}

// TestAppCollectivesFinish runs every collective on the fat tree and checks
// what each must satisfy whatever the timing: every iteration measured, an
// iteration no shorter than its computation, op latency between min and max.
func TestAppCollectivesFinish(t *testing.T) {
	c := appConfig(5 * engine.Millisecond)
	var apps []workload.AppSpec
	for _, prog := range []string{"allreduce", "alltoall", "bcast", "barrier"} {
		a := workload.DefaultApp(prog, prog)
		a.Size, a.Iterations, a.Compute, a.Root = 4096, 3, 10*engine.Microsecond, 5
		if prog == "allreduce" {
			a.Algorithm = "rd"
		}
		apps = append(apps, a)
	}
	for i := 1; i < len(apps); i++ {
		apps[i].After = apps[i-1].Name
	}
	_, res := runApps(t, fatTreeApps(t, apps...), c, 1)
	for _, a := range res.Apps {
		if len(a.IterationUs) != 3 {
			t.Errorf("%s: %d iterations measured, want 3", a.Name, len(a.IterationUs))
		}
		for _, it := range a.IterationUs {
			if it < 10 {
				t.Errorf("%s: iteration of %.3g µs, shorter than its 10 µs computation", a.Name, it)
			}
		}
	}
}

// TestAppDeterministic checks that two runs with one seed agree exactly,
// including random rings, and that another seed draws other rings.
func TestAppDeterministic(t *testing.T) {
	c := appConfig(5 * engine.Millisecond)
	a := workload.DefaultApp("rr", "ring")
	a.Order, a.Patterns, a.Size, a.Iterations = "random", 3, 8, 4
	b := workload.DefaultApp("ar", "allreduce")
	b.Size, b.Iterations = 64<<10, 2
	sc := fatTreeApps(t, a, b)
	m1, r1 := runApps(t, sc, c, 7)
	m2, r2 := runApps(t, sc, c, 7)
	if fmt.Sprint(m1) != fmt.Sprint(m2) || r1.Events != r2.Events {
		t.Errorf("two runs of seed 7 differ:\n%v\n%v", m1, m2)
	}
	m3, _ := runApps(t, sc, c, 8)
	if m3["rr_latency_us"] == m1["rr_latency_us"] {
		t.Errorf("seeds 7 and 8 give the same random-ring latency %v: the rings do not depend on the seed", m1["rr_latency_us"])
	}
}

// TestAppNeverStarted checks that an app waiting for one that never ends
// is named with what it waits for.
func TestAppNeverStarted(t *testing.T) {
	tr, err := workload.ParseGOAL([]byte("num_ranks 2\nrank 0 {\nl1: recv 8b from 1\n}\nrank 1 {\n}\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := workload.DefaultApp("dead", "trace")
	a.Trace, a.Hosts = tr, []string{"H1", "H2"}
	b := workload.DefaultApp("next", "barrier")
	b.After = "dead"
	_, err = Run(starScenario("never", 2, a, b), appConfig(engine.Millisecond), 1)
	if !errors.Is(err, ErrAppUnfinished) || !strings.Contains(err.Error(), "app next never started (it waits for app dead)") {
		t.Fatalf("err = %v, want next named as waiting for dead", err)
	}
}

// TestAppUnfinishedNamesTheOperationInProgress: a rank that the run's end
// finds in a compute is named at that compute (not at the operation after
// it), and one in a send's overhead at that send, saying so. Rank 0
// computes 5 ms, then sends; rank 1 computes 1 ns, then waits for it; in
// a 1 ms run. With a 10 ms send overhead and a compute of 1 ns, rank 0 is
// in its send's overhead.
func TestAppUnfinishedNamesTheOperationInProgress(t *testing.T) {
	err := runTwoRankTrace(t, "late", "num_ranks 2\nrank 0 {\nl1: calc 5000000\nl2: send 8b to 1\nl2 requires l1\n}\nrank 1 {\nl1: calc 1\nl2: recv 8b from 0\nl2 requires l1\n}\n", nil)
	want := "rank 0 at operation 1 of 2, compute 5ms; rank 1 at operation 2 of 2, recv 8 B from rank 0"
	if !errors.Is(err, ErrAppUnfinished) || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to say %q", err, want)
	}
	err = runTwoRankTrace(t, "late", "num_ranks 2\nrank 0 {\nl1: calc 1\nl2: send 8b to 1\nl2 requires l1\n}\nrank 1 {\nl1: recv 8b from 0\n}\n",
		func(a *workload.AppSpec) { a.SendOverhead = 10 * engine.Millisecond })
	want = "rank 0 at operation 2 of 2, send 8 B to rank 1 (its overhead); rank 1 at operation 1 of 1, recv 8 B from rank 0"
	if !errors.Is(err, ErrAppUnfinished) || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want it to say %q", err, want)
	}
}

// A scenario holds at most 4095 apps (addApps' bound): 4096 are refused
// with their count, 4095 pass that check.
// Kills app.go's `len(specs) >= 1<<12` turned into `>`.
func TestMutAppCountBound(t *testing.T) {
	apps := func(n int) []workload.AppSpec {
		out := make([]workload.AppSpec, n)
		for i := range out {
			a := workload.DefaultApp(fmt.Sprintf("pp%d", i), "pingpong")
			a.Hosts, a.Iterations = []string{"H1", "H2"}, 1
			out[i] = a
		}
		return out
	}
	_, err := NewNetwork(starScenario("many", 2, apps(1<<12)...), appConfig(engine.Millisecond), 1)
	if !errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(err.Error(), "4096 apps; at most 4095") {
		t.Fatalf("4096 apps: err = %v, want the bad scenario's count, at most 4095", err)
	}
	if _, err := NewNetwork(starScenario("many", 2, apps(1<<12-1)...), appConfig(engine.Millisecond), 1); err != nil && strings.Contains(err.Error(), "at most 4095") {
		t.Fatalf("4095 apps refused by the count: %v", err)
	}
}

// TestMutMetricWordTakesDigits checks metricWord against its comment:
// lowercase letters, digits and '_', starting with a letter, at most 64
// bytes; "0" and "9" are digits like the others.
// Kills app.go:903 `c >= '0'` turned into `c > '0'`.
func TestMutMetricWordTakesDigits(t *testing.T) {
	for s, want := range map[string]bool{
		"a0": true, "a9": true, "a_5": true, "alltoall": true, "z": true,
		"0a": false, "A": false, "a-b": false, "": false, "a:": false, "a/": false,
		strings.Repeat("a", 64): true, strings.Repeat("a", 65): false,
	} {
		if got := metricWord(s); got != want {
			t.Errorf("metricWord(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestMutTraceRanksComeFromTheTrace runs the 4-rank dissemination barrier
// on a star of 6 hosts without naming hosts or ranks: a trace app with
// ranks 0 has the trace's num_ranks (docs/apps.md, "Traces"), so it runs
// as on 4 hosts (two rounds of one one-way message).
// Kills app.go:190 `sp.Program == "trace"` negated (the app then takes
// every host's ranks, 6, which the 4-rank trace does not have).
func TestMutTraceRanksComeFromTheTrace(t *testing.T) {
	tr, err := workload.ParseGOAL(goalFile(t, "dissemination4"))
	if err != nil {
		t.Fatal(err)
	}
	c := appConfig(engine.Millisecond)
	a := workload.DefaultApp("diss", "trace")
	a.Trace = tr
	m, _ := runApps(t, starScenario("diss6", 6, a), c, 1)
	within(t, "diss_completion_us", m["diss_completion_us"], 2*oneWay(c, a, 1), 0.01)
}

// A computation of zero length is no operation: a trace with `calc 0`
// before each send runs as the same trace without it, to the same event
// count and the same completion (the rank goes on at once, with no event
// of its own). Kills app.go's `op.dur > 0` turned into `>=` in appStep (a
// zero compute scheduled as an event at the same time).
func TestMutZeroComputeIsNoOperation(t *testing.T) {
	const plain = "num_ranks 2\nrank 0 {\ns1: send 8b to 1\ns2: send 64b to 1\ns2 requires s1\n}\n" +
		"rank 1 {\nr1: recv 8b from 0\nr2: recv 64b from 0\nr2 requires r1\n}\n"
	const zeros = "num_ranks 2\nrank 0 {\nc1: calc 0\ns1: send 8b to 1\nc2: calc 0\ns2: send 64b to 1\n" +
		"s1 requires c1\nc2 requires s1\ns2 requires c2\n}\n" +
		"rank 1 {\nr1: recv 8b from 0\nc3: calc 0\nr2: recv 64b from 0\nc3 requires r1\nr2 requires c3\n}\n"
	run := func(text string) (float64, uint64) {
		tr, err := workload.ParseGOAL([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		a := workload.DefaultApp("z", "trace")
		a.Trace, a.Hosts = tr, []string{"H1", "H2"}
		m, r := runApps(t, starScenario("z", 2, a), appConfig(engine.Millisecond), 1)
		return m["z_completion_us"], r.Events
	}
	c0, e0 := run(plain)
	c1, e1 := run(zeros)
	if c0 != c1 || e0 != e1 {
		t.Fatalf("with calc 0: completion %v us, %d events; without: %v us, %d events; want the same", c1, e1, c0, e0)
	}
}

// A result taken mid-run (Network.Result, as progress reports do) shows
// an app that has measured nothing yet as NaN: a pingpong and an
// allreduce looked at before their first iteration ends.
// Kills app.go's setStats `len(xs) > 0` turned into `>=` (the min of no
// values panics).
func TestMutAppResultBeforeAnyMeasurement(t *testing.T) {
	pp := workload.DefaultApp("pp", "pingpong")
	pp.Hosts = []string{"H1", "H2"}
	ar := workload.DefaultApp("ar", "allreduce")
	ar.Hosts = []string{"H3", "H4"}
	n, err := NewNetwork(starScenario("mid", 4, pp, ar), appConfig(engine.Millisecond), 1)
	if err != nil {
		t.Fatal(err)
	}
	n.RunUntil(100 * engine.Nanosecond) // not even a send overhead has passed
	for _, a := range n.Result().Apps {
		for _, m := range a.Metrics {
			if !math.IsNaN(m.Value) {
				t.Errorf("app %s at 100 ns: %s = %v, want NaN", a.Name, m.Name, m.Value)
			}
		}
		if len(a.Metrics) == 0 {
			t.Errorf("app %s has no metrics", a.Name)
		}
	}
}

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
