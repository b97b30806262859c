package model

import (
	"math/rand/v2"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// firstReady finds the same input as a plain scan of the ports from
// start round to start-1, on one to three words of ready bits.
func TestFirstReadyMatchesAScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 5000; trial++ {
		words := make([]uint64, 1+rng.IntN(3))
		for w := range words {
			switch rng.IntN(3) {
			case 0: // empty
			case 1:
				words[w] = 1 << rng.IntN(64)
			default:
				words[w] = rng.Uint64() & rng.Uint64()
			}
		}
		ports := int32(64 * len(words))
		start := rng.Int32N(ports)
		want := int32(-1)
		for i := int32(0); i < ports; i++ {
			p := (start + i) % ports
			if words[p>>6]&(1<<(p&63)) != 0 {
				want = p
				break
			}
		}
		if got := firstReady(words, start); got != want {
			t.Fatalf("words %x from %d: %d, want %d", words, start, got, want)
		}
	}
}

// An 8-byte ping of testbed-hpcc (H1 to H4) shares S1's output to S2 with
// the 2 KiB packets of F2 and F3 (to H5), which wait there for credits
// while CC is off: S2's buffer of that port is full of packets for H5. An
// output that serves the first input whose head fits its credits (fit)
// lets the one-credit ping pass them, so the ping-pong latency stays near
// the idle network's (docs/apps.md: +7 %); one that commits to the first
// input with a packet (commit) makes the ping wait for a committed 2 KiB
// head's 33 credits, which S2 frees one packet at a time at H5's rate
// shared by three inputs. Half the round trip then grows by at least half
// a 2 KiB packet's time at 13 Gbit/s (0.64 µs) per crossing of S1–S2.
func TestCommitArbiterMakesASmallPacketWait(t *testing.T) {
	sc := workload.LookupScenario("testbed-hpcc")
	run := func(contributors int, arb string) float64 {
		c := sc.Config()
		if err := sc.Set(&c, "contributors", contributors); err != nil {
			t.Fatal(err)
		}
		if err := c.Set("arbitration", arb); err != nil {
			t.Fatal(err)
		}
		m, _ := runApps(t, sc, c, 1)
		return m["pingpong_latency_mean_us"]
	}
	idle := run(0, params.ArbitrationFit)
	if got := run(0, params.ArbitrationCommit); got != idle {
		t.Errorf("idle network: commit %.3f µs, fit %.3f: an output with credits to spare must not wait", got, idle)
	}
	wait := 0.5 * float64((2048+26)*8) / 13e3 // µs
	fit, commit := run(4, params.ArbitrationFit), run(4, params.ArbitrationCommit)
	if fit >= idle+wait {
		t.Errorf("fit, 4 contributors: ping-pong latency %.3f µs, want below idle %.3f + %.2f", fit, idle, wait)
	}
	if commit < idle+wait {
		t.Errorf("commit, 4 contributors: ping-pong latency %.3f µs, want at least idle %.3f + %.2f", commit, idle, wait)
	}
	t.Logf("ping-pong latency: idle %.3f µs, fit %.3f, commit %.3f", idle, fit, commit)
}

// Under the committing arbiter the network keeps every invariant the
// property checker knows (credits, VoQs, packets, CCTIs) through the
// testbed with CC on.
func TestCommitArbiterKeepsTheInvariants(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase, cfg.Sample = 200*engine.Microsecond, 100*engine.Microsecond
	cfg.CC.Scheme = params.SchemeIB
	cfg.Arbitration = params.ArbitrationCommit
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	chk := newPropChecker(n)
	for at := engine.Time(0); at <= 1000*engine.Microsecond; at += 25*engine.Microsecond + 3 {
		n.RunUntil(at)
		if err := chk.check(); err != nil {
			t.Fatalf("at %v: %v", at, err)
		}
	}
}
