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

// ReadFile reads a regular file of at most limit bytes whole: exactly limit
// is read in full, one byte more is ErrTooLarge.
func TestReadFileLimitIsInclusive(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g.toml")
	text := strings.Repeat("x", 100)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := grids.ReadFile(p, 100)
	if err != nil || string(data) != text {
		t.Errorf("ReadFile of 100 bytes with limit 100: %d bytes, %v; want all 100", len(data), err)
	}
	data, err = grids.ReadFile(p, 99)
	if !errors.Is(err, grids.ErrTooLarge) || data != nil {
		t.Errorf("ReadFile of 100 bytes with limit 99: %d bytes, %v; want ErrTooLarge", len(data), err)
	}
}

// A missing file is named as the user gave it, not by the system call that
// found it missing, and is still fs.ErrNotExist for the callers that tell
// a missing database or grid apart.
func TestReadFileNamesAMissingFileWithoutTheSystemCall(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gone.toml")
	_, err := grids.ReadFile(p, 100)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadFile of a missing file: %v, want fs.ErrNotExist", err)
	}
	if want := p + ": no such file or directory"; err.Error() != want {
		t.Errorf("ReadFile of a missing file: %q, want %q", err, want)
	}
}
