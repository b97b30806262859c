package model

import (
	"errors"
	"fmt"
	"math"
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
