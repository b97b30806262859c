package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
)

// Without a terminal, progress is a line every ten seconds and one at the
// end, with the time left at the rate so far.
func TestProgressLines(t *testing.T) {
	var w bytes.Buffer
	p := newProgress(&w)
	p.Start(3)
	p.Done(grids.Point{}, false)
	if w.Len() != 0 {
		t.Fatalf("a line before ten seconds: %q", w.String())
	}
	// Ten seconds pass with one of three points done: 0.1 points/s, so the
	// other two take 20 s.
	p.start, p.last = p.start.Add(-10*time.Second), p.last.Add(-10*time.Second)
	p.Done(grids.Point{}, true)
	if !strings.HasPrefix(w.String(), "2/3 points (67%), 1 failed, 0.20 points/s, elapsed 10s, ETA 5s\n") {
		t.Fatalf("line %q", w.String())
	}
	w.Reset()
	p.Done(grids.Point{}, false)
	if !strings.HasPrefix(w.String(), "3/3 points (100%), 1 failed,") || !strings.HasSuffix(w.String(), "ETA 0s\n") {
		t.Fatalf("last line %q", w.String())
	}
}

// A run's progress on a terminal says nothing until the simulation has
// moved: at simulated time 0 there is no rate to tell.
func TestSimProgressWaitsForSimulatedTime(t *testing.T) {
	var w bytes.Buffer
	p := newSimProgress(&w)
	p.start = p.start.Add(-3 * time.Second)
	p.Update(0, engine.Second)
	if w.Len() != 0 {
		t.Fatalf("at time 0: %q", w.String())
	}
	p.Update(engine.Second/4, engine.Second)
	if !strings.Contains(w.String(), "(25%)") || !strings.Contains(w.String(), "ETA 9s") {
		t.Fatalf("a quarter done after 3 s: %q", w.String())
	}
}
