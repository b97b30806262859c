package engine

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// refEvent is an event with the sequence number the radix heap keeps
// implicitly; sorting by (At, seq) gives the order Pop must produce.
type refEvent struct {
	Event
	seq int
}

func TestQueueMatchesTimeSequenceOrder(t *testing.T) {
	// Seeds 1-3 stress equal times and spans up to a second; 42 and 2026
	// spans of 256 ps to 134 µs, where a packet network's events fall.
	for _, seed := range []uint64{1, 2, 3, 42, 2026} {
		rng := rand.New(rand.NewPCG(seed, 7))
		wide := seed > 3
		var q Queue
		var pending []refEvent
		now, seq := Time(0), 0
		for step := 0; step < 20000; step++ {
			if rng.IntN(3) > 0 || len(pending) == 0 {
				// Many equal times: small spans, sometimes exactly now.
				var d Time
				switch rng.IntN(4) {
				case 0:
					d = 0
				case 1:
					d = Time(rng.IntN(4))
				case 2:
					d = Time(rng.IntN(1000))
				default:
					d = Time(rng.Int64N(1 << 40))
				}
				if wide && d > 3 {
					d = Time(rng.Int64N(1 << (8 + rng.IntN(20)))) // 256 ps .. 134 µs
				}
				e := Event{At: now + d, Kind: uint32(seq), Arg: uint32(seed)}
				q.Push(e)
				pending = append(pending, refEvent{e, seq})
				seq++
				continue
			}
			sort.SliceStable(pending, func(i, j int) bool {
				if pending[i].At != pending[j].At {
					return pending[i].At < pending[j].At
				}
				return pending[i].seq < pending[j].seq
			})
			want := pending[0].Event
			pending = pending[1:]
			got, ok := q.Pop()
			if !ok || got != want {
				t.Fatalf("seed %d step %d: Pop = %+v, %v; want %+v", seed, step, got, ok, want)
			}
			now = got.At
			if q.Len() != len(pending) {
				t.Fatalf("seed %d: Len = %d, want %d", seed, q.Len(), len(pending))
			}
		}
	}
}

func TestQueueEqualTimesFIFO(t *testing.T) {
	var q Queue
	// Pushed in an order whose bucket placement differs: the same time
	// reached through different 'last' values must still come out FIFO.
	q.Push(Event{At: 100, Kind: 1})
	q.Push(Event{At: 5, Kind: 0})
	q.Push(Event{At: 100, Kind: 2})
	if e, _ := q.Pop(); e.Kind != 0 {
		t.Fatalf("first pop kind %d, want 0", e.Kind)
	}
	q.Push(Event{At: 100, Kind: 3})
	q.Push(Event{At: 64, Kind: 9})
	q.Push(Event{At: 100, Kind: 4})
	var got []uint32
	for {
		e, ok := q.Pop()
		if !ok {
			break
		}
		got = append(got, e.Kind)
	}
	want := []uint32{9, 1, 2, 3, 4}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestQueuePushIntoPastPanics(t *testing.T) {
	var q Queue
	q.Push(Event{At: 10})
	q.Pop()
	defer func() {
		if recover() == nil {
			t.Fatal("Push before the last popped time did not panic")
		}
	}()
	q.Push(Event{At: 9})
}

func TestPopUntilLeavesLaterEventsSchedulable(t *testing.T) {
	var q Queue
	q.Push(Event{At: 1000})
	if _, ok := q.PopUntil(500); ok {
		t.Fatal("PopUntil(500) returned an event at 1000")
	}
	// The clock may now sit anywhere up to 500; scheduling there must work.
	q.Push(Event{At: 600, Kind: 1})
	e, ok := q.Pop()
	if !ok || e.At != 600 {
		t.Fatalf("Pop = %+v, %v; want the event at 600", e, ok)
	}
}

func TestQueueSteadyStateAllocatesNothing(t *testing.T) {
	var q Queue
	rng := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 1000; i++ {
		q.Push(Event{At: Time(rng.Int64N(1e6))})
	}
	allocs := testing.AllocsPerRun(10000, func() {
		e, _ := q.Pop()
		q.Push(Event{At: e.At + Time(rng.Int64N(1e6))})
	})
	if allocs != 0 {
		t.Fatalf("hold step allocates %.2f times, want 0", allocs)
	}
}

// TestQueueBurstsAndWraps pushes bursts of up to 300 events within 12 ns
// (buckets too big for the bottom) and events up to 50 µs ahead, popping
// between bursts so that the base moves past many bucket boundaries, and
// checks the order against (At, push order).
func TestQueueBurstsAndWraps(t *testing.T) {
	const near, far = 3 * 4096, 3 * 4096 * 4096 // ps: 12.3 ns, 50.3 µs
	for _, seed := range []uint64{5, 6, 7} {
		rng := rand.New(rand.NewPCG(seed, 9))
		var q Queue
		var pending []refEvent
		now, seq := Time(0), 0
		for round := 0; round < 300; round++ {
			for range rng.IntN(300) {
				var d Time
				if rng.IntN(4) == 0 {
					d = Time(rng.Int64N(far))
				} else {
					d = Time(rng.Int64N(near))
				}
				e := Event{At: now + d, Kind: uint32(seq)}
				q.Push(e)
				pending = append(pending, refEvent{e, seq})
				seq++
			}
			sort.SliceStable(pending, func(i, j int) bool {
				if pending[i].At != pending[j].At {
					return pending[i].At < pending[j].At
				}
				return pending[i].seq < pending[j].seq
			})
			for range rng.IntN(len(pending) + 1) {
				got, ok := q.Pop()
				if !ok || got != pending[0].Event {
					t.Fatalf("seed %d round %d: Pop = %+v, %v; want %+v", seed, round, got, ok, pending[0].Event)
				}
				pending = pending[1:]
				now = got.At
			}
		}
	}
}
