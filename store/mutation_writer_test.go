package store_test

import (
	"testing"
	"time"
)

// TestWriterBatchOfOneCommitsEachResult: a batch of 1 is a batch (only
// below 1 means 64): each Write commits, with no flush due for an hour.
func TestWriterBatchOfOneCommitsEachResult(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(1, time.Hour)
	defer w.Close()
	if err := w.Write(doneResult("p1", testGrid.ID)); err != nil {
		t.Fatal(err)
	}
	waitDone(t, d, 1)
}

// TestWriterZeroFlushEveryMeansOneSecond: flushEvery 0 means one second, so
// a lone result is committed within waitDone's five seconds without Flush.
func TestWriterZeroFlushEveryMeansOneSecond(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(100, 0)
	defer w.Close()
	start := time.Now()
	if err := w.Write(doneResult("p1", testGrid.ID)); err != nil {
		t.Fatal(err)
	}
	waitDone(t, d, 1)
	if el := time.Since(start); el < 500*time.Millisecond {
		t.Errorf("committed after %v, before the default second's flush was due", el)
	}
}
