package model

import (
	"math/rand/v2"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// An on-off source starts with a burst: its first messages arrive back to
// back at line rate from the start. With mean bursts of 1 ms and 1 µs
// messages, the first ten come 1 µs apart (the first burst is shorter
// than 10 µs with probability 1 %; the seeds here draw longer ones).
// Kills generator.go's `g.burstEnd = t + ...` turned into `t - ...` (a
// first burst that ended before it began).
func TestMutOnOffStartsWithABurst(t *testing.T) {
	const start = engine.Time(5000)
	src := &source{dst: 1}
	for seed := uint64(1); seed <= 5; seed++ {
		// 4000 bytes at 32 Gbit/s (0.032 bit/ps) take exactly 1 µs.
		g := &generator{src: src, rng: rand.New(rand.NewPCG(seed, 1)), arrival: arriveOnOff, dist: sizeFixed,
			size: 4000, bitsPs: 0.032, load: 0.5, burst: float64(engine.Millisecond), nHosts: 2}
		g.start(start)
		g.pull(start + 9*engine.Microsecond)
		if g.n != 10 {
			t.Fatalf("seed %d: %d messages by 9 us after the start, want 10", seed, g.n)
		}
		for i := 0; i < g.n; i++ {
			if at := g.queue[(g.head+i)%len(g.queue)].at; at != start+engine.Time(i)*engine.Microsecond {
				t.Fatalf("seed %d: message %d arrives at %v, want %v", seed, i, at, start+engine.Time(i)*engine.Microsecond)
			}
		}
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

// TestMutUniformSizesStayInRange checks the uniform message size
// distribution of mean s: whole sizes 1 to 2s-1 (docs/scenarios.md), every
// one drawn.
// Kills generator.go's `2*g.size-1` turned into `2*g.size+1` (sizes up to
// 2s+1, mean s+1).
func TestMutUniformSizesStayInRange(t *testing.T) {
	g := &generator{dist: sizeUniform, size: 3, rng: rand.New(rand.NewPCG(1, 2))}
	seen := map[int32]int{}
	for range 10_000 {
		seen[g.drawSize()]++
	}
	for v := range seen {
		if v < 1 || v > 5 {
			t.Errorf("size %d drawn, outside 1..5", v)
		}
	}
	for v := int32(1); v <= 5; v++ {
		if seen[v] == 0 {
			t.Errorf("size %d never drawn in 10 000", v)
		}
	}
}
