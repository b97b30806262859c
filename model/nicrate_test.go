package model

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestMaxMinShares checks the default requests on testbed-s1: the victim
// gets its host's whole 13 Gbit/s, the four contributors H5's 13 in
// quarters.
func TestMaxMinShares(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.CC.Scheme = params.SchemeNICRate
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{13, 3.25, 3.25, 3.25, 3.25}
	for i, w := range want {
		if got := n.nic.admittedGbps[i]; math.Abs(got-w) > 1e-9 {
			t.Errorf("F%d admitted at %g Gbit/s, want %g", i+1, got, w)
		}
	}
}

// rateScenario is testbed-s1's network with the given flows, all starting
// at once, over two phases (the second measured).
func rateScenario(flows ...workload.FlowSpec) *workload.Scenario {
	sc := *workload.LookupScenario("testbed-s1")
	sc.Name, sc.Phases, sc.Flows = "nicrate-test", 2, flows
	return &sc
}

// runRates runs sc under nicrate and returns each flow's throughput over
// the window and the result.
func runRates(t *testing.T, sc *workload.Scenario, set func(*params.Config)) ([]float64, *Result) {
	t.Helper()
	cfg := params.DefaultConfig()
	cfg.Phase = 20 * engine.Millisecond
	cfg.CC.Scheme = params.SchemeNICRate
	if set != nil {
		set(&cfg)
	}
	res, err := Run(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	from, to := res.Window()
	var g []float64
	for i := range res.Flows {
		g = append(g, res.MeanGbps(i, from, to))
	}
	return g, res
}

// TestSharesFollowInverseIDT checks reference 004's Fig. 12 claim: flows
// get bandwidth in inverse ratio of their IDT (in proportion to their
// requested rates), for two and three flows from one source and for two
// flows into one destination, each within 2 % of its admitted rate.
func TestSharesFollowInverseIDT(t *testing.T) {
	cases := []struct {
		name  string
		flows []workload.FlowSpec
	}{
		{"2 from one source", []workload.FlowSpec{
			{Name: "A", Src: "H1", Dst: "H4", Role: workload.Contributor, RateGbps: 3},
			{Name: "B", Src: "H1", Dst: "H5", Role: workload.Contributor, RateGbps: 6}}},
		{"3 from one source", []workload.FlowSpec{
			{Name: "A", Src: "H1", Dst: "H4", Role: workload.Contributor, RateGbps: 2},
			{Name: "B", Src: "H1", Dst: "H5", Role: workload.Contributor, RateGbps: 4},
			{Name: "C", Src: "H1", Dst: "H6", Role: workload.Contributor, RateGbps: 6}}},
		{"2 into one destination", []workload.FlowSpec{
			{Name: "A", Src: "H1", Dst: "H5", Role: workload.Contributor, RateGbps: 4},
			{Name: "B", Src: "H6", Dst: "H5", Role: workload.Contributor, RateGbps: 8}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, res := runRates(t, rateScenario(c.flows...), nil)
			m := res.Metrics()
			var req []float64
			for _, f := range c.flows {
				req = append(req, f.RateGbps)
			}
			t.Logf("throughput %.3f Gbit/s for requests %v; share_error %.4f", g, req, m.ShareError)
			for i, f := range c.flows {
				if err := math.Abs(g[i]/f.RateGbps - 1); err > 0.02 {
					t.Errorf("%s: %.3f Gbit/s for %g requested (%.1f %% off)", f.Name, g[i], f.RateGbps, 100*err)
				}
				if ratio, want := g[i]/g[0], f.RateGbps/c.flows[0].RateGbps; math.Abs(ratio/want-1) > 0.02 {
					t.Errorf("%s/%s throughput %.3f, want 1/IDT ratio %.3f within 2 %%", f.Name, c.flows[0].Name, ratio, want)
				}
			}
			if m.ShareError > 0.02 || m.RefusedFlows != 0 {
				t.Errorf("share_error %.4f, refused %d; want under 0.02 and none", m.ShareError, m.RefusedFlows)
			}
		})
	}
}

// TestRateControlCostsUnderOnePercent checks reference 004's overhead
// claim: a single flow under rate control, requesting its whole share,
// loses under 1 % of bandwidth on average over message sizes against no
// rate control.
func TestRateControlCostsUnderOnePercent(t *testing.T) {
	sc := rateScenario(workload.FlowSpec{Name: "A", Src: "H1", Dst: "H4", Role: workload.Contributor})
	var losses []float64
	for _, size := range []int{4 << 10, 16 << 10, 64 << 10, 256 << 10} {
		set := func(c *params.Config) { c.MessageSize = size }
		ctl, _ := runRates(t, sc, set)
		off, _ := runRates(t, sc, func(c *params.Config) { set(c); c.CC.Scheme = params.SchemeOff })
		loss := 1 - ctl[0]/off[0]
		t.Logf("%6d-byte messages: %.3f Gbit/s without rate control, %.3f with (%.2f %% lost)", size, off[0], ctl[0], 100*loss)
		losses = append(losses, loss)
	}
	if m := Mean(losses); m >= 0.01 {
		t.Errorf("mean bandwidth loss %.2f %% over message sizes, want under 1 %%", 100*m)
	}
}

// TestAdmissionRefusesOversubscription checks that a flow whose request
// would oversubscribe its destination is refused, never sends, and is
// counted, while the flows admitted before it keep their rates.
func TestAdmissionRefusesOversubscription(t *testing.T) {
	sc := rateScenario(
		workload.FlowSpec{Name: "A", Src: "H1", Dst: "H5", Role: workload.Contributor, RateGbps: 8},
		workload.FlowSpec{Name: "B", Src: "H2", Dst: "H5", Role: workload.Contributor, RateGbps: 8},
		workload.FlowSpec{Name: "C", Src: "H3", Dst: "H5", Role: workload.Contributor, RateGbps: 5},
	)
	g, res := runRates(t, sc, nil)
	var refused []string
	for _, f := range res.Flows {
		if f.Refused {
			refused = append(refused, f.Name)
		}
	}
	if !slices.Equal(refused, []string{"B"}) || res.Metrics().RefusedFlows != 1 {
		t.Fatalf("refused %v (metric %d), want [B]: 8 + 8 > H5's 13 Gbit/s, 8 + 5 fits", refused, res.Metrics().RefusedFlows)
	}
	if g[1] != 0 || math.Abs(g[0]/8-1) > 0.02 || math.Abs(g[2]/5-1) > 0.02 {
		t.Errorf("throughput %v, want 8, 0, 5", g)
	}
	// The rates list asks for the same when the scenario gives none.
	sc = rateScenario(
		workload.FlowSpec{Name: "A", Src: "H1", Dst: "H5", Role: workload.Contributor},
		workload.FlowSpec{Name: "B", Src: "H2", Dst: "H5", Role: workload.Contributor},
		workload.FlowSpec{Name: "C", Src: "H3", Dst: "H5", Role: workload.Contributor},
	)
	_, res2 := runRates(t, sc, func(c *params.Config) { c.NICRate.Rates = "8,8,5" })
	for i := range res.Flows {
		if a, b := res.Flows[i], res2.Flows[i]; a.Refused != b.Refused || a.AdmittedGbps != b.AdmittedGbps {
			t.Errorf("flow %s: scenario rates give %v/%g, nicrate.rates %v/%g", a.Name, a.Refused, a.AdmittedGbps, b.Refused, b.AdmittedGbps)
		}
	}
}

// TestNICRateTestbed checks nicrate on testbed-s1 with equal shares: the
// rates H5 can absorb leave no congestion, so the victim keeps its 13
// Gbit/s and every contributor gets its quarter of H5.
func TestNICRateTestbed(t *testing.T) {
	g, res := runRates(t, workload.LookupScenario("testbed-s1"), func(c *params.Config) { c.Phase = 10 * engine.Millisecond })
	want := []float64{13, 3.25, 3.25, 3.25, 3.25}
	for i, w := range want {
		if math.Abs(g[i]/w-1) > 0.02 {
			t.Errorf("F%d: %.3f Gbit/s, want %g within 2 %%", i+1, g[i], w)
		}
	}
	if m := res.Metrics(); m.ShareError > 0.02 {
		t.Errorf("share_error %.4f", m.ShareError)
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
