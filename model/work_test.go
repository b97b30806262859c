package model

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
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
