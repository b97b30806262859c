package model

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// nicNetwork builds the testbed under nicrate with flows (each requesting
// its RateGbps, 0 for an equal share) that start in the second phase, a
// second long, so a test can drive the adapters by hand from time 0.
func nicNetwork(t *testing.T, flows ...workload.FlowSpec) *Network {
	t.Helper()
	for i := range flows {
		flows[i].Role, flows[i].StartPhase = workload.Contributor, 1
	}
	cfg := params.DefaultConfig()
	cfg.CC.Scheme = params.SchemeNICRate
	n, err := NewNetwork(&workload.Scenario{Name: "nicrate-mech", Phases: 2, Build: testbed, Flows: flows}, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestMechNICRateDispatchReplaysTable1 replays reference 004's Table 1 on
// H1's adapter with the real dispatcher (nicPick) and NDT update
// (nicSent): flows A (H1→H4) and B (H1→H5) admitted at 6.144 and 4.096
// Gbit/s send 1536-byte packets, so IDT_A = 12 288 bits / 6.144 Gbit/s =
// 2 µs and IDT_B = 3 µs; one dispatch opportunity per T = 1 µs. NDTs
// before each decision and the dispatches must be the table's (A, B, A, B,
// A, idle). Then the adapter is stalled until 10 µs: both flows are overdue
// and the smallest NDT goes first (NDT += IDT, so they catch up): at 10 µs
// A 6, B 6 → A (tie: the first); 11: A 8, B 6 → B; 12: A 8, B 9 → A; 13:
// A 10, B 9 → B. A flow held until its NDT is not ready before it. Last,
// the flows restart at 13 µs: the NDT becomes the larger of now and the
// NDT (A: 13, banking nothing; B, sent once more to 15, keeps it).
func TestMechNICRateDispatchReplaysTable1(t *testing.T) {
	n := nicNetwork(t,
		workload.FlowSpec{Name: "A", Src: "H1", Dst: "H4", RateGbps: 6.144},
		workload.FlowSpec{Name: "B", Src: "H1", Dst: "H5", RateGbps: 4.096})
	hc := &n.hcas[hcaOf(t, n, "H1")]
	us := engine.Microsecond
	for fi := range n.flows {
		if !n.nicStart(int32(fi)) {
			t.Fatalf("flow %d refused", fi)
		}
		n.flows[fi].active = true
	}
	steps := []struct {
		now        engine.Time
		ndtA, ndtB engine.Time
		want       byte
	}{
		{0, 0, 0, 'A'}, {1, 2, 0, 'B'}, {2, 2, 3, 'A'}, {3, 4, 3, 'B'}, {4, 4, 6, 'A'}, {5, 6, 6, '-'},
		{10, 6, 6, 'A'}, {11, 8, 6, 'B'}, {12, 8, 9, 'A'}, {13, 10, 9, 'B'},
	}
	for _, s := range steps {
		now := s.now * us
		n.RunUntil(now) // nothing runs: the flows start at 1 s
		if a, b := n.nic.ndt[0], n.nic.ndt[1]; a != s.ndtA*us || b != s.ndtB*us {
			t.Fatalf("t = %d µs: NDT(A), NDT(B) = %v, %v; want %d µs, %d µs", s.now, a, b, s.ndtA, s.ndtB)
		}
		n.nicPick(hc, now)
		fi := hc.flows[hc.rr]
		got := byte('-')
		if f := &n.flows[fi]; f.readyAt <= now && n.nic.ndt[fi] <= now {
			got = byte('A' + fi)
			n.nicSent(fi, 1536)
			if f.readyAt != n.nic.ndt[fi] {
				t.Errorf("t = %d µs: %c held until %v, its NDT is %v", s.now, got, f.readyAt, n.nic.ndt[fi])
			}
		}
		if got != s.want {
			t.Fatalf("t = %d µs: dispatched %c, want %c", s.now, got, s.want)
		}
	}
	// At 13 µs A (NDT 10) restarts, and B after one more packet (NDT 15).
	n.nicStart(0)
	n.nicSent(1, 1536)
	n.nicStart(1)
	if a, b := n.nic.ndt[0], n.nic.ndt[1]; a != 13*us || b != 15*us {
		t.Errorf("restarted at 13 µs: NDT(A), NDT(B) = %v, %v; want 13 µs (no credit banked), 15 µs (none gained)", a, b)
	}
}

// TestMechNICRateAdmission checks reference 004's call admission (§1.4)
// and the equal shares of flows that request none, by hand (a host sends
// and receives at most 13 Gbit/s; the S1-S2 link carries 32·2048/2074 =
// 31.6 Gbit/s of payload):
//   - in scenario order: A 8 into H5 fits, B 8 more does not (16 > 13),
//     C 4 fits (12); D, requesting nothing, gets what H5 has left: 1;
//   - the link: flows of 12, 12 and 7.8 Gbit/s from S1's hosts to S2's
//     cross S1-S2; the third would make 31.8 > 31.6 (though not above
//     the link's 32 Gbit/s of signal) and is refused;
//   - max-min shares: B, C, D into H5 split its 13 (13/3 each); A shares
//     H1 with D and gets the rest of H1, 13 − 13/3 = 26/3.
func TestMechNICRateAdmission(t *testing.T) {
	cases := []struct {
		name  string
		flows []workload.FlowSpec
		want  []float64
	}{
		{"order", []workload.FlowSpec{
			{Name: "A", Src: "H1", Dst: "H5", RateGbps: 8},
			{Name: "B", Src: "H2", Dst: "H5", RateGbps: 8},
			{Name: "C", Src: "H3", Dst: "H5", RateGbps: 4},
			{Name: "D", Src: "H6", Dst: "H5"}}, []float64{8, 0, 4, 1}},
		{"link", []workload.FlowSpec{
			{Name: "A", Src: "H1", Dst: "H4", RateGbps: 12},
			{Name: "B", Src: "H2", Dst: "H5", RateGbps: 12},
			{Name: "C", Src: "H3", Dst: "H6", RateGbps: 7.8}}, []float64{12, 12, 0}},
		{"max-min", []workload.FlowSpec{
			{Name: "A", Src: "H1", Dst: "H4"},
			{Name: "B", Src: "H2", Dst: "H5"},
			{Name: "C", Src: "H3", Dst: "H5"},
			{Name: "D", Src: "H1", Dst: "H5"}}, []float64{26.0 / 3, 13.0 / 3, 13.0 / 3, 13.0 / 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := nicNetwork(t, c.flows...)
			for i, w := range c.want {
				if got := n.nic.admittedGbps[i]; math.Abs(got-w) > 1e-9 {
					t.Errorf("%s admitted at %g Gbit/s, want %g", c.flows[i].Name, got, w)
				}
				if refused := n.nic.rateMbps[i] == 0; refused != (w == 0) || n.nicStart(int32(i)) == refused {
					t.Errorf("%s: refused %v, want %v", c.flows[i].Name, refused, w == 0)
				}
			}
		})
	}
}
