package main

import (
	"path/filepath"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// TestExamplesParse: every example grid (and the scenario files it names)
// reads without a problem, so the examples never rot.
func TestExamplesParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("examples", "*.toml"))
	if err != nil || len(files) < 8 {
		t.Fatalf("examples: %v, %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			g, err := grids.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			if g.Count() == 0 {
				t.Error("no points")
			}
		})
	}
}
