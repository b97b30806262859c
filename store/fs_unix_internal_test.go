package store

import "testing"

// A directory on a writable file system is not said to be on a read-only
// one (the note goes into the error of a write that failed).
func TestWritableDirIsNotOnAReadOnlyFS(t *testing.T) {
	dir := t.TempDir()
	if note := onReadOnlyFS(dir); note != "" {
		t.Errorf("onReadOnlyFS(%s) = %q on a writable file system", dir, note)
	}
	if !writable(dir) {
		t.Errorf("writable(%s) = false for a directory of the test's own", dir)
	}
}
