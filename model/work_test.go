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

// TestEstimateWorkBoundsTheRealRun runs short testbed runs and checks that
// the estimate is an upper bound on the packets sent and within a small
// factor of the events run, over message sizes, MTUs and CC.
func TestEstimateWorkBoundsTheRealRun(t *testing.T) {
	cases := []struct {
		name     string
		scenario string
		set      map[string]string
	}{
		{"s1 off", "testbed-s1", nil},
		{"s1 on", "testbed-s1", map[string]string{"cc": "on"}},
		{"s2 off", "testbed-s2", nil},
		{"s1 mtu 256", "testbed-s1", map[string]string{"mtu": "256"}},
		{"s1 on 512 B messages", "testbed-s1", map[string]string{"cc": "on", "message_size": "512"}},
		{"s2 3000 B messages", "testbed-s2", map[string]string{"message_size": "3000"}},
		{"s1 santos", "testbed-s1", map[string]string{"cc": "santos"}},
		{"s1 santos small buffers", "testbed-s1", map[string]string{"cc": "santos", "switch_buffer_credits": "99"}},
		{"s1 nicrate", "testbed-s1", map[string]string{"cc": "nicrate"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc := workload.LookupScenario(tc.scenario)
			c := params.DefaultConfig()
			c.Phase = 2 * engine.Millisecond
			for k, v := range tc.set {
				if err := c.Set(k, v); err != nil {
					t.Fatal(err)
				}
			}
			w, err := EstimateWork(sc, c)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(sc, c, 1)
			if err != nil {
				t.Fatal(err)
			}
			if p := float64(res.Counters.Packets); p > w.Packets {
				t.Errorf("sent %.0f packets, estimate bound %.0f", p, w.Packets)
			}
			ratio := float64(res.Events) / w.Events
			t.Logf("events %d, estimate %.0f (ratio %.2f); packets %d of %.0f", res.Events, w.Events, ratio, res.Counters.Packets, w.Packets)
			if ratio < 0.3 || ratio > 1.2 {
				t.Errorf("events %d, estimate %.0f: ratio %.2f outside 0.3..1.2", res.Events, w.Events, ratio)
			}
			if want := int64(len(sc.Flows)) * int64(res.End/c.Sample); w.Samples != want {
				t.Errorf("samples %d, want %d", w.Samples, want)
			}
		})
	}
}

func TestCheckWorkRefuses(t *testing.T) {
	sc := workload.LookupScenario("testbed-s1")
	t.Run("tiny messages", func(t *testing.T) {
		c := params.DefaultConfig()
		c.MessageSize = 1
		_, err := CheckWork(sc, c, 1e10)
		var we *WorkError
		if !errors.As(err, &we) || we.PacketBytes != 1 || we.Work.Events < 1e10 {
			t.Fatalf("err %v, want a WorkError over 1e10 events for 1-byte packets", err)
		}
		if _, err := CheckWork(sc, c, 0); err != nil {
			t.Errorf("no limit: %v", err)
		}
	})
	t.Run("defaults pass", func(t *testing.T) {
		if w, err := CheckWork(sc, params.DefaultConfig(), 1e10); err != nil || w.Events > 1e9 {
			t.Fatalf("defaults: %v (%.3g events)", err, w.Events)
		}
	})
	t.Run("too many samples", func(t *testing.T) {
		c := params.DefaultConfig()
		c.Sample = engine.Microsecond // 5 s / 1 us x 5 flows = 25 M
		_, err := CheckWork(sc, c, 0)
		var pe *params.ParamError
		if !errors.As(err, &pe) || pe.Name != "sample" || !strings.Contains(err.Error(), "25000000 samples") {
			t.Fatalf("err %v, want a ParamError on sample counting 25000000 samples", err)
		}
	})
}

// TestMessageRateCapsSmallMessages checks hca_msg_rate against its closed
// form: a lone flow whose adapter may start R million messages per second
// delivers R·10^6 × message_size × 8 bit/s when that is below its link and
// I/O rates, whatever the packets per message; and the work estimate counts
// the packets the cap allows.
func TestMessageRateCapsSmallMessages(t *testing.T) {
	for _, tc := range []struct {
		name         string
		rate         float64 // M/s
		message, mtu int
	}{
		{"64 B messages at 1 M/s", 1, 64, 2048},
		{"4 KiB messages of 2 packets at 0.1 M/s", 0.1, 4096, 2048},
		{"256 B messages at 2.5 M/s", 2.5, 256, 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := params.DefaultConfig()
			c.Phase = 2 * engine.Millisecond
			c.HCAMsgRate = tc.rate
			c.MessageSize, c.MTU = tc.message, tc.mtu
			sc := workload.LookupScenario("testbed-s1") // F1 alone in the first phase
			res, err := Run(sc, c, 1)
			if err != nil {
				t.Fatal(err)
			}
			got := res.MeanGbps(0, engine.Millisecond/2, 2*engine.Millisecond)
			want := tc.rate * 1e6 * float64(tc.message) * 8 / 1e9
			if math.Abs(got-want) > 0.01*want {
				t.Errorf("F1 alone: %.4f Gbit/s, want %.4f", got, want)
			}
			w, err := EstimateWork(sc, c)
			if err != nil {
				t.Fatal(err)
			}
			if p := float64(res.Counters.Packets); p > w.Packets || p < w.Packets/4 {
				t.Errorf("sent %.0f packets, estimate %.0f", p, w.Packets)
			}
		})
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

// FormatBytes spells 1024 bytes as 1.0 KiB, 1023 as bytes.
// Kills work.go's `b < 1024` turned into `<=`.
func TestMutFormatBytesFirstKiB(t *testing.T) {
	for b, want := range map[int64]string{1023: "1023 B", 1024: "1.0 KiB", 0: "0 B"} {
		if got := FormatBytes(b); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", b, got, want)
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
