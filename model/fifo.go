package model

// fifo is a growable ring buffer of packet indices.
type fifo struct {
	buf  []int32
	head int
	n    int
}

func (q *fifo) len() int { return q.n }

func (q *fifo) push(x int32) {
	if q.n == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = x
	q.n++
}

func (q *fifo) peek() int32 { return q.buf[q.head] }

func (q *fifo) pop() int32 {
	x := q.buf[q.head]
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	return x
}

func (q *fifo) grow() {
	size := 2 * len(q.buf)
	if size == 0 {
		size = 8
	}
	buf := make([]int32, size)
	for i := 0; i < q.n; i++ {
		buf[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
	}
	q.buf, q.head = buf, 0
}
