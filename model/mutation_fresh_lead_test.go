package model

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of session 10's fresh 150-mutant
// sample of model (seed 7; docs/testing.md, "A fresh sample of model").

// TestMutFifoKeepsItsOrderAcrossGrowth fills a fifo, wraps it (pops three,
// pushes three), then makes it grow while wrapped: every value comes out
// in the order it went in, as a FIFO's must.
// Kills fifo.go:36 `q.head+i` turned into `q.head-i` (the copy made when
// growing reads the ring backwards).
func TestMutFifoKeepsItsOrderAcrossGrowth(t *testing.T) {
	var q fifo
	var want []int32
	next := int32(0)
	push := func(k int) {
		for range k {
			q.push(next)
			want = append(want, next)
			next++
		}
	}
	push(8) // the first buffer, full
	for range 3 {
		if got := q.pop(); got != want[0] {
			t.Fatalf("pop %d, want %d", got, want[0])
		}
		want = want[1:]
	}
	push(3)  // wraps round the full buffer
	push(10) // grows it twice while wrapped
	for len(want) > 0 {
		if got := q.pop(); got != want[0] {
			t.Fatalf("pop %d, want %d (fifo order lost when the ring grew)", got, want[0])
		}
		want = want[1:]
	}
	if q.len() != 0 {
		t.Errorf("%d left", q.len())
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

// TestMutTooManySamplesNamesTheFlows checks the message CheckWork gives
// when a run would keep too many samples: it names the flows sampled (11),
// the interval and the length, as docs/guarantees.md's bounded memory
// says a refusal must name what to change.
// Kills work.go:122 `w.Samples/max(...)` turned into `*` (the flow count
// in the message).
func TestMutTooManySamplesNamesTheFlows(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase, cfg.Sample = engine.Second, engine.Microsecond
	sc := starScenario("too-many-samples", 2)
	for i := range 11 {
		sc.Flows = append(sc.Flows, workload.FlowSpec{Name: "F" + string(rune('a'+i)), Src: "H1", Dst: "H2"})
	}
	_, err := CheckWork(sc, cfg, 0)
	var pe *params.ParamError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a ParamError", err)
	}
	if !strings.Contains(err.Error(), "11 flows sampled every 1us for 1s keep 11000000 samples") {
		t.Errorf("message %q does not name 11 flows sampled every 1us for 1s", err)
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

// TestMutDeadlockDeclaredAtExactlyTheWindow checks the watch's rule as
// deadlockWindow's comment states it: a flow with payload in the network
// none of which reached the destination for the window is deadlocked;
// for one picosecond less it is not. The run's clock stays at 0; the
// flow's last progress is set at -window and -window+1 ps.
// The error names the payload still in the network: sent less delivered.
// Kills deadlock.go:80 `now-w.since[i] >= n.deadlockWindow()` turned
// into `>`, and deadlock.go:82's `f.sent-b` turned into `+`.
func TestMutDeadlockDeclaredAtExactlyTheWindow(t *testing.T) {
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), params.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	n.allowDeadlock = true
	n.flows[0].sent, n.flows[0].delivered = 3072, 1024 // 2048 B in the network, none of it delivered since
	window := n.deadlockWindow()
	for _, c := range []struct {
		since engine.Time
		dead  bool
	}{{-window + 1, false}, {-window, true}} {
		w := &progressWatch{reached: make([]int64, len(n.flows)), since: make([]engine.Time, len(n.flows))}
		w.reached[0], w.since[0] = 1024, c.since
		err := n.deadlocked(w)
		if got := errors.Is(err, ErrDeadlock); got != c.dead {
			t.Errorf("no delivery for %v of a %v window: deadlocked %v (%v), want %v", -c.since, window, got, err, c.dead)
		}
		if c.dead && !strings.Contains(fmt.Sprint(err), " has 2048 payload bytes in the network and none reached ") {
			t.Errorf("err = %v, want it to name the 2048 payload bytes in the network", err)
		}
	}
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

// A requester asks for an ACK on every ack_req_packets-th packet of a
// message, counted from the message's start, and on its last packet
// (transport.go's ackRequested, hca.go's packet index): with messages of
// five MTU packets and ack_req_packets 4, packets 4 and 5 of each message
// ask, and no other. (With 32-packet messages and 16, the test above,
// counting from the message's end asks on the same packets.)
// Kills hca.go's `f.msgSize-f.msgLeft` turned into `+` (packets 2 and 5).
func TestMutAckRequestsCountFromTheMessageStart(t *testing.T) {
	n := ccNetwork(t, map[string]any{"ack_req_packets": int64(4), "message_size": int64(5 * 2048), "mtu": int64(2048)})
	h4 := hostPort(t, n, "H4")
	var asked []int // packet numbers within their message, in arrival order
	seen := 0
	before := func(e engine.Event) {
		if e.Kind != evArrive {
			return
		}
		if pk := &n.pkts[e.Arg]; pk.kind == kindData && pk.flow == 0 && pk.inPort == h4 {
			seen++
			if pk.ackReq {
				asked = append(asked, (seen-1)%5+1)
			}
		}
	}
	runHooked(n, 100*engine.Microsecond, before, nil)
	if seen < 15 {
		t.Fatalf("only %d packets of F1 reached H4", seen)
	}
	for i, p := range asked {
		if p != 4+i%2 {
			t.Fatalf("packets asking for an ACK, by number within their message: %v; want 4, 5, 4, 5, ...", asked)
		}
	}
	if len(asked) != 2*(seen/5)+min(seen%5/4, 1) {
		t.Fatalf("%d packets asked for an ACK of %d that arrived: %v", len(asked), seen, asked)
	}
}

// The busiest link is found among every connected port, the one whose
// peer is global port 0 included: on a star whose switch comes first (its
// port 0 faces H1), H1 sends greedily to H2 and H3, so H1's link carries
// both flows and each switch port to H2 or H3 one of them. max_link_util
// is then at least the two flows' payload over H1's link rate (headers
// come on top); the links to H2 and H3 carry about half of that.
// Kills stats.go's `p.peer < 0` turned into `<=` (H1's link left out).
func TestMutBusiestLinkMayFacePortZero(t *testing.T) {
	sc := starScenario("two-out", 3)
	sc.Flows = []workload.FlowSpec{
		{Name: "A", Src: "H1", Dst: "H2", Role: workload.Contributor},
		{Name: "B", Src: "H1", Dst: "H3", Role: workload.Contributor},
	}
	cfg := appConfig(engine.Millisecond)
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if h1 := n.hcas[0].port; n.ports[h1].peer != 0 {
		t.Fatalf("H1's port faces global port %d, not 0: the test no longer covers the port facing port 0", n.ports[h1].peer)
	}
	r, err := Run(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	from, to := r.Window()
	payload := r.MeanGbps(0, from, to) + r.MeanGbps(1, from, to)
	if want := payload / cfg.HostLinkGbps; r.Stats.MaxLinkUtil < want || want < 0.5 {
		t.Fatalf("max_link_util %v; want at least the flows' %v Gbit/s over H1's %v Gbit/s link, %v", r.Stats.MaxLinkUtil, payload, cfg.HostLinkGbps, want)
	}
}

// nicrate traces each flow's path through the forwarding tables; a table
// that loops (a routing bug, never a routed fabric's) must not hang the
// trace: it stops after as many hops as the fabric has ports. Here the
// last switch before F1's destination forwards F1's LID back up, so the
// path goes round between the two switches.
// Kills nicrate.go's hop guard `hop++` turned into `--` (the trace never
// ends: the test times out).
func TestMutNICPathTraceStopsOnALoop(t *testing.T) {
	n := ccNetwork(t, map[string]any{"cc": "nicrate"})
	f := &n.flows[0]
	last := &n.sws[n.ports[n.ports[n.hcas[f.dst].port].peer].owner] // the switch F1's destination hangs off
	if last.lft == nil {
		t.Fatal("the testbed's switches have no forwarding table")
	}
	up := int32(-1)
	for l := int32(0); l < last.nPorts; l++ {
		if p := n.ports[last.firstPort+l].peer; p >= 0 && !n.ports[p].host {
			up = l
		}
	}
	if up < 0 {
		t.Fatal("the destination's switch has no link to another switch")
	}
	last.lft[f.dlid] = uint8(up)
	done := make(chan []int, 1)
	go func() {
		paths, _ := n.nicResources()
		done <- paths[0]
	}()
	select {
	case path := <-done:
		if want := 2 + len(n.ports) + 1; len(path) != want {
			t.Fatalf("a looping path of %d resources, want 2 + one per hop up to %d ports + 1 = %d", len(path), len(n.ports), want)
		}
	case <-time.After(2 * time.Second): // it takes microseconds; an endless trace grows its path by gigabytes a minute
		t.Fatal("the path trace of a looping forwarding table has not ended after 2 s")
	}
}

// A flow may start or end at node 0: on a fabric whose first node is a
// host, the work estimate finds the flow's hosts like any others.
// Kills work.go's `src < 0 || dst < 0` turned into `src <= 0` (and dst
// likewise): a host at node 0 taken for a missing one.
func TestMutWorkFindsAHostAtNodeZero(t *testing.T) {
	for _, flow := range [][2]string{{"H1", "H2"}, {"H2", "H1"}} {
		sc := &workload.Scenario{Name: fmt.Sprintf("host-first-%s", flow[0]), Phases: 1,
			Build: func(c *params.Config) (*fabric.Topology, error) {
				t := &fabric.Topology{}
				h1 := t.AddHost("H1") // node 0
				s := t.AddSwitch("S1", 2)
				h2 := t.AddHost("H2")
				if err := t.Connect(h1, s, c.HostLinkGbps); err != nil {
					return nil, err
				}
				return t, t.Connect(h2, s, c.HostLinkGbps)
			},
			Flows: []workload.FlowSpec{{Name: "F", Src: flow[0], Dst: flow[1], Role: workload.Contributor}}}
		if _, err := EstimateWork(sc, appConfig(engine.Millisecond)); err != nil {
			t.Errorf("flow %s to %s, H1 at node 0: %v", flow[0], flow[1], err)
		}
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

// The window's largest switch buffer fill starts from what the switches'
// input buffers hold when the window begins, the buffer behind every
// port that faces a switch (the one facing global port 0 included) and
// no adapter's buffer: on a star whose switch comes first, H1's port faces
// port 0; its buffer at S1 holds 5 credits, S1's port to H2 says 9 are
// used at H2's adapter, every other buffer 1.
// Kills stats.go's `p.peer >= 0` turned into `> 0` in startWindow (H1's
// buffer left out); `!p.toHost` negated takes H2's adapter's 9.
func TestMutWindowStartsFromTheSwitchBuffers(t *testing.T) {
	sc := starScenario("fill", 3)
	sc.Flows = []workload.FlowSpec{{Name: "A", Src: "H1", Dst: "H2", Role: workload.Contributor}}
	n, err := NewNetwork(sc, appConfig(engine.Millisecond), 1)
	if err != nil {
		t.Fatal(err)
	}
	h1, h2 := n.hcas[0].port, n.hcas[1].port
	if n.ports[h1].peer != 0 {
		t.Fatalf("H1's port faces global port %d, not 0", n.ports[h1].peer)
	}
	for p := range n.ports {
		n.lane(int32(p), 0).used = 1
	}
	n.lane(h1, 0).used = 5
	n.lane(n.ports[h2].peer, 0).used = 9 // S1's port to H2: H2's adapter's buffer
	n.startWindow()
	if n.stats.maxBuf != 5 {
		t.Fatalf("largest switch buffer fill at the window's start: %d credits, want H1's 5", n.stats.maxBuf)
	}
}

// A switch may have fabric.MaxSwitchPorts ports, not one more: a star of
// 254 hosts builds, one of 255 is refused naming the bound.
// Kills routes.go's `sw.nPorts > fabric.MaxSwitchPorts` turned into `>=`.
func TestMutSwitchPortBound(t *testing.T) {
	for _, hosts := range []int{fabric.MaxSwitchPorts, fabric.MaxSwitchPorts + 1} {
		sc := starScenario(fmt.Sprintf("star%d", hosts), hosts)
		sc.Flows = []workload.FlowSpec{{Name: "A", Src: "H1", Dst: "H2", Role: workload.Contributor}}
		_, err := NewNetwork(sc, appConfig(engine.Millisecond), 1)
		if hosts == fabric.MaxSwitchPorts && err != nil {
			t.Errorf("a switch of %d ports: %v", hosts, err)
		}
		if hosts > fabric.MaxSwitchPorts && (!errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(fmt.Sprint(err), fmt.Sprintf("at most %d", fabric.MaxSwitchPorts))) {
			t.Errorf("a switch of %d ports: err = %v, want a bad scenario naming the bound", hosts, err)
		}
	}
}
