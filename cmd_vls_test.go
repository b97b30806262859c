package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vlsLaterScenario is a 5x5 torus routed by dor, whose [params] leave vls
// at its default of 1: dor needs 4 VLs there (one per set of dimensions
// whose dateline a path crosses, model/routing_dor.go), which only --set
// or a grid gives. [topology] is on line 8.
const vlsLaterScenario = `name = "vls-later-torus"
phases = 1

[params]
host_io_gbps = 16
switch_link_gbps = 16

[topology]
kind = "torus"
dims = [5, 5]

[routing]
algorithm = "dor"

[[traffic]]
name = "u"
pattern = "uniform"
arrival = "poisson"
load = 0.3
message_size = 4096
`

// TestScenarioVLsFromTheFinalConfig: a scenario file whose own [params]
// lack the VLs its routing needs is checked against the configuration that
// runs it, the file's parameters overridden by --set or by the grid: sim
// --set vls=4 and a grid whose axis or base sets vls run; a final
// configuration that still lacks them is refused at the file's line, with
// the sentence saying how many VLs to set.
func TestScenarioVLsFromTheFinalConfig(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "torus.toml")
	if err := os.WriteFile(scen, []byte(vlsLaterScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	const need = "routing dor: a 5x5 torus needs 4 VLs (one per set of dimensions whose dateline a path crosses); set vls = 4"
	out, stderr, code := ccsweep(t, "sim", "--scenario", scen, "--set", "vls=4", "--phase", "1ms", "--quiet")
	if code != 0 || !strings.HasPrefix(out, "time_s,flow,throughput_gbps\n") {
		t.Fatalf("sim --set vls=4: exit %d, %q; want the run's CSV", code, stderr)
	}
	for _, set := range [][]string{nil, {"--set", "vls=2"}} {
		args := append([]string{"sim", "--scenario", scen, "--phase", "1ms", "--quiet"}, set...)
		_, stderr, code := ccsweep(t, args...)
		if want := "ccsweep: " + scen + ":8: topology: " + need + "\n"; code != 2 || stderr != want {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", args, code, stderr, want)
		}
	}
	for _, g := range []struct{ name, sweep string }{
		{"axis", "[sweep]\nvls = [4, 8]\n"},
		{"base", "vls = 4\nseeds = 2\n"},
	} {
		grid := filepath.Join(dir, g.name+".toml")
		text := "name = \"" + g.name + "\"\nscenario = \"torus.toml\"\nphase = \"1ms\"\n" + g.sweep
		if err := os.WriteFile(grid, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(dir, g.name+".db")
		if out, stderr, code := ccsweep(t, "run", grid, "--db", db, "--quiet", "--no-report"); code != 0 {
			t.Errorf("run with vls in the grid's %s: exit %d\n%s%s", g.name, code, out, stderr)
		} else if n := doneCount(t, db); n != 2 {
			t.Errorf("run with vls in the grid's %s: %d points done; want 2", g.name, n)
		}
	}
	grid := filepath.Join(dir, "short.toml")
	if err := os.WriteFile(grid, []byte("name = \"short\"\nscenario = \"torus.toml\"\nphase = \"1ms\"\n[sweep]\nvls = [1, 4]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, code = ccsweep(t, "run", grid, "--db", filepath.Join(dir, "short.db"), "--quiet", "--no-report")
	if code != 2 || !strings.HasPrefix(stderr, "ccsweep: "+scen+":8: topology: "+need) || !strings.Contains(stderr, "vls=1") {
		t.Errorf("run with vls = [1, 4]: exit %d, %q; want exit 2, the scenario's line and the point at fault (vls=1)", code, stderr)
	}
}
