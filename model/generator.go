package model

import (
	"math"
	"math/rand/v2"

	"github.com/ccsweep/ccsweep/engine"
)

// Arrival processes and size distributions, parsed once per source.
const (
	arriveSaturate uint8 = iota
	arrivePoisson
	arriveOnOff
)

const (
	sizeFixed uint8 = iota
	sizeExponential
	sizeUniform
)

// maxQueued bounds the messages waiting at one source. A message that
// arrives at a full queue is dropped: it counts as offered, never as
// accepted, and the drop is counted (Metrics.DroppedMessages).
const maxQueued = 4096

// pending is a message waiting at its source.
type pending struct {
	at   engine.Time // arrival
	size int32
	dst  int32 // destination host
}

// generator makes a source's messages: arrival times, sizes and
// destinations, from its own random stream, so that one source's draws do
// not depend on what the rest of the network does. Arrivals are made
// lazily, when the HCA looks at the source (pull), never by events of
// their own.
type generator struct {
	src      *source
	rng      *rand.Rand
	arrival  uint8
	dist     uint8
	size     int     // mean message size
	bitsPs   float64 // the host link's data rate in bits per picosecond
	load     float64
	burst    float64     // onoff: mean burst length, ps
	next     engine.Time // the next arrival
	burstEnd engine.Time // onoff: the end of the current burst
	cycle    int         // alltoall: index of the next destination
	nHosts   int
	queue    []pending // ring buffer of waiting messages
	head, n  int
	dropped  int64
	offered  int64 // bytes arrived inside the measurement window
	winFrom  engine.Time
	winTo    engine.Time
}

// start begins the source's arrivals at t.
func (g *generator) start(t engine.Time) {
	switch g.arrival {
	case arriveSaturate:
		g.next = t
	case arrivePoisson:
		g.next = t + g.poissonGap(g.size)
	case arriveOnOff:
		g.burstEnd = t + engine.Time(g.rng.ExpFloat64()*g.burst)
		g.next = t
	}
}

// poissonGap draws the gap to the next arrival of a Poisson process whose
// mean offered rate is load times the link rate for messages of mean size.
func (g *generator) poissonGap(mean int) engine.Time {
	return engine.Time(math.Ceil(g.rng.ExpFloat64() * float64(mean) * 8 / (g.load * g.bitsPs)))
}

// pull moves every arrival due by now into the queue. A saturating source
// always has one message waiting.
func (g *generator) pull(now engine.Time) {
	if g.arrival == arriveSaturate {
		if g.n == 0 && g.next <= now {
			g.push(pending{at: now, size: g.drawSize(), dst: g.drawDest()})
		}
		return
	}
	for g.next <= now {
		size := g.drawSize()
		g.push(pending{at: g.next, size: size, dst: g.drawDest()})
		if g.arrival == arrivePoisson {
			g.next += g.poissonGap(g.size)
			continue
		}
		// onoff: back to back at line rate within a burst; after it, a gap
		// whose mean makes the long-run offered load g.load.
		g.next += engine.Time(math.Ceil(float64(size) * 8 / g.bitsPs))
		if g.next > g.burstEnd {
			off := g.rng.ExpFloat64() * g.burst * (1 - g.load) / g.load
			g.next = g.burstEnd + engine.Time(off)
			g.burstEnd = g.next + engine.Time(g.rng.ExpFloat64()*g.burst)
		}
	}
}

// push queues a message that arrived, or drops it if the queue is full.
func (g *generator) push(m pending) {
	if m.at >= g.winFrom && m.at < g.winTo {
		g.offered += int64(m.size)
	}
	if g.n == maxQueued {
		g.dropped++
		return
	}
	if g.n == len(g.queue) {
		grown := make([]pending, max(4, 2*len(g.queue)))
		for i := 0; i < g.n; i++ {
			grown[i] = g.queue[(g.head+i)%len(g.queue)]
		}
		g.queue, g.head = grown, 0
	}
	g.queue[(g.head+g.n)%len(g.queue)] = m
	g.n++
}

// pop removes the oldest waiting message.
func (g *generator) pop() pending {
	m := g.queue[g.head]
	g.head = (g.head + 1) % len(g.queue)
	g.n--
	return m
}

// readyAt returns when the source next has a message: now if one waits,
// else its next arrival.
func (g *generator) readyAt(now engine.Time) engine.Time {
	if g.n > 0 {
		return now
	}
	return g.next
}

func (g *generator) drawSize() int32 {
	switch g.dist {
	case sizeExponential:
		return int32(max(1, math.Round(g.rng.ExpFloat64()*float64(g.size))))
	case sizeUniform:
		if g.size == 1 {
			return 1
		}
		return int32(1 + g.rng.IntN(2*g.size-1))
	}
	return int32(g.size)
}

func (g *generator) drawDest() int32 {
	s := g.src
	switch {
	case s.dst >= 0:
		return int32(s.dst)
	case s.cycle:
		d := s.dests[g.cycle]
		g.cycle = (g.cycle + 1) % len(s.dests)
		return int32(d)
	case s.dests != nil:
		return int32(s.dests[g.rng.IntN(len(s.dests))])
	}
	// Uniform over every host but the sender: draw from n-1 and skip it.
	d := g.rng.IntN(g.nHosts - 1)
	if d >= s.host {
		d++
	}
	return int32(d)
}
