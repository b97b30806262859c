package grids_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A grid over a scenario file starts from the file's [params] (here
// host_io_gbps = 16), which its where constraints see.
func TestWhereSeesTheScenarioFilesParams(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "scenarios", "ft-hotspot.toml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ft-hotspot.toml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "g.toml")
	grid := "name = \"g\"\nscenario = \"ft-hotspot.toml\"\nwhere = [\"host_io_gbps == 16\"]\n[sweep]\n\"bg.load\" = [0.1, 0.3]\n"
	if err := os.WriteFile(p, []byte(grid), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := grids.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Points()); n != 2 {
		t.Errorf("%d points where host_io_gbps == 16, want both (the file sets 16)", n)
	}
}
