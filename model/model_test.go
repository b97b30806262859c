package model_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// phaseMeans returns every flow's mean throughput in each phase, skipping the
// first fifth of the phase while the network settles.
func phaseMeans(r *model.Result, phase engine.Time, phases int) [][]float64 {
	out := make([][]float64, phases)
	for ph := range out {
		from := engine.Time(ph)*phase + phase/5
		to := engine.Time(ph+1) * phase
		for i := range r.Flows {
			out[ph] = append(out[ph], r.MeanGbps(i, from, to))
		}
	}
	return out
}

func within(got, want, tol float64) bool { return math.Abs(got-want) <= tol*want }

// The CC-off column of SPEC §3: what the testbed measured, phase by phase.
var testbedS1CCOff = [][]float64{
	{13, 0, 0, 0, 0},
	{13, 13, 0, 0, 0},
	{7, 7, 7, 0, 0}, // "just below 7": HOL blocking makes F1 a victim
	{3.3, 3.3, 3.3, 7, 0},
	{2, 2, 2, 4.5, 4.5},
}

func TestTestbedS1CCOffMatchesPublishedTable(t *testing.T) {
	for _, phase := range []engine.Time{200 * engine.Millisecond, engine.Second} {
		t.Run(phase.String(), func(t *testing.T) {
			if phase == engine.Second && testing.Short() {
				t.Skip("full-length run skipped in -short mode")
			}
			cfg := params.DefaultConfig()
			cfg.Phase = phase
			r, err := model.Run(workload.LookupScenario("testbed-s1"), cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			got := phaseMeans(r, phase, 5)
			for ph, want := range testbedS1CCOff {
				for f, w := range want {
					g := got[ph][f]
					if w == 0 && g != 0 {
						t.Errorf("phase %d: %s = %.2f Gbit/s before it started", ph+1, r.Flows[f].Name, g)
					}
					if w > 0 && !within(g, w, 0.10) {
						t.Errorf("phase %d: %s = %.2f Gbit/s, published %.1f (±10%%)", ph+1, r.Flows[f].Name, g, w)
					}
				}
			}
			// Phase 3: the victim is dragged down to the contributors' level.
			if got[2][0] > 7 {
				t.Errorf("phase 3: victim F1 = %.2f, want HOL-blocked below 7", got[2][0])
			}
		})
	}
}

func TestTestbedS2CCOffSharesSwitchLinkEvenly(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase = 200 * engine.Millisecond
	r, err := model.Run(workload.LookupScenario("testbed-s2"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	got := phaseMeans(r, cfg.Phase, 3)
	// The 32 Gbit/s S1-S2 link carries 2048-byte payloads in 2074-byte packets.
	share := 32 * 2048.0 / 2074 / 3
	for f := 0; f < 3; f++ {
		if !within(got[2][f], share, 0.02) {
			t.Errorf("phase 3: %s = %.3f Gbit/s, want an even share %.3f", r.Flows[f].Name, got[2][f], share)
		}
	}
	if !within(got[1][0], 13, 0.01) || !within(got[1][1], 13, 0.01) {
		t.Errorf("phase 2: F1, F2 = %.2f, %.2f; want 13 each (host I/O bound)", got[1][0], got[1][1])
	}
	m := r.Metrics()
	if m.FairnessJain < 0.999 {
		t.Errorf("Jain = %.4f, want ~1", m.FairnessJain)
	}
	if m.SDGbps > 0.05*share {
		t.Errorf("per-flow jitter %.3f Gbit/s: not steady", m.SDGbps)
	}
}

// pair is a two-host, one-or-two-switch topology for closed-form checks.
func lineScenario(nSources, switches int) *workload.Scenario {
	sc := &workload.Scenario{Name: "line", Phases: 2}
	sc.Build = func(c *params.Config) (*fabric.Topology, error) {
		t := &fabric.Topology{}
		s1 := t.AddSwitch("S1", 8)
		last := s1
		if switches == 2 {
			last = t.AddSwitch("S2", 8)
			if err := t.Connect(s1, last, c.SwitchLinkGbps); err != nil {
				panic(err)
			}
		}
		for i := 0; i < nSources; i++ {
			h := t.AddHost(fmt.Sprintf("A%d", i))
			if err := t.Connect(h, s1, c.HostLinkGbps); err != nil {
				panic(err)
			}
		}
		sink := t.AddHost("B")
		if err := t.Connect(sink, last, c.HostLinkGbps); err != nil {
			panic(err)
		}
		return t, nil
	}
	for i := 0; i < nSources; i++ {
		sc.Flows = append(sc.Flows, workload.FlowSpec{Name: fmt.Sprintf("F%d", i), Src: fmt.Sprintf("A%d", i), Dst: "B", Role: workload.Contributor})
	}
	return sc
}

func TestOneFlowRunsAtItsClosedFormBottleneck(t *testing.T) {
	cases := []struct {
		name     string
		set      map[string]any
		switches int
		want     float64
	}{
		{"host I/O bound", map[string]any{"host_io_gbps": 13.0}, 1, 13},
		{"host link bound", map[string]any{"host_io_gbps": 40.0}, 1, 16 * 2048.0 / 2074},
		{"SDR link", map[string]any{"host_io_gbps": 40.0, "host_link_gbps": 8.0}, 1, 8 * 2048.0 / 2074},
		{"switch link bound", map[string]any{"host_io_gbps": 40.0, "switch_link_gbps": 8.0}, 2, 8 * 2048.0 / 2074},
		{"small MTU", map[string]any{"host_io_gbps": 40.0, "mtu": int64(256)}, 2, 16 * 256.0 / 282},
		{"small messages", map[string]any{"host_io_gbps": 40.0, "message_size": int64(1000)}, 1, 16 * 1000.0 / 1026},
		{"slow sink I/O", map[string]any{"host_io_gbps": 5.5}, 2, 5.5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase = 20 * engine.Millisecond
			for k, v := range c.set {
				if err := cfg.Set(k, v); err != nil {
					t.Fatal(err)
				}
			}
			r, err := model.Run(lineScenario(1, c.switches), cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			got := r.MeanGbps(0, cfg.Phase, 2*cfg.Phase)
			if !within(got, c.want, 0.002) {
				t.Errorf("throughput %.4f Gbit/s, closed form %.4f", got, c.want)
			}
		})
	}
}

func TestFlowsIntoOneSinkSplitItRoundRobin(t *testing.T) {
	for n := 2; n <= 5; n++ {
		t.Run(fmt.Sprintf("%d flows", n), func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase = 20 * engine.Millisecond
			r, err := model.Run(lineScenario(n, 1), cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for i := range r.Flows {
				g := r.MeanGbps(i, cfg.Phase, 2*cfg.Phase)
				sum += g
				if !within(g, 13/float64(n), 0.01) {
					t.Errorf("%s = %.3f Gbit/s, want 13/%d = %.3f", r.Flows[i].Name, g, n, 13/float64(n))
				}
			}
			if !within(sum, 13, 0.005) {
				t.Errorf("sink absorbs %.3f Gbit/s, want its I/O bandwidth 13", sum)
			}
		})
	}
}

func TestSameSeedGivesIdenticalSeries(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase = 20 * engine.Millisecond
	cfg.CC.Scheme = params.SchemeIB
	cfg.CC.MarkingMode = "random"
	run := func(seed uint64) *model.Result {
		r, err := model.Run(workload.LookupScenario("testbed-s1"), cfg, seed)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := run(7), run(7)
	if a.Events != b.Events {
		t.Fatalf("events %d vs %d", a.Events, b.Events)
	}
	for i := range a.Flows {
		for j := range a.Flows[i].Gbps {
			if math.Float64bits(a.Flows[i].Gbps[j]) != math.Float64bits(b.Flows[i].Gbps[j]) {
				t.Fatalf("%s sample %d: %v vs %v", a.Flows[i].Name, j, a.Flows[i].Gbps[j], b.Flows[i].Gbps[j])
			}
		}
	}
	if c := run(8); c.Events == a.Events && c.Counters == a.Counters {
		t.Errorf("seed 8 gave the same run as seed 7: random marking ignores the seed")
	}
}

func TestBadScenarioFlowIsAnError(t *testing.T) {
	sc := lineScenario(1, 1)
	sc.Flows[0].Dst = "nowhere"
	if _, err := model.Run(sc, params.DefaultConfig(), 1); err == nil {
		t.Fatal("a flow to an unknown host ran")
	}
}

func TestVLArbitrationTableWeightsTheVLs(t *testing.T) {
	// Two flows on VL 0 and VL 1 through one switch into a fast sink: the
	// switch's output link is the bottleneck and serves the VLs by the
	// table's weights. (Into a slow sink the returning credits would set the
	// pace, whatever the table.)
	sc := lineScenario(2, 1)
	sc.Flows[1].SL = 1
	// The last table weighs whole packets: 256-byte MTU and 64-byte
	// headers make a packet of 320 bytes, 5 units, so an entry's budget
	// reaches exactly 0 after its last packet and the next entry takes over
	// (VL0 one packet, VL1 two). Kills switch.go's `pt.arbLeft <= 0` turned
	// into `<` after a packet (one VL keeps the link: VL1 takes all of it).
	for _, c := range []struct {
		table       string
		mtu, header string  // "": the defaults, 2048 and 26
		ratio       float64 // VL1 / VL0
	}{
		{table: "", ratio: 1}, {table: "0:64,1:192", ratio: 3}, {table: "0:128,1:64", ratio: 0.5},
		{table: "0:5,1:10", mtu: "256", header: "64", ratio: 2},
	} {
		t.Run("table "+c.table, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase = 20 * engine.Millisecond
			cfg.VLs = 2
			cfg.HostIOGbps = 40
			sets := [][2]string{{"vl_arb", c.table}}
			if c.mtu != "" {
				sets = append(sets, [2]string{"mtu", c.mtu}, [2]string{"header_bytes", c.header})
			}
			for _, kv := range sets {
				if err := cfg.Set(kv[0], kv[1]); err != nil {
					t.Fatal(err)
				}
			}
			r, err := model.Run(sc, cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			a, b := r.MeanGbps(0, cfg.Phase, 2*cfg.Phase), r.MeanGbps(1, cfg.Phase, 2*cfg.Phase)
			link := 16 * float64(cfg.MTU) / float64(cfg.MTU+cfg.HeaderBytes)
			if !within(b/a, c.ratio, 0.05) || !within(a+b, link, 0.01) {
				t.Errorf("VL0 %.2f, VL1 %.2f Gbit/s; want ratio %.2f summing to %.2f", a, b, c.ratio, link)
			}
		})
	}
	cfg := params.DefaultConfig()
	if err := cfg.Set("vl_arb", "1:64"); err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err == nil {
		t.Error("a table naming VL 1 with one data VL passed Validate")
	}
}
