package model

import (
	"testing"
)

// TestMutFifoKeepsItsOrderAcrossGrowth fills a fifo, wraps it (pops three,
// pushes three), then makes it grow while wrapped: every value comes out
// in the order it went in, as a FIFO's must.
// Kills fifo.go:36 `q.head+i` turned into `q.head-i` (the copy made when
// growing reads the ring backwards).
func TestMutFifoKeepsItsOrderAcrossGrowth(t *testing.T) {
	var q fifo
	var want []int32
	next := int32(0)
	push := func(k int) {
		for range k {
			q.push(next)
			want = append(want, next)
			next++
		}
	}
	push(8) // the first buffer, full
	for range 3 {
		if got := q.pop(); got != want[0] {
			t.Fatalf("pop %d, want %d", got, want[0])
		}
		want = want[1:]
	}
	push(3)  // wraps round the full buffer
	push(10) // grows it twice while wrapped
	for len(want) > 0 {
		if got := q.pop(); got != want[0] {
			t.Fatalf("pop %d, want %d (fifo order lost when the ring grew)", got, want[0])
		}
		want = want[1:]
	}
	if q.len() != 0 {
		t.Errorf("%d left", q.len())
	}
}
