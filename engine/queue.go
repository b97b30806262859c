package engine

import "math/bits"

// Event is one scheduled happening: at time At, the handler runs with Kind and
// Arg, whose meaning is the handler's. Events are 16-byte values.
type Event struct {
	At   Time
	Kind uint32
	Arg  uint32
}

// Queue layout: time is cut into slots of 2^slotBits ps (4.1 ns). The slot
// being run is the bottom, a small array sorted once; the next wheelSize-1
// slots (16.8 µs) are a timing wheel, each slot an unsorted array of its
// events in push order, found through a two-level bitmap; anything later
// waits in a radix heap (far) and moves into the wheel, once, when its slot
// comes within reach. A packet network's events (arrivals, credit updates,
// link wake-ups) fall a few hundred nanoseconds ahead, so nearly every event
// is appended once to its own slot and sorted once among the few that share
// it.
const (
	slotBits   = 12
	wheelBits  = 12
	wheelSize  = 1 << wheelBits
	wheelMask  = wheelSize - 1
	insertSort = 32 // slots of up to this many events are insertion-sorted
)

// Queue is a monotone priority queue of events. Pop returns events in order
// of time; events of equal time come out in the order they were pushed. A
// pushed event's time must not be earlier than the time of the last event
// popped. Nothing allocates once the slots have grown. The zero Queue is
// empty and ready to use. A Queue is not safe for concurrent use.
type Queue struct {
	n      int
	last   Time    // time of the last event popped
	cur    int64   // the bottom's slot; the wheel holds slots cur+1 .. cur+wheelSize-1
	bottom []Event // slot cur's events, descending by (At, push order): the next is last
	wheel  [wheelSize][]Event
	used   [wheelSize / 64]uint64 // bit s&63 of word s>>6: wheel slot s is not empty
	words  uint64                 // bit w: used[w] != 0
	far    radixQueue             // events of slots from cur+wheelSize on
	sorted []Event                // scratch for sorting large slots
}

func slotOf(t Time) int64 { return int64(t) >> slotBits }

// Len returns the number of pending events.
func (q *Queue) Len() int { return q.n }

// Push adds e. It panics if e.At is earlier than the last popped event's time.
func (q *Queue) Push(e Event) {
	if e.At < q.last {
		panic("engine: event scheduled before the current time")
	}
	q.n++
	switch s := slotOf(e.At); {
	case s <= q.cur:
		q.insertBottom(e)
	case s < q.cur+wheelSize:
		i := int(s & wheelMask)
		q.wheel[i] = append(q.wheel[i], e)
		q.used[i>>6] |= 1 << (i & 63)
		q.words |= 1 << (i >> 6)
	default:
		q.far.Push(e)
	}
}

// insertBottom puts e before every event of equal or earlier time, since
// those pop first and sit at the end: usually a few, passed one by one; past
// eight, a binary search and one copy.
func (q *Queue) insertBottom(e Event) {
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

// refill makes the next non-empty slot the bottom. It reports false,
// changing nothing, when the queue is empty or that slot starts after
// limit.
func (q *Queue) refill(limit Time) bool {
	s, ok := q.nextSlot()
	if !ok {
		at, ok := q.far.first()
		if !ok {
			return false
		}
		s = slotOf(at)
	}
	if Time(s<<slotBits) > limit {
		return false
	}
	q.cur = s
	// Far events whose slots are now within reach enter the wheel before
	// anything else can be pushed there, so that in every slot the far
	// ones, pushed earlier, stay first.
	reach := Time((s+wheelSize)<<slotBits) - 1
	for {
		e, ok := q.far.PopUntil(reach)
		if !ok {
			break
		}
		i := int(slotOf(e.At) & wheelMask)
		q.wheel[i] = append(q.wheel[i], e)
		q.used[i>>6] |= 1 << (i & 63)
		q.words |= 1 << (i >> 6)
	}
	i := int(s & wheelMask)
	q.bottom, q.wheel[i] = q.wheel[i], q.bottom[:0]
	if q.used[i>>6] &^= 1 << (i & 63); q.used[i>>6] == 0 {
		q.words &^= 1 << (i >> 6)
	}
	q.sortBottom()
	return true
}

// nextSlot returns the earliest non-empty wheel slot.
func (q *Queue) nextSlot() (int64, bool) {
	if q.words == 0 {
		return 0, false
	}
	from := int((q.cur + 1) & wheelMask)
	p, ok := q.firstUsed(from)
	if !ok {
		p, _ = q.firstUsed(0) // the wheel wraps
	}
	return q.cur + 1 + int64((p-from)&wheelMask), true
}

// firstUsed returns the first non-empty wheel position at or after from.
func (q *Queue) firstUsed(from int) (int, bool) {
	w := from >> 6
	if m := q.used[w] &^ (1<<(from&63) - 1); m != 0 {
		return w<<6 | bits.TrailingZeros64(m), true
	}
	if w == 63 {
		return 0, false
	}
	m := q.words &^ (1<<(w+1) - 1)
	if m == 0 {
		return 0, false
	}
	w = bits.TrailingZeros64(m)
	return w<<6 | bits.TrailingZeros64(q.used[w]), true
}

// sortBottom sorts a slot's events, in push order, into bottom order:
// descending by time, and among equal times the latest pushed first (so
// popping from the end gives push order). A few are insertion-sorted; more
// are sorted stably by the time within the slot (two passes of six bits)
// and reversed.
func (q *Queue) sortBottom() {
	b := q.bottom
	if len(b) <= insertSort {
		for i := 1; i < len(b); i++ {
			x := b[i]
			j := i
			for j > 0 && b[j-1].At <= x.At {
				b[j] = b[j-1]
				j--
			}
			b[j] = x
		}
		return
	}
	if cap(q.sorted) < len(b) {
		q.sorted = make([]Event, len(b))
	}
	tmp := q.sorted[:len(b)]
	src, dst := b, tmp
	for shift := 0; shift < slotBits; shift += 6 {
		var count [65]int
		for _, e := range src {
			count[int(e.At>>shift&63)+1]++
		}
		for d := 1; d < 65; d++ {
			count[d] += count[d-1]
		}
		for _, e := range src {
			d := int(e.At >> shift & 63)
			dst[count[d]] = e
			count[d]++
		}
		src, dst = dst, src
	}
	// Two passes: the ascending order is back in b.
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}
