package engine

import "math/bits"

// Event is one scheduled happening: at time At, the handler runs with Kind and
// Arg, whose meaning is the handler's. Events are 16-byte values.
type Event struct {
	At   Time
	Kind uint32
	Arg  uint32
}

// Queue layout: the near future is a small sorted array (bottom); later
// events wait in a radix heap of 2^digitBits buckets per level, where an event
// sits at the level of the highest digit in which its time differs from base,
// in the bucket of its own digit there. A bucket holds every pending event of
// its time window, so when the bottom runs dry the earliest non-empty bucket
// either becomes the new bottom (when it is small and narrow) or is spread
// over the buckets of the level below.
const (
	digitBits = 6
	radix     = 1 << digitBits
	levels    = (64 + digitBits - 1) / digitBits
	// A bucket of at most bottomMax events, at a level up to bottomLevel,
	// becomes the bottom; bottomLevel bounds the bottom's window (a level-l
	// bucket spans 2^(6l) ps: 262 ns at level 3) and so what lands in it.
	bottomMax   = 48
	bottomLevel = 3
)

// Queue is a monotone priority queue of events: a radix heap with a sorted
// near-future window. Pop returns events in order of time; events of equal
// time come out in the order they were pushed. A pushed event's time must not
// be earlier than the time of the last event popped. An event is moved
// between buckets at most once per base-64 digit of the span of pending times,
// then sorted once among the few events of its window; nothing allocates once
// the buckets have grown. The zero Queue is empty and ready to use. A Queue is
// not safe for concurrent use.
type Queue struct {
	n         int
	last      Time    // time of the last event popped
	base      Time    // radix buckets are placed relative to base
	bottomEnd Time    // bottom holds every pending event earlier than this
	bottom    []Event // descending by (At, push order): the next event is last
	nonzero   [levels]uint64
	buckets   [levels][radix][]Event
}

// Len returns the number of pending events.
func (q *Queue) Len() int { return q.n }

// Push adds e. It panics if e.At is earlier than the last popped event's time.
func (q *Queue) Push(e Event) {
	if e.At < q.last {
		panic("engine: event scheduled before the current time")
	}
	q.n++
	if e.At < q.bottomEnd {
		// Before every event of equal or earlier time, since those pop
		// first and sit at the end: usually a few, passed one by one;
		// past eight, a binary search and one copy.
		b := append(q.bottom, e)
		j := len(b) - 1
		for steps := 0; j > 0 && b[j-1].At <= e.At; steps++ {
			if steps == 8 {
				i, k := 0, j
				for i < k {
					h := int(uint(i+k) >> 1)
					if b[h].At > e.At {
						i = h + 1
					} else {
						k = h
					}
				}
				copy(b[i+1:j+1], b[i:j])
				j = i
				break
			}
			b[j] = b[j-1]
			j--
		}
		b[j] = e
		q.bottom = b
		return
	}
	q.place(e)
}

func (q *Queue) place(e Event) {
	x := uint64(e.At ^ q.base)
	l := 0
	if x != 0 {
		l = (bits.Len64(x) - 1) / digitBits
	}
	d := int(uint64(e.At)>>(l*digitBits)) & (radix - 1)
	q.buckets[l][d] = append(q.buckets[l][d], e)
	q.nonzero[l] |= 1 << d
}

// Pop removes and returns the earliest event; ok is false when the queue is empty.
func (q *Queue) Pop() (e Event, ok bool) { return q.PopUntil(maxTime) }

// PopUntil is Pop limited to events at or before limit: ok is false when the
// queue is empty or its earliest event is later than limit.
func (q *Queue) PopUntil(limit Time) (e Event, ok bool) {
	if len(q.bottom) == 0 && !q.refill(limit) {
		return Event{}, false
	}
	e = q.bottom[len(q.bottom)-1]
	if e.At > limit {
		return Event{}, false
	}
	q.bottom = q.bottom[:len(q.bottom)-1]
	q.last = e.At
	q.n--
	return e, true
}

const maxTime = Time(1<<63 - 1)

// refill makes the earliest bucket the bottom, spreading larger ones over
// lower levels first. It reports false, changing nothing, when the queue is
// empty or the earliest bucket starts after limit.
func (q *Queue) refill(limit Time) bool {
	for {
		l := 0
		for l < levels && q.nonzero[l] == 0 {
			l++
		}
		if l == levels {
			return false
		}
		d := bits.TrailingZeros64(q.nonzero[l])
		shift := uint(l * digitBits)
		start := Time(uint64(q.base)&^(1<<(shift+digitBits)-1) | uint64(d)<<shift)
		if shift+digitBits >= 64 {
			start = Time(uint64(d) << shift)
		}
		if start > limit {
			return false
		}
		b := q.buckets[l][d]
		q.nonzero[l] &^= 1 << d
		q.base = start
		if l == 0 || (l <= bottomLevel && len(b) <= bottomMax) {
			// The bucket becomes the bottom; the empty bottom's array
			// becomes the bucket's.
			q.bottom, q.buckets[l][d] = b, q.bottom[:0]
			sortDescending(q.bottom)
			q.bottomEnd = start + 1<<shift
			return true
		}
		q.buckets[l][d] = b[:0]
		for _, e := range b {
			// In order, so that equal times keep their push order.
			q.place(e)
		}
	}
}

// sortDescending sorts a bucket, in push order, into bottom order: descending
// by time, and among equal times the latest pushed first (so popping from the
// end gives push order). Insertion sort: buckets that get here are small.
func sortDescending(b []Event) {
	for i := 1; i < len(b); i++ {
		x := b[i]
		j := i
		for j > 0 && b[j-1].At <= x.At {
			b[j] = b[j-1]
			j--
		}
		b[j] = x
	}
}
