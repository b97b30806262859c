package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
)

// TestSimProgressLine checks sim's status line: nothing in the first two
// seconds, then the simulated time against the end, the rate and an ETA
// that follow from them, and a cleared line at the end.
func TestSimProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := newSimProgress(&b)
	p.Update(10*engine.Millisecond, 500*engine.Millisecond)
	if b.Len() != 0 {
		t.Fatalf("printed %q within two seconds", b.String())
	}
	p.start = time.Now().Add(-4 * time.Second) // 100 ms simulated in 4 s: 25 ms/s, 16 s to go
	p.Update(100*engine.Millisecond, 500*engine.Millisecond)
	line := b.String()
	for _, want := range []string{"simulated 100ms of 500ms (20%)", "25 ms per second", "ETA 16s"} {
		if !strings.Contains(line, want) {
			t.Errorf("line %q lacks %q", line, want)
		}
	}
	b.Reset()
	p.Update(110*engine.Millisecond, 500*engine.Millisecond) // within half a second: no redraw
	if b.Len() != 0 {
		t.Errorf("redrew %q within half a second", b.String())
	}
	p.Finish()
	if b.String() != "\r\x1b[K" {
		t.Errorf("Finish wrote %q; want the line cleared", b.String())
	}
	for s, want := range map[float64]string{2.5: "2.5 s", 0.0123: "12.3 ms", 4.2e-5: "42 µs"} {
		if got := seconds(s); got != want {
			t.Errorf("seconds(%g) = %q; want %q", s, got, want)
		}
	}
}
