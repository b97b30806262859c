package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportWarningsOnStderr: sim and run print the fabric reader's
// warnings on stderr, once each, as "ccsweep: warning: FILE: ...", and go
// on (the PuTTY log sample: its header, the prompt and command, the prompt
// at the end are skipped).
func TestImportWarningsOnStderr(t *testing.T) {
	log, err := os.ReadFile(filepath.Join("model", "fabric", "testdata", "ibnetdiscover", "putty-log.txt"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("fabric.txt", string(log))
	scen := write("s.toml", "[topology]\nkind = \"ibnetdiscover\"\nfile = \"fabric.txt\"\n[[flow]]\nsrc = \"H1\"\ndst = \"H4\"\n")
	grid := write("g.toml", "name = \"g\"\nscenario = \"s.toml\"\nphase = \"1ms\"\n[sweep]\nthreshold = [3, 5]\n")
	want := `ccsweep: warning: fabric.txt: skipped 3 lines that are not ibnetdiscover output: line 1 "=~=`
	for _, args := range [][]string{{"sim", "--scenario", scen, "--phase", "1ms"}, {"run", grid, "--dry-run"}} {
		_, stderr, code := ccsweep(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
		}
		if strings.Count(stderr, "ccsweep: warning: ") != 1 || !strings.Contains(stderr, want) {
			t.Fatalf("%s: stderr\n%s\nwant one line starting %q", args[0], stderr, want)
		}
	}
}
