package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileState is a file's bytes, or "missing".
func fileState(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "missing"
	}
	return string(b)
}

// TestOutputsNeverEatInputs points each command's output at one of its own
// inputs, directly, through a symbolic link and as a hard link, and at a
// database: each is refused with exit 2 and one line before any work, and
// every input is left byte for byte as it was.
func TestOutputsNeverEatInputs(t *testing.T) {
	dir := t.TempDir()
	db := handMadeDB(t)
	link := filepath.Join(dir, "link.db")
	if err := os.Symlink(db, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.html")
	if err := os.Link(db, hard); err != nil {
		t.Fatal(err)
	}
	grid := filepath.Join(dir, "g.toml")
	os.WriteFile(grid, []byte("name = \"g\"\nscenario = \"testbed-s2\"\nphase = \"1ms\"\nsample = \"1ms\"\n"), 0o644)
	// A scenario file that names a fabric file beside it.
	scen, fabric := filepath.Join(dir, "scenarios", "cluster-incast.toml"), filepath.Join(dir, "fabrics", "cluster.txt")
	for _, f := range []string{scen, fabric} {
		b, err := os.ReadFile(filepath.Join("examples", filepath.Base(filepath.Dir(f)), filepath.Base(f)))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, b, 0o644)
	}
	measured, _, code := ccsweep(t, "sim", "--scenario", "testbed-s2", "--cc", "off", "--phase", "2ms", "--sample", "1ms")
	if code != 0 {
		t.Fatal("sim failed")
	}
	hardGrid := filepath.Join(dir, "hard-g.html")
	if err := os.Link(grid, hardGrid); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "measured.csv")
	os.WriteFile(csv, []byte(measured), 0o644)
	fit := filepath.Join(dir, "fit.toml")
	os.WriteFile(fit, []byte("name = \"fit\"\nscenario = \"testbed-s2\"\ncc = \"off\"\nphase = \"2ms\"\nsample = \"1ms\"\n"+
		"[sweep]\nhost_io_gbps = [10, 12]\n[calibrate]\nmeasured = \"measured.csv\"\n"), 0o644)
	newDB := filepath.Join(dir, "new.db")
	dangling := filepath.Join(dir, "dangling.html") // a link to the database run is to create
	if err := os.Symlink("new.db", dangling); err != nil {
		t.Fatal(err)
	}
	twice := filepath.Join(dir, "twice.out") // two outputs of one command
	watched := []string{db, grid, scen, fabric, csv, fit, newDB, twice}
	for _, args := range [][]string{
		{"report", db, "-o", db},
		{"report", db, "-o", link},
		{"report", link, "-o", db},
		{"report", db, "-o", hard},
		{"run", grid, "--db", newDB, "--report", newDB},
		{"run", grid, "--db", newDB, "--report", grid},
		{"run", grid, "--db", newDB, "--report", hardGrid},
		{"run", grid, "--db", newDB, "--report", dangling},
		{"sim", "--scenario", "testbed-s2", "--phase", "1ms", "--out", db},
		{"sim", "--scenario", "testbed-s2", "--phase", "1ms", "--cpuprofile", db},
		{"sim", "--scenario", scen, "--phase", "1ms", "--out", scen},
		{"sim", "--scenario", scen, "--phase", "1ms", "--out", fabric},
		{"sim", "--scenario", "testbed-s2", "--phase", "1ms", "--out", twice, "--cpuprofile", twice},
		{"fabric", "testbed-s2", "--lfts", twice, "--ibsim", twice},
		{"calibrate", fit, "--db", newDB, "--out", newDB},
		{"calibrate", fit, "--db", newDB, "--out", fit},
		{"calibrate", fit, "--db", newDB, "--out", csv},
		{"calibrate", fit, "--db", db, "--out", link, "--no-run"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			before := map[string]string{}
			for _, f := range watched {
				before[f] = fileState(t, f)
			}
			out, stderr, code := ccsweep(t, args...)
			if code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") > 0 || !strings.Contains(stderr, "give another output path") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and one line", code, out, stderr)
			}
			for _, f := range watched {
				if fileState(t, f) != before[f] {
					t.Errorf("%s changed", f)
				}
			}
		})
	}
}

// TestDefaultReportIsNeverTheDatabase runs a grid into a database named
// res.html: the report goes beside it, and the database stays a database.
func TestDefaultReportIsNeverTheDatabase(t *testing.T) {
	dir := t.TempDir()
	grid := filepath.Join(dir, "g.toml")
	os.WriteFile(grid, []byte("name = \"g\"\nscenario = \"testbed-s2\"\nphase = \"1ms\"\nsample = \"1ms\"\n"), 0o644)
	db := filepath.Join(dir, "res.html")
	out, stderr, code := ccsweep(t, "run", grid, "--db", db, "--quiet")
	if code != 0 || !strings.Contains(out, "report: "+db+".html") {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	if !isSQLite(db) {
		t.Errorf("%s is no longer a database", db)
	}
	if _, stderr, code = ccsweep(t, "report", db); code != 0 || !strings.Contains(stderr, db+".html") || !isSQLite(db) {
		t.Errorf("report: exit %d, %s", code, stderr)
	}
}

// TestReadOnlyOutputIsRefused: sim --out at a 0444 file exits 2 with one
// line and leaves the file as it was, as a shell's redirect would.
func TestReadOnlyOutputIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ro.csv")
	if err := os.WriteFile(p, []byte("keep"), 0o444); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s2", "--phase", "1ms", "--out", p)
	want := "ccsweep: cannot write " + p + ": permission denied: the file is read-only"
	if code != exitUsage || strings.TrimSpace(stderr) != want || fileState(t, p) != "keep" {
		t.Errorf("exit %d, stderr %q, content %q; want 2, %q, unchanged", code, stderr, fileState(t, p), want)
	}
}
