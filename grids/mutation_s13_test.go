package grids_test

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
)

// A scenario file's defaults: traffics without a name are t1, t2, ... in
// file order, an on-off traffic without a burst has bursts of 10 µs on
// average, and an app's overheads may be 0. A mesh may have three
// dimensions. Kills scenfile.go's default name `i+1` turned into `i-1`,
// the default burst's `10*engine.Microsecond` into `/`, scenfile_app.go's
// durZero `v < 0` into `<=`, and the dims' `len(list) > 3` into `>=`.
func TestScenarioFileDefaultsAtTheirEdges(t *testing.T) {
	const topo = "[topology]\nkind = \"fattree\"\nk = 2\n"
	sc, _, err := grids.ParseScenario("s.toml", []byte(topo+
		"[[traffic]]\npattern = \"uniform\"\narrival = \"onoff\"\nload = 0.5\n"+
		"[[traffic]]\npattern = \"uniform\"\nsources = [\"H1\"]\n"+
		"[[app]]\nprogram = \"ring\"\nsend_overhead = \"0s\"\nrecv_overhead = \"0ns\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Config()
	ts, err := sc.TrafficFor(&c)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Name != "t1" || ts[1].Name != "t2" {
		t.Fatalf("traffic names %v, want t1 and t2", ts)
	}
	if ts[0].Burst != 10*engine.Microsecond {
		t.Errorf("an onoff traffic without a burst: burst %v, want 10us", ts[0].Burst)
	}
	if apps := sc.AppsFor(&c); len(apps) != 1 || apps[0].SendOverhead != 0 || apps[0].RecvOverhead != 0 {
		t.Errorf("apps %+v, want one with no send or receive overhead", apps)
	}
	if _, _, err := grids.ParseScenario("m.toml", []byte("[topology]\nkind = \"mesh\"\ndims = [2, 2, 2]\n[[traffic]]\npattern = \"uniform\"\n"), nil); err != nil {
		t.Errorf("a 2x2x2 mesh: %v", err)
	}
}
