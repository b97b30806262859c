package engine

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// checkInvariants returns an error naming the first invariant of q's layout
// (the radix heap described at the top of queue.go and on Queue's fields)
// that does not hold. Pop's order alone cannot see these: a queue that keeps
// every event in the bottom, say, pops in the right order but spends a
// linear insertion on each push.
func checkInvariants(q *Queue) error {
	// The bottom is a level-0 bucket or one of a level up to bottomLevel
	// (refill sets base to its start): its window spans at most
	// 2^(6*bottomLevel) ps.
	if q.bottomEnd != 0 && q.bottomEnd-q.base > 1<<(bottomLevel*digitBits) {
		return fmt.Errorf("bottom's window [%d, %d) wider than level %d's", q.base, q.bottomEnd, bottomLevel)
	}
	n := len(q.bottom)
	for i, e := range q.bottom {
		if e.At >= q.bottomEnd {
			return fmt.Errorf("bottom[%d] at %d, not before bottomEnd %d", i, e.At, q.bottomEnd)
		}
		if e.At < q.last {
			return fmt.Errorf("bottom[%d] at %d, before the last pop at %d", i, e.At, q.last)
		}
		if i > 0 && q.bottom[i-1].At < e.At {
			return fmt.Errorf("bottom not descending at %d: %d then %d", i, q.bottom[i-1].At, e.At)
		}
	}
	for l := range levels {
		for d := range radix {
			b := q.buckets[l][d]
			if set := q.nonzero[l]&(1<<d) != 0; set != (len(b) > 0) {
				return fmt.Errorf("bucket %d/%d holds %d events but its nonzero bit is %v", l, d, len(b), set)
			}
			n += len(b)
			for _, e := range b {
				if e.At < q.bottomEnd {
					return fmt.Errorf("event at %d in bucket %d/%d, before bottomEnd %d", e.At, l, d, q.bottomEnd)
				}
				// The level is the highest base-64 digit in which the
				// event's time differs from base, the bucket that digit.
				wl := 0
				if x := uint64(e.At ^ q.base); x != 0 {
					wl = (bits.Len64(x) - 1) / digitBits
				}
				wd := int(uint64(e.At)>>(wl*digitBits)) & (radix - 1)
				if wl != l || wd != d {
					return fmt.Errorf("event at %d in bucket %d/%d, want %d/%d (base %d)", e.At, l, d, wl, wd, q.base)
				}
			}
		}
	}
	if n != q.n || n != q.Len() {
		return fmt.Errorf("%d events held, Len %d", n, q.Len())
	}
	return nil
}

// TestQueueKeepsItsLayout pushes and pops events over spans from equal times
// to a millisecond, with PopUntil limits on and off the pending times, and
// checks the layout's invariants after every operation besides the order.
func TestQueueKeepsItsLayout(t *testing.T) {
	for _, seed := range []uint64{11, 12} {
		rng := rand.New(rand.NewPCG(seed, 3))
		var q Queue
		var pending []refEvent
		now, seq := Time(0), 0
		for step := range 6000 {
			if rng.IntN(5) < 3 || len(pending) == 0 {
				d := Time(rng.Int64N(1 << (rng.IntN(7) * 6))) // 1 ps .. 2^36 ps
				e := Event{At: now + d, Kind: uint32(seq)}
				q.Push(e)
				pending = append(pending, refEvent{e, seq})
				seq++
			} else {
				sortRef(pending)
				limit := pending[0].At
				switch rng.IntN(3) {
				case 0:
					limit-- // just before the earliest: nothing pops
				case 1:
					limit += Time(rng.Int64N(1 << 20))
				}
				got, ok := q.PopUntil(limit)
				if want := pending[0]; want.At <= limit {
					if !ok || got != want.Event {
						t.Fatalf("seed %d step %d: PopUntil(%d) = %+v, %v; want %+v", seed, step, limit, got, ok, want.Event)
					}
					pending = pending[1:]
					now = got.At
				} else if ok {
					t.Fatalf("seed %d step %d: PopUntil(%d) = %+v; the earliest is at %d", seed, step, limit, got, want.At)
				}
			}
			if err := checkInvariants(&q); err != nil {
				t.Fatalf("seed %d step %d: %v", seed, step, err)
			}
		}
	}
}

// TestPopUntilTakesAnEventAtTheLimit: PopUntil's limit is inclusive (Run
// handles events at until), from the bottom and from a bucket alike.
func TestPopUntilTakesAnEventAtTheLimit(t *testing.T) {
	var q Queue
	q.Push(Event{At: 500, Kind: 1})
	q.Push(Event{At: 1 << 30, Kind: 2})
	if e, ok := q.PopUntil(500); !ok || e.Kind != 1 {
		t.Fatalf("PopUntil(500) = %+v, %v; want the event at 500", e, ok)
	}
	if e, ok := q.PopUntil(1<<30 - 1); ok {
		t.Fatalf("PopUntil(2^30-1) = %+v; the next event is at 2^30", e)
	}
	if e, ok := q.PopUntil(1 << 30); !ok || e.Kind != 2 {
		t.Fatalf("PopUntil(2^30) = %+v, %v; want the event at 2^30", e, ok)
	}
}

// sortRef sorts events by (At, push order), the order Pop must produce.
func sortRef(p []refEvent) {
	for i := 1; i < len(p); i++ {
		for j := i; j > 0 && (p[j-1].At > p[j].At || p[j-1].At == p[j].At && p[j-1].seq > p[j].seq); j-- {
			p[j-1], p[j] = p[j], p[j-1]
		}
	}
}
