package main

import (
	"bytes"
	"os"
	"path/filepath"
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

// TestSimCPUProfile: --cpuprofile writes a pprof profile (gzip) of the run;
// a file that cannot be created is bad usage, before anything runs.
func TestSimCPUProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.out")
	if _, stderr, code := ccsweep(t, "sim", "--scenario", "clos648-hotspot", "--phase", "1ms", "--quiet", "--cpuprofile", prof); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	b, err := os.ReadFile(prof)
	if err != nil || len(b) < 100 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile: %d bytes, %v; want a gzip-compressed pprof profile", len(b), err)
	}
	_, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s1", "--phase", "1ms", "--cpuprofile", filepath.Join(t.TempDir(), "no", "cpu.out"))
	if code != 2 || !strings.Contains(stderr, "--cpuprofile") {
		t.Errorf("unwritable profile: exit %d, %q; want 2 and a sentence naming --cpuprofile", code, stderr)
	}
}
