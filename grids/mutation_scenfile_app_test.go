package grids_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// Tests written against the survivors of the sampled mutation run of
// grids (docs/testing.md, "Sampled runs") in scenfile_app.go.

// TestMutAppRootBound checks an [[app]]'s root against the reader's bound,
// 2^20−1 like ranks: 1048576 is refused by the reader itself, naming the
// range, before any check of the ranks the app has.
func TestMutAppRootBound(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.toml")
	text := "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"bcast\"\nroot = 1048576\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := grids.LoadScenario(path)
	want := "s.toml:6: app[0].root: 1048576: want a whole number from 0 to 1048575"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestMutFloatBoundsAreInclusive checks a number field at the ends of its
// range (an [[app]]'s shm_gbps, from 0.001 to 10000): both ends are
// accepted, a value just outside either is refused with the range.
func TestMutFloatBoundsAreInclusive(t *testing.T) {
	for _, c := range []struct {
		v    string
		want string // "" accepted
	}{
		{"0.001", ""},
		{"10000", ""},
		{"0.0009", "app[0].shm_gbps: 0.0009: want a number from 0.001 to 10000"},
		{"10000.5", "app[0].shm_gbps: 10000.5: want a number from 0.001 to 10000"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "s.toml")
		text := "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"pingpong\"\nshm_gbps = " + c.v + "\n"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := grids.LoadScenario(path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("shm_gbps = %s: %v, want it accepted", c.v, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("shm_gbps = %s: error %v, want %q", c.v, err, c.want)
		}
	}
}
