package grids_test

import (
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A grid over a scenario file starts from the file's [params] (here
// host_io_gbps = 16), which its where constraints see.
func TestWhereSeesTheScenarioFilesParams(t *testing.T) {
	p := gridBesideScenario(t, "name = \"g\"\nscenario = \"ft-hotspot.toml\"\nwhere = [\"host_io_gbps == 16\"]\n[sweep]\n\"bg.load\" = [0.1, 0.3]\n")
	g, err := grids.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Points()); n != 2 {
		t.Errorf("%d points where host_io_gbps == 16, want both (the file sets 16)", n)
	}
}
