package model

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// normalized is reference 001's setting for its test vectors: R_max = 1,
// R_min = 1/64, m = 2, rates in packets per unit time.
func normalized(resp santosResponse) rateRule {
	return rateRule{resp: resp, m: 2, rMin: 1.0 / 64, rMax: 1, step: 1.0 / 64}
}

// TestResponseVectors checks f_dec and f_inc against reference 001's
// table, computed from the closed forms r/m, r·m^(R_min/r) (FIMD) and
// r·R_max/(R_max+r), r/(1−R_min/R_max) (LIPD), clamped to [R_min, R_max].
func TestResponseVectors(t *testing.T) {
	cases := []struct {
		r                                  float64
		fimdDec, fimdInc, lipdDec, lipdInc float64
	}{
		{1, 0.5, 1, 0.5, 1},
		{0.5, 0.25, 0.51095, 0.33333, 0.50794},
		{0.25, 0.125, 0.26107, 0.2, 0.25397},
		{1.0 / 16, 0.03125, 0.07433, 0.05882, 0.06349},
		{1.0 / 32, 0.015625, 0.04419, 0.03030, 0.03175},
		{1.0 / 64, 1.0 / 64, 0.03125, 0.01538, 0.01587},
	}
	fimd, lipd := normalized(respFIMD), normalized(respLIPD)
	for _, c := range cases {
		for _, x := range []struct {
			name      string
			got, want float64
		}{
			{"fimd dec", fimd.next(c.r, true), c.fimdDec},
			{"fimd inc", fimd.next(c.r, false), c.fimdInc},
			{"lipd dec", lipd.next(c.r, true), max(c.lipdDec, 1.0/64)},
			{"lipd inc", lipd.next(c.r, false), c.lipdInc},
		} {
			if math.Abs(x.got-x.want) > 5e-5 {
				t.Errorf("%s(%g) = %.6f, want %.5f", x.name, c.r, x.got, x.want)
			}
		}
	}
	// LIPD's decrease adds one packet time to the inter-packet delay.
	if got := 1 / lipd.dec(0.25); math.Abs(got-(4+1)) > 1e-12 {
		t.Errorf("LIPD: 1/f_dec(1/4) = %g, want 5", got)
	}
}

// recoveryTime returns T_rec(r0): the time from f_dec(r0) back to at
// least r0 through unmarked ACKs, one every 1/r (the time of the packet
// it acknowledges at rate r).
func recoveryTime(rr *rateRule, r0 float64) float64 {
	r, t := rr.next(r0, true), 0.0
	for r < r0*(1-1e-12) {
		t += 1 / r
		r = rr.next(r, false)
	}
	return t
}

// TestRecoveryTimeIsOneOverRMin checks reference 001's design property for
// FIMD and LIPD: T_rec(r) = 1/R_min for every r, within the discretisation
// of one ACK per packet (the reference computes 64.0–72.3 and 64.5–67.3
// against 64, so within 15 %, and never below 1/R_min); and the design
// conditions f_inc(f_dec(r)) ≤ r, and T_rec non-decreasing in r for AIMD.
func TestRecoveryTimeIsOneOverRMin(t *testing.T) {
	rates := []float64{1.0 / 32, 1.0 / 16, 1.0 / 8, 1.0 / 4, 1.0 / 2, 1}
	for _, resp := range []santosResponse{respFIMD, respLIPD} {
		rr := normalized(resp)
		for _, r := range rates {
			got := recoveryTime(&rr, r)
			if want := 1 / rr.rMin; got < want*(1-1e-9) || got > want*1.15 {
				t.Errorf("response %d: T_rec(%g) = %.2f, want 64 within 15 %% (and not below)", resp, r, got)
			}
		}
	}
	for _, resp := range []santosResponse{respAIMD, respFIMD, respLIPD} {
		rr := normalized(resp)
		// From m·R_min up: below, f_dec leaves [R_min, R_max] and is clamped.
		for r := 2 * rr.rMin; r <= 1; r *= 1.1 {
			if back := rr.inc(rr.dec(r)); back > r*(1+1e-12) {
				t.Errorf("response %d: f_inc(f_dec(%g)) = %g > r: a mark must outweigh an unmarked ACK", resp, r, back)
			}
		}
	}
	aimd := normalized(respAIMD)
	prev := 0.0
	for _, r := range rates {
		got := recoveryTime(&aimd, r)
		if got < prev {
			t.Errorf("AIMD: T_rec(%g) = %.1f below T_rec of a lower rate (%.1f)", r, got, prev)
		}
		prev = got
	}
}

// TestFastResponsesRecoverFasterThanAIMD checks reference 001's claim
// that FIMD and LIPD recover faster than AIMD once congestion ends: the
// time from R_max/8 (three marks after R_max) back to 99 % of R_max.
func TestFastResponsesRecoverFasterThanAIMD(t *testing.T) {
	climb := func(resp santosResponse) float64 {
		rr := normalized(resp)
		r, t := rr.rMax/8, 0.0
		for r < 0.99*rr.rMax {
			t += 1 / r
			r = rr.next(r, false)
		}
		return t
	}
	aimd, fimd, lipd := climb(respAIMD), climb(respFIMD), climb(respLIPD)
	t.Logf("time from R_max/8 to 0.99 R_max, in 1/R_max: AIMD %.0f, FIMD %.0f, LIPD %.0f", aimd, fimd, lipd)
	if fimd >= aimd || lipd >= aimd {
		t.Errorf("recovery AIMD %.0f, FIMD %.0f, LIPD %.0f: want FIMD and LIPD faster than AIMD", aimd, fimd, lipd)
	}
	// FIMD: three halvings, each recovered in 1/R_min (to 99 %: a little
	// less).
	if want := 3 / normalized(respFIMD).rMin; fimd < 0.9*want || fimd > 1.15*want {
		t.Errorf("FIMD recovery %.0f, want 3/R_min = %.0f within 15 %%", fimd, want)
	}
}

// santosFairness runs testbed-s1 under santos with three-packet switch
// buffers, where the remote contributors (F2, F3 from S1) share the
// inter-switch link's input buffer at S2 and the local ones (F4, F5) have
// one each, and returns the local contributors' mean throughput over the
// remote ones'.
func santosFairness(t *testing.T, marking, response string) float64 {
	t.Helper()
	cfg := params.DefaultConfig()
	cfg.Phase = 20 * engine.Millisecond
	cfg.SwitchBufferCredits = 99
	cfg.CC.Scheme = params.SchemeSantos
	cfg.Santos.Marking, cfg.Santos.Response = marking, response
	res, err := Run(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	from, to := res.Window()
	g := func(i int) float64 { return res.MeanGbps(i, from, to) }
	return (g(3) + g(4)) / (g(1) + g(2))
}

// TestInputTriggeredMarkingIsFairer checks reference 001's claim that
// input-triggered marking treats local and remote flows more evenly than
// naive marking, which marks only the full buffer's (remote) packets: the
// local/remote throughput ratio is nearer 1 (by |log|).
func TestInputTriggeredMarkingIsFairer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs testbed-s1 six times")
	}
	for _, resp := range []string{"fimd", "lipd"} {
		naive, input := santosFairness(t, "naive", resp), santosFairness(t, "input", resp)
		t.Logf("%s: local/remote throughput naive %.2f, input %.2f", resp, naive, input)
		if math.Abs(math.Log(input)) >= math.Abs(math.Log(naive)) {
			t.Errorf("%s: local/remote throughput ratio naive %.2f, input-triggered %.2f: want input-triggered nearer 1", resp, naive, input)
		}
	}
}

// TestSourcesRecoverInTheNetwork checks the recovery claim on the wire:
// testbed-s1's victim alone, its rate cut to R_max/8 as by three marks at
// 1 ms, then no more marks (congestion over). FIMD and LIPD must bring its
// throughput back to 90 % of what it had before sooner than AIMD.
func TestSourcesRecoverInTheNetwork(t *testing.T) {
	recover := func(resp string) engine.Time {
		cfg := params.DefaultConfig()
		cfg.Phase = 50 * engine.Millisecond // F1 alone
		cfg.CC.Scheme = params.SchemeSantos
		cfg.Santos.Response = resp
		n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		const step = 20 * engine.Microsecond
		cut := engine.Millisecond
		n.RunUntil(cut - step)
		n.settleDeliveries()
		before := n.flows[0].delivered
		n.RunUntil(cut)
		n.settleDeliveries()
		steady := n.flows[0].delivered - before // bytes per step at full speed
		n.santos.flows[0].rateGbps = n.santos.rule.rMax / 8
		last := n.flows[0].delivered
		for now := cut + step; now < cfg.Phase; now += step {
			n.RunUntil(now)
			n.settleDeliveries()
			got := n.flows[0].delivered - last
			last = n.flows[0].delivered
			if float64(got) >= 0.9*float64(steady) {
				return now - cut
			}
		}
		t.Fatalf("%s: no recovery within the phase", resp)
		return 0
	}
	aimd, fimd, lipd := recover("aimd"), recover("fimd"), recover("lipd")
	t.Logf("back to 90 %% of the victim's throughput after its rate is cut to R_max/8: AIMD %v, FIMD %v, LIPD %v", aimd, fimd, lipd)
	if fimd >= aimd || lipd >= aimd {
		t.Errorf("recovery AIMD %v, FIMD %v, LIPD %v: want FIMD and LIPD faster", aimd, fimd, lipd)
	}
}

// TestMutSantosRMaxDefault checks santos.r_max's default as docs/schemes.md
// gives it: the lower of host_io_gbps and the host link's payload rate.
// With the testbed's 16 Gbit/s host links and 2048-byte MTUs in 2074 bytes
// on the wire, the payload rate is 16·2048/2074 = 15.7994... Gbit/s: it is
// R_max when host_io_gbps is 100, and 13 when host_io_gbps is 13; R_min
// is R_max/64 either way.
func TestMutSantosRMaxDefault(t *testing.T) {
	for _, c := range []struct{ io, want float64 }{
		{100, 16.0 * 2048 / 2074},
		{13, 13},
	} {
		cfg := params.DefaultConfig()
		cfg.CC.Scheme = params.SchemeSantos
		cfg.HostIOGbps = c.io
		if cfg.MTU != 2048 || cfg.MTU+cfg.HeaderBytes != 2074 || cfg.HostLinkGbps != 16 {
			t.Fatalf("the testbed's defaults changed (MTU %d, header %d, link %g): rework this test", cfg.MTU, cfg.HeaderBytes, cfg.HostLinkGbps)
		}
		n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		rr := n.santos.rule
		if math.Abs(rr.rMax-c.want) > 1e-12 || math.Abs(rr.rMin-c.want/64) > 1e-12 {
			t.Errorf("host_io_gbps %g: R_max %.6f, R_min %.6f; want %.6f, %.6f", c.io, rr.rMax, rr.rMin, c.want, c.want/64)
		}
		if r := n.santos.flows[0].rateGbps; r != rr.rMax {
			t.Errorf("host_io_gbps %g: a flow starts at %g, want R_max %g", c.io, r, rr.rMax)
		}
	}
}
