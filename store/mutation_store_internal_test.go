package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveStubKeepsADatabaseAnotherProcessMade checks what a failed Open
// removes of a file it created (Open's doc: no empty stub remains; "only
// then is it removed: ... the file may be another process's new
// database"): a 0-byte file and its -wal and -shm go, a file with content
// stays, and a file already gone is no error.
func TestRemoveStubKeepsADatabaseAnotherProcessMade(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	exists := func(p string) bool {
		_, err := os.Stat(p)
		return err == nil
	}
	stub := write("stub.db", "")
	write("stub.db-wal", "")
	write("stub.db-shm", "")
	removeStub(stub)
	if exists(stub) || exists(stub+"-wal") || exists(stub+"-shm") {
		t.Errorf("a 0-byte stub or its -wal, -shm remain")
	}
	other := write("other.db", "SQLite format 3\x00")
	write("other.db-wal", "x")
	removeStub(other)
	if !exists(other) || !exists(other+"-wal") {
		t.Errorf("a file with content (another process's database) or its -wal was removed")
	}
	removeStub(filepath.Join(dir, "gone.db")) // must not panic
}
