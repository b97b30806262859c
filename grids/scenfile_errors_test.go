package grids_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// TestScenarioProblemsAreTyped: every way a scenario file is read
// (--scenario, a grid's scenario key) reports a bad file as a *grids.Error
// whose problems carry the file, line and key at fault, which a caller
// reads with errors.As; a file that cannot be read is no *grids.Error
// from LoadScenario, and the grid's own line from Load.
func TestScenarioProblemsAreTyped(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	// Line 4 is [topology]: a problem only the built network finds (a
	// torus routed by dor needs more VLs) is reported there.
	vls := write("vls.toml", "name = \"vls\"\nphases = 1\n\n[topology]\nkind = \"torus\"\ndims = [5, 5]\n[[traffic]]\npattern = \"uniform\"\n")
	// Line 3: a host the topology lacks, at the flow's dst.
	host := write("host.toml", "[topology]\nkind = \"fattree\"\nk = 2\n[[flow]]\nsrc = \"H1\"\ndst = \"H9\"\n")
	grid := write("g.toml", "name = \"g\"\n\nscenario = \"vls.toml\"\n")
	missing := write("m.toml", "name = \"m\"\nscenario = \"gone.toml\"\n")

	want := func(t *testing.T, err error, file string, line int, key string) grids.Problem {
		t.Helper()
		var ge *grids.Error
		if !errors.As(err, &ge) {
			t.Fatalf("error %v (%T), want a *grids.Error", err, err)
		}
		p := ge.Problems[0]
		if p.File != file || p.Line != line || p.Key != key {
			t.Fatalf("problem %+v, want file %s, line %d, key %q", p, file, line, key)
		}
		return p
	}
	t.Run("model's problem at the topology", func(t *testing.T) {
		// The file loads (--set or a grid may give the VLs); the
		// configuration that would run it is refused at its line.
		sc, err := grids.LoadScenario(vls)
		if err != nil {
			t.Fatalf("load: %v; want the VLs left to the final configuration", err)
		}
		p := want(t, grids.CheckScenarioConfig(sc, sc.Config()), vls, 4, "topology")
		if strings.HasPrefix(p.Msg, "bad scenario") || !strings.Contains(p.Msg, "set vls") {
			t.Fatalf("message %q: want the model's reason (set vls), without its class", p.Msg)
		}
	})
	t.Run("flow host at its dst", func(t *testing.T) {
		_, err := grids.LoadScenario(host)
		p := want(t, err, host, 6, "flow[0].dst")
		if p.Msg != `"H9" is not a host of the topology` {
			t.Fatalf("message %q", p.Msg)
		}
	})
	t.Run("a grid's scenario names the scenario file", func(t *testing.T) {
		_, err := grids.Load(grid)
		if p := want(t, err, vls, 4, "topology"); strings.Contains(p.Msg, "(at") {
			t.Fatalf("message %q names a point of a grid without axes", p.Msg)
		}
	})
	t.Run("a swept grid's problem names the point", func(t *testing.T) {
		swept := write("swept.toml", "name = \"s\"\nscenario = \"vls.toml\"\n[sweep]\nvls = [8, 1]\nmarking_rate = [1, 2]\n")
		_, err := grids.Load(swept)
		if p := want(t, err, vls, 4, "topology"); !strings.HasSuffix(p.Msg, " (at vls=1 marking_rate=1)") {
			t.Fatalf("message %q, want it to end with the first point that lacks VLs, (at vls=1 marking_rate=1)", p.Msg)
		}
	})
	t.Run("an unreadable scenario of a grid at the grid's line", func(t *testing.T) {
		_, err := grids.Load(missing)
		p := want(t, err, missing, 2, "scenario")
		if !strings.HasPrefix(p.Msg, "read scenario: ") || !strings.Contains(p.Msg, "gone.toml") {
			t.Fatalf("message %q", p.Msg)
		}
	})
	t.Run("an unreadable scenario file", func(t *testing.T) {
		_, paths, err := grids.LoadScenarioFiles(filepath.Join(dir, "gone.toml"))
		var ge *grids.Error
		if err == nil || errors.As(err, &ge) || !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("error %v (%T), want one wrapping fs.ErrNotExist, not a *grids.Error", err, err)
		}
		if len(paths) != 1 || paths[0] != filepath.Join(dir, "gone.toml") {
			t.Fatalf("files %v", paths)
		}
	})
}

// TestTrafficProblemsAtTheirField: a traffic that only the built topology
// finds wrong (a pattern for another host count, a host it lacks, more hot
// nodes or senders than hosts) is reported at that traffic's own key, on
// the key's line (the [[traffic]] line when the file leaves the key out),
// with the reason alone: no "bad scenario", no registered name, not at
// topology. A fattree of k 2 has the 4 hosts H1..H4, of k 3 the 9 hosts
// H1..H9.
func TestTrafficProblemsAtTheirField(t *testing.T) {
	const k2 = "[topology]\nkind = \"fattree\"\nk = 2\n\n" // [[traffic]] at line 5
	const k3 = "[topology]\nkind = \"fattree\"\nk = 3\n\n"
	tests := []struct {
		name, text string
		line       int
		key, msg   string
	}{
		{"bitreverse on 9 hosts", k3 + "[[traffic]]\nname = \"t1\"\npattern = \"bitreverse\"\n",
			7, "traffic[0].pattern", "bitreverse needs a power of two hosts, not 9"},
		{"the second traffic", k3 + "[[traffic]]\npattern = \"uniform\"\n\n[[traffic]]\nname = \"b\"\npattern = \"butterfly\"\n",
			10, "traffic[1].pattern", "butterfly needs a power of two hosts (at least 4), not 9"},
		{"a source the topology lacks", k2 + "[[traffic]]\npattern = \"uniform\"\nsources = [\"H1\", \"H7\"]\n",
			7, "traffic[0].sources", `"H7" is not a host of the topology`},
		{"a hot host the topology lacks", k2 + "[[traffic]]\npattern = \"incast\"\nhot = [\"H5\"]\n",
			7, "traffic[0].hot", `"H5" is not a host of the topology`},
		{"as many hot nodes as hosts", k2 + "[[traffic]]\npattern = \"incast\"\nhot_nodes = 4\n",
			7, "traffic[0].hot_nodes", "4: want fewer than the 4 hosts"},
		{"more senders than hosts", k2 + "[[traffic]]\npattern = \"incast\"\nsenders = 4\n",
			7, "traffic[0].senders", "4: only 3 hosts can send"},
		// Two hosts, one hot by default (the middle of the host order, H2):
		// H1 has no cold host left, and the file gives no hot_nodes: its
		// [[traffic]] line.
		{"hot_nodes left out", "[topology]\nkind = \"clos\"\nleaves = 1\nspines = 1\nhosts_per_leaf = 2\n[[traffic]]\npattern = \"hotspot\"\narrival = \"poisson\"\nload = 0.5\n",
			6, "traffic[0].hot_nodes", "H1 sends part of its load to the hosts that are not hot, but every other host is hot (1 of 2): fewer hot nodes, or hotspot_fraction 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "s.toml")
			if err := os.WriteFile(path, []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := grids.LoadScenario(path)
			var ge *grids.Error
			if !errors.As(err, &ge) {
				t.Fatalf("error %v (%T), want a *grids.Error", err, err)
			}
			want := grids.Problem{File: path, Line: tt.line, Key: tt.key, Msg: tt.msg}
			if len(ge.Problems) != 1 || ge.Problems[0] != want {
				t.Fatalf("problems %+v\nwant one: %+v", ge.Problems, want)
			}
		})
	}
}
