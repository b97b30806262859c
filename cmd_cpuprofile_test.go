package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCPUProfileAppearsWhole: while a profile is being recorded, its path
// shows what it held before (here: an older profile), never a part of the
// new one, so that a run killed before it stops leaves no half profile;
// once stopped, the path holds the whole new profile (gzip).
func TestCPUProfileAppearsWhole(t *testing.T) {
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.out")
	old := []byte("an older profile")
	if err := os.WriteFile(prof, old, 0o644); err != nil {
		t.Fatal(err)
	}
	stop, err := startCPUProfile(prof)
	if err != nil {
		t.Fatal(err)
	}
	for range 3_000_000 { // something to sample
		_ = filepath.Join(dir, "x")
	}
	b, err := os.ReadFile(prof)
	if err != nil || string(b) != string(old) {
		stop()
		t.Fatalf("while recording, %s holds %d bytes (%v); want the older file untouched until the profile is whole", prof, len(b), err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	b, err = os.ReadFile(prof)
	if err != nil || len(b) < 20 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("after stop: %d bytes, %v; want a gzip-compressed pprof profile", len(b), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the directory holds %v; want only cpu.out (no temporary file left)", names)
	}
}
