package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestMergeWritesThroughALink merges into a symbolic link, to a database
// that exists and to one that does not yet: the link stays a link, and the
// file it names holds the merged points.
func TestMergeWritesThroughALink(t *testing.T) {
	src := handMadeDB(t)
	want := doneCount(t, src)
	for _, exists := range []bool{false, true} {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "real"), 0o755)
		target := filepath.Join(dir, "real", "results.db")
		if exists {
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(target, b, 0o644)
		}
		link := filepath.Join(dir, "out.db")
		if err := os.Symlink(filepath.Join("real", "results.db"), link); err != nil {
			t.Fatal(err)
		}
		if _, stderr, code := ccsweep(t, "merge", link, src); code != 0 {
			t.Fatalf("target exists %v: exit %d: %s", exists, code, stderr)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("target exists %v: %s is no longer a link: %v", exists, link, err)
		}
		if got := doneCount(t, target); got != want {
			t.Errorf("target exists %v: the linked database holds %d points, want %d", exists, got, want)
		}
	}
}
