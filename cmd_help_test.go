package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestHelpCommand checks that `ccsweep help CMD` works for every command
// and prints what `ccsweep CMD --help` does, and that an unknown command
// is bad usage.
func TestHelpCommand(t *testing.T) {
	for _, cmd := range newApp(io.Discard, io.Discard).Commands {
		t.Run(cmd.Name, func(t *testing.T) {
			help, stderr, code := ccsweep(t, "help", cmd.Name)
			if code != 0 || !strings.Contains(help, "ccsweep "+cmd.Name+" - "+cmd.Usage) {
				t.Fatalf("help %s: exit %d, %q\n%s", cmd.Name, code, stderr, help)
			}
			if cmd.Name == "help" {
				return // help --help is ccsweep --help
			}
			flag, _, code := ccsweep(t, cmd.Name, "--help")
			if code != 0 || flag != help {
				t.Errorf("help %s and %s --help differ (exit %d):\n%s\n---\n%s", cmd.Name, cmd.Name, code, help, flag)
			}
		})
	}
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "run", "sim"}} {
		if _, stderr, code := ccsweep(t, args...); code != 2 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 2 and one line", args, code, stderr)
		}
	}
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {}} {
		if out, _, code := ccsweep(t, args...); code != 0 || !strings.Contains(out, "COMMANDS:") || !strings.Contains(out, "   help ") {
			t.Errorf("ccsweep %v: exit %d\n%s", args, code, out)
		}
	}
}

// TestHelpListsExitStatuses checks that every command's help lists its
// exit statuses, only those docs/guarantees.md defines (0, 1, 2, 3,
// 128+n), and 3 (points undone, run again) exactly for the commands that
// run a sweep.
func TestHelpListsExitStatuses(t *testing.T) {
	sweeps := []string{"run", "calibrate"}
	status := regexp.MustCompile(`(?m)^     (\S+) +\S`)
	for _, cmd := range newApp(io.Discard, io.Discard).Commands {
		help, _, _ := ccsweep(t, "help", cmd.Name) // as --help (TestHelpCommand)
		_, section, ok := strings.Cut(help, "Exit status:\n")
		if !ok {
			t.Errorf("%s --help lists no exit statuses:\n%s", cmd.Name, help)
			continue
		}
		section, _, _ = strings.Cut(section, "\n\n")
		var codes []string
		for _, m := range status.FindAllStringSubmatch(section, -1) {
			codes = append(codes, m[1])
		}
		for _, c := range codes {
			if !slices.Contains([]string{"0", "1", "2", "3", "128+n"}, c) {
				t.Errorf("%s --help lists exit status %q, which docs/guarantees.md does not define", cmd.Name, c)
			}
		}
		if !slices.Contains(codes, "2") {
			t.Errorf("%s --help: no exit status 2 (bad usage) in %v", cmd.Name, codes)
		}
		if got, want := slices.Contains(codes, "3"), slices.Contains(sweeps, cmd.Name); got != want {
			t.Errorf("%s --help lists exit status 3: %v, want %v (%v)", cmd.Name, got, want, codes)
		}
	}
}

// TestFlagSpellings checks one spelling per meaning (--out/-o for output
// files, --scenario for a scenario) and that the old spellings still work
// but are not shown.
func TestFlagSpellings(t *testing.T) {
	grid := writeGrid(t, reportGrid)
	dir := filepath.Dir(grid)
	db := filepath.Join(dir, "rep.db")
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// run: -o, --out and the old --report name the report.
	for _, spelling := range []string{"-o", "--out", "--report"} {
		path := filepath.Join(dir, "run"+spelling+".html")
		if out, stderr, code := ccsweep(t, "run", grid, "-j", "2", "--quiet", spelling, path); code != 0 {
			t.Fatalf("run %s: exit %d\n%s%s", spelling, code, out, stderr)
		}
		if !strings.Contains(read(path), `id="g0-s0-victim_gbps-3d"`) {
			t.Errorf("run %s %s wrote no report there", spelling, path)
		}
	}
	// report: -o, --out and the old --output.
	for _, spelling := range []string{"-o", "--out", "--output"} {
		path := filepath.Join(dir, "report"+spelling+".html")
		if _, stderr, code := ccsweep(t, "report", db, spelling, path); code != 0 || !strings.Contains(read(path), `id="g0-s0-victim_gbps-3d"`) {
			t.Errorf("report %s: exit %d %s", spelling, code, stderr)
		}
	}
	// export: -o FILE holds what stdout gets.
	stdout, _, code := ccsweep(t, "export", db)
	path := filepath.Join(dir, "export.csv")
	if _, stderr, c := ccsweep(t, "export", db, "-o", path); c != 0 || code != 0 || read(path) != stdout || !strings.HasPrefix(stdout, "grid,") {
		t.Errorf("export -o: exit %d %s; file and stdout differ or are empty", c, stderr)
	}
	// sim: -o is --out.
	path = filepath.Join(dir, "sim.csv")
	if _, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s2", "--phase", "1ms", "-o", path); code != 0 || !strings.HasPrefix(read(path), "time_s,flow,") {
		t.Errorf("sim -o: exit %d %s", code, stderr)
	}
	// fabric: --scenario or the argument, not both.
	byArg, _, code1 := ccsweep(t, "fabric", "testbed-s1", "--json")
	byFlag, _, code2 := ccsweep(t, "fabric", "--scenario", "testbed-s1", "--json")
	if code1 != 0 || code2 != 0 || byArg != byFlag || !strings.Contains(byArg, `"scenario": "testbed-s1"`) {
		t.Errorf("fabric testbed-s1 (exit %d) and fabric --scenario testbed-s1 (exit %d) differ:\n%s\n%s", code1, code2, byArg, byFlag)
	}

	for _, args := range [][]string{
		{"report", db, "-o", filepath.Join(dir, "a.html"), "--output", filepath.Join(dir, "b.html")},
		{"run", grid, "--out", filepath.Join(dir, "a.html"), "--report", filepath.Join(dir, "b.html")},
		{"fabric", "testbed-s1", "--scenario", "testbed-s2"},
		{"fabric"},
	} {
		if _, stderr, code := ccsweep(t, args...); code != 2 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want 2 and one line", args, code, stderr)
		}
	}
	for _, h := range [][]string{{"run", "--report"}, {"report", "--output"}} {
		if help, _, _ := ccsweep(t, h[0], "--help"); strings.Contains(help, h[1]+" ") {
			t.Errorf("%s --help shows the old spelling %s", h[0], h[1])
		}
	}
}
