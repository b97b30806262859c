package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// holdDelays is the size of the table of exponential delays the hold model
// cycles through, so that drawing random numbers costs nothing in the timed
// loop (engine/ns3/hold.cc does the same).
const holdDelays = 1 << 16

// holdModel is the classic hold benchmark: every event schedules one new event
// at now plus an exponentially distributed delay (mean 1 µs), so the number of
// pending events stays constant. It stops itself after left events.
type holdModel struct {
	s      *Sim
	delays []Time
	next   int
	left   int
}

func newHoldModel(s *Sim) *holdModel {
	rng := rand.New(rand.NewPCG(1, 2))
	h := &holdModel{s: s, delays: make([]Time, holdDelays)}
	for i := range h.delays {
		h.delays[i] = Time(rng.ExpFloat64()*float64(Microsecond)) + 1
	}
	return h
}

func (h *holdModel) delay() Time {
	d := h.delays[h.next]
	h.next = (h.next + 1) & (holdDelays - 1)
	return d
}

func (h *holdModel) Handle(e Event) {
	h.s.After(h.delay(), e.Kind, e.Arg)
	h.left--
	if h.left == 0 {
		h.s.Stop()
	}
}

// BenchmarkHold measures events per second through Sim.Run in the hold model
// at a fixed number of pending events. engine/ns3/compare.sh runs ns-3's
// schedulers on the same model beside it.
func BenchmarkHold(b *testing.B) {
	for _, pending := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("pending=%d", pending), func(b *testing.B) {
			s := &Sim{}
			h := newHoldModel(s)
			for i := 0; i < pending; i++ {
				s.After(h.delay(), 0, uint32(i))
			}
			h.left = 10 * pending // warm up: buckets reach their working size
			s.Run(maxTime, h)
			h.left = b.N
			b.ReportAllocs()
			b.ResetTimer()
			s.Run(maxTime, h)
			b.StopTimer()
			if s.Pending() != pending {
				b.Fatalf("pending drifted to %d", s.Pending())
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
