package grids_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A misspelt parameter of a grid over a scenario file is matched against
// the file's own parameters too, not only the model's.
func TestUnknownKeySuggestsAScenarioParameter(t *testing.T) {
	p := gridBesideScenario(t, "name = \"g\"\nscenario = \"ft-hotspot.toml\"\n[sweep]\nhotspot_fractoin = [0.1, 0.2]\n")
	_, err := grids.Load(p)
	if err == nil || !strings.Contains(err.Error(), "(did you mean hotspot_fraction?)") {
		t.Errorf("hotspot_fractoin: %v, want a suggestion of the file's hotspot_fraction", err)
	}
}

// A suggestion is at most one edit for every three bytes of the name, and
// at most two: marking_rxte (one edit) and marking_rxtx (two) suggest
// marking_rate, marking_rxxx (three) nothing.
func TestSuggestionDistance(t *testing.T) {
	for key, want := range map[string]string{
		"marking_rxte": " (did you mean marking_rate?)",
		"marking_rxtx": " (did you mean marking_rate?)",
		"marking_rxxx": "",
	} {
		_, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\n"+key+" = 1\n"))
		if got, w := fmt.Sprint(err), "g.toml:3: "+key+": unknown key"+want; got != w {
			t.Errorf("%s: %s, want %s", key, got, w)
		}
	}
}

// gridBesideScenario writes grid as g.toml in a new folder beside a copy of
// testdata/scenarios/ft-hotspot.toml, and returns the grid's path.
func gridBesideScenario(t *testing.T, grid string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "scenarios", "ft-hotspot.toml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ft-hotspot.toml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "g.toml")
	if err := os.WriteFile(p, []byte(grid), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
