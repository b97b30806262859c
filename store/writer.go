package store

import (
	"context"
	"sync"
	"time"
)

// Writer is the single writer of results: one goroutine that commits them in
// batches, one transaction per batch. Write, Flush and Close are safe to call
// from any number of goroutines.
//
// A result is durable once the batch holding it has committed: after Flush or
// Close returns nil, or at most flushEvery after Write. If a batch fails to
// commit, the Writer stops: that batch and any later results are not stored,
// and Write, Flush and Close return the error. Unstored points have no done
// result, so a rerun simulates them again.
type Writer struct {
	db      *DB
	batch   int
	every   time.Duration
	in      chan writeRequest
	stopped chan struct{} // closed when run returns
	err     error         // why run stopped; read only after stopped is closed

	mu     sync.RWMutex // guards closed and sends on in against close(in)
	closed bool
}

// writeRequest is a result to write or, if flushed is not nil, a request to
// commit what is pending and report the outcome on flushed.
type writeRequest struct {
	result  Result
	flushed chan error
}

// NewWriter starts a Writer that commits a batch when it holds batch results
// or flushEvery after the last commit, whichever comes first. A batch below 1
// means 64; a flushEvery not above 0 means one second. Close the Writer before
// the DB.
func (d *DB) NewWriter(batch int, flushEvery time.Duration) *Writer {
	if batch < 1 {
		batch = 64
	}
	if flushEvery <= 0 {
		flushEvery = time.Second
	}
	w := &Writer{
		db:      d,
		batch:   batch,
		every:   flushEvery,
		in:      make(chan writeRequest, batch),
		stopped: make(chan struct{}),
	}
	go w.run()
	return w
}

// Write queues r to be stored; it blocks only while the queue is full. It
// returns an error at once if r is invalid (empty IDs, bad status, repeated
// parameter or flow names, unknown metric names), ErrClosed after Close, or
// the error that stopped the Writer. The Writer owns r's slices and map from
// then on: the caller must not modify them.
func (w *Writer) Write(r Result) error {
	if err := r.validate(); err != nil {
		return err
	}
	return w.send(writeRequest{result: r})
}

// Save stores r and returns once it is committed, or with the error that
// stopped the Writer: Write, then Flush. Results that several goroutines
// save at once share one commit.
func (w *Writer) Save(r Result) error {
	if err := w.Write(r); err != nil {
		return err
	}
	return w.Flush()
}

// Flush commits every result written so far and returns once they are
// durable, or with the error that stopped the Writer.
func (w *Writer) Flush() error {
	flushed := make(chan error, 1)
	if err := w.send(writeRequest{flushed: flushed}); err != nil {
		return err
	}
	select {
	case err := <-flushed:
		return err
	case <-w.stopped:
		return w.err
	}
}

func (w *Writer) send(req writeRequest) error {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return ErrClosed
	}
	select {
	case <-w.stopped:
		return w.err
	default:
	}
	select {
	case w.in <- req:
		return nil
	case <-w.stopped:
		return w.err
	}
}

// Close commits every result written so far, stops the Writer and returns the
// first error it met. Calling Close again returns the same error.
func (w *Writer) Close() error {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.in)
	}
	w.mu.Unlock()
	<-w.stopped
	return w.err
}

func (w *Writer) run() {
	defer close(w.stopped)
	tick := time.NewTicker(w.every)
	defer tick.Stop()
	pending := make([]Result, 0, w.batch)
	commit := func() bool {
		if len(pending) == 0 {
			return true
		}
		if err := w.db.SaveResults(context.Background(), pending); err != nil {
			w.err = err
			return false
		}
		clear(pending) // drop references to the results' slices
		pending = pending[:0]
		tick.Reset(w.every)
		return true
	}
	for {
		select {
		case req, ok := <-w.in:
			switch {
			case !ok:
				commit()
				return
			case req.flushed != nil:
				if !commit() {
					return // Flush sees stopped closed and returns w.err
				}
				req.flushed <- nil
			default:
				pending = append(pending, req.result)
				if len(pending) >= w.batch && !commit() {
					return
				}
			}
		case <-tick.C:
			if !commit() {
				return
			}
		}
	}
}
