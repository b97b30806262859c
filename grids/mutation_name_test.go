package grids_test

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A grid's name has at most MaxNameLen characters: that many is a name,
// one more is refused.
func TestGridNameLengthLimit(t *testing.T) {
	long := strings.Repeat("n", grids.MaxNameLen)
	g, err := grids.Parse("g.toml", []byte("name = \""+long+"\"\nscenario = \"testbed-s1\"\n"))
	if err != nil || g.Name != long {
		t.Errorf("a name of %d characters: %v", grids.MaxNameLen, err)
	}
	_, err = grids.Parse("g.toml", []byte("name = \""+long+"x\"\nscenario = \"testbed-s1\"\n"))
	want := "g.toml:1: name: is 129 characters long; a name has at most 128"
	if err == nil || err.Error() != want {
		t.Errorf("a name of %d characters: %v, want %s", grids.MaxNameLen+1, err, want)
	}
}
