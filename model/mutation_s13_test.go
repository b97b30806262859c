package model

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
)

// Tests written in session 13 against the survivors earlier samples left
// "not killed" (docs/testing.md, "Sampled runs").

// A credit update addresses its port in 20 bits: every port index of a
// network of maxPorts ports survives packing with any VL and credit count,
// so a network of exactly maxPorts ports is accepted and one more refused.
// Kills the port-count check's `n > maxPorts` turned into `>=` (which
// refused 2^20 ports although their indexes fit).
func TestMaxPortsIsWhatCreditUpdatesAddress(t *testing.T) {
	for _, p := range []int32{0, 1, 4095, 4096, maxPorts / 2, maxPorts - 2, maxPorts - 1} {
		for _, vl := range []VL{0, 1, 14, 15} {
			for _, c := range []int32{0, 1, 69, 255} {
				if gp, gvl, gc := unpackCredit(packCredit(p, vl, c)); gp != p || gvl != vl || gc != c {
					t.Fatalf("credit update for port %d, VL %d, %d credits unpacks as port %d, VL %d, %d credits", p, vl, c, gp, gvl, gc)
				}
			}
		}
	}
	// One port more would need a 21st bit: its index packs as port 0's.
	if gp, _, _ := unpackCredit(packCredit(maxPorts, 0, 1)); gp == maxPorts {
		t.Fatalf("port %d survives packing; maxPorts (%d) is below what credit updates address", maxPorts, maxPorts)
	}
	for _, n := range []int{1, maxPorts - 1, maxPorts} {
		if err := checkPorts(n); err != nil {
			t.Errorf("%d ports: %v; want them accepted", n, err)
		}
	}
	err := checkPorts(maxPorts + 1)
	if !errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(err.Error(), "1048577 ports; credit updates address at most 1048576") {
		t.Errorf("%d ports: %v; want a bad-scenario error naming the count and the limit", maxPorts+1, err)
	}
}

// A burst is closed at its end (docs/scenarios.md, `onoff`): a message due
// at or before the burst's end is sent back to back in it; the first one
// due after waits for the off gap. With 1 µs messages from the start and a
// burst ending exactly at the fourth message's start, four messages arrive
// 1 µs apart; with the burst ending one picosecond earlier, three. Kills
// generator.go's `g.next > g.burstEnd` turned into `>=`.
func TestOnOffBurstIncludesAMessageDueAtItsEnd(t *testing.T) {
	const start = engine.Time(7000)
	src := &source{dst: 1}
	for _, c := range []struct {
		end  engine.Time
		want int
	}{
		{start + 3*engine.Microsecond, 4},
		{start + 3*engine.Microsecond - 1, 3},
		{start + 3*engine.Microsecond + 1, 4},
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			// 4000 bytes at 32 Gbit/s (0.032 bit/ps) take exactly 1 µs;
			// a mean off gap of 1 ms (burst 1 ms at load 0.5) that ends within
			// 1 µs has probability 0.1 %; these seeds draw longer ones.
			g := &generator{src: src, rng: rand.New(rand.NewPCG(seed, 1)), arrival: arriveOnOff, dist: sizeFixed,
				size: 4000, bitsPs: 0.032, load: 0.5, burst: float64(engine.Millisecond), nHosts: 2}
			g.start(start)
			g.burstEnd = c.end
			g.pull(start + 4*engine.Microsecond)
			if g.n != c.want {
				t.Fatalf("seed %d, burst ending %v after the first message: %d messages within 4 us, want %d", seed, c.end-start, g.n, c.want)
			}
			for i := 0; i < g.n; i++ {
				if at := g.queue[(g.head+i)%len(g.queue)].at; at != start+engine.Time(i)*engine.Microsecond {
					t.Fatalf("seed %d: message %d arrives at %v, want %v", seed, i, at, start+engine.Time(i)*engine.Microsecond)
				}
			}
			if g.next <= start+4*engine.Microsecond {
				t.Fatalf("seed %d: the next message is due at %v, within the off gap's first microsecond", seed, g.next)
			}
		}
	}
}
