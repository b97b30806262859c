package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScenarioFileProblemsEachOnTheirLine gives sim scenario files with
// problems: each problem is one stderr line naming the file, the line of
// the key at fault and the key, and a clos's sizes have one limit, 1 to
// 254 (a switch's ports), whichever way they are out of it.
func TestScenarioFileProblemsEachOnTheirLine(t *testing.T) {
	dir := t.TempDir()
	const clos = "[topology]\nkind = \"clos\"\nleaves = %s\nspines = 2\nhosts_per_leaf = 2\n\n"
	for _, c := range []struct {
		name, text string
		want       []string // stderr lines after "ccsweep: FILE:"
	}{
		{"two problems", strings.Replace(clos, "%s", "5000", 1) + "[[traffic]]\nname = \"a\"\npattern = \"alltoall\"\nload = 0.1\n",
			[]string{`3: topology.leaves: 5000: want a whole number from 1 to 254`,
				`10: traffic[0].load: a saturating source sends all it can; give arrival = "poisson" or "onoff" for a load`}},
		{"leaves past the ports", strings.Replace(clos, "%s", "300", 1) + "[[traffic]]\nname = \"a\"\npattern = \"alltoall\"\n",
			[]string{`3: topology.leaves: 300: want a whole number from 1 to 254`}},
		{"flow to a missing host", strings.Replace(clos, "%s", "2", 1) + "[[flow]]\nname = \"F1\"\nsrc = \"H1\"\ndst = \"nowhere\"\n",
			[]string{`10: flow[0].dst: "nowhere" is not a host of the topology`}},
		{"flow starting at the end", "phases = 2\n" + strings.Replace(clos, "%s", "2", 1) + "[[flow]]\nname = \"F1\"\nsrc = \"H1\"\ndst = \"H2\"\nstart_phase = 2\n",
			[]string{`12: flow[0].start_phase: 2: the scenario has 2 phases (0 to 1); a flow starting at the end never sends`}},
		{"traffic starting past the end", strings.Replace(clos, "%s", "2", 1) + "[[traffic]]\nname = \"a\"\npattern = \"alltoall\"\nstart_phase = 5\n",
			[]string{`10: traffic[0].start_phase: 5: the scenario has 1 phase (0 to 0); a traffic starting at the end never sends`}},
		{"flow from a missing host", strings.Replace(clos, "%s", "2", 1) + "[[flow]]\nname = \"F1\"\nsrc = \"nowhere\"\ndst = \"H1\"\n",
			[]string{`9: flow[0].src: "nowhere" is not a host of the topology`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".toml")
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := ccsweep(t, "sim", "--scenario", path, "--phase", "1ms")
			var want []string
			for _, w := range c.want {
				want = append(want, "ccsweep: "+path+":"+w)
			}
			if code != exitUsage || strings.TrimSpace(stderr) != strings.Join(want, "\n") {
				t.Errorf("exit %d, stderr:\n%s\nwant 2 and:\n%s", code, stderr, strings.Join(want, "\n"))
			}
		})
	}
}

// TestGridStartPhasePastTheEndIsRefused sweeps a traffic's start_phase of a
// two-phase scenario to 2, the end of the run: the grid is refused at that
// key, as a point whose traffic never sends would have only null metrics.
func TestGridStartPhasePastTheEndIsRefused(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "s.toml"), []byte("phases = 2\n[topology]\nkind = \"clos\"\nleaves = 2\nspines = 2\nhosts_per_leaf = 2\n\n[[traffic]]\nname = \"a\"\npattern = \"alltoall\"\n"), 0o644)
	grid := filepath.Join(dir, "g.toml")
	os.WriteFile(grid, []byte("name = \"g\"\nscenario = \"s.toml\"\nphase = \"1ms\"\n[sweep]\n\"a.start_phase\" = [0, 1, 2]\n"), 0o644)
	_, stderr, code := ccsweep(t, "run", grid, "--dry-run")
	want := "ccsweep: " + grid + ":5: sweep.a.start_phase: 2: out of range 0..1"
	if code != exitUsage || strings.TrimSpace(stderr) != want {
		t.Errorf("exit %d, stderr %q; want 2, %q", code, stderr, want)
	}
}

// TestTrafficMisfitAtItsLineEveryCommand: a traffic whose pattern does
// not fit the topology's host count (bitreverse on the 9 hosts of a
// fattree of k 3) is one stderr line at the traffic's pattern, line 10,
// whichever command reads the file (sim --scenario, fabric FILE, a grid's
// scenario = FILE): exit 2, nothing on stdout, no file written.
func TestTrafficMisfitAtItsLineEveryCommand(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "misfit.toml")
	os.WriteFile(scen, []byte("name = \"misfit\"\nphases = 1\n\n[topology]\nkind = \"fattree\"\nk = 3\n\n[[traffic]]\nname = \"t1\"\npattern = \"bitreverse\"\n"), 0o644)
	grid := filepath.Join(dir, "g.toml")
	os.WriteFile(grid, []byte("name = \"g\"\nscenario = \"misfit.toml\"\nphase = \"1ms\"\n"), 0o644)
	want := "ccsweep: " + scen + ":10: traffic[0].pattern: bitreverse needs a power of two hosts, not 9\n"
	for _, args := range [][]string{
		{"sim", "--scenario", scen, "--phase", "1ms"},
		{"fabric", scen},
		{"run", grid, "--db", filepath.Join(dir, "r.db")},
	} {
		t.Run(args[0], func(t *testing.T) {
			stdout, stderr, code := ccsweep(t, args...)
			if code != exitUsage || stderr != want || stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 2 {
				t.Errorf("%d files in the directory, want the 2 inputs: %v", len(entries), entries)
			}
		})
	}
}
