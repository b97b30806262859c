package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMutOpenRetriesWhenSQLiteAnswersBusyAtOnce checks Open's retry: when
// an attempt fails because SQLite answered "database is locked" at once (a
// process creating the same database got there first), Open tries again
// and succeeds once the other is done; any other error it returns at once.
//
// No test can time two processes so that SQLite answers the loser busy at
// once (docs/testing.md), so the first attempt is made to lose for real:
// another connection holds the new file under BEGIN EXCLUSIVE, and that
// attempt runs openDSN with busy_timeout 0 instead of 5000, so SQLite
// answers busy without waiting. The holder then lets go, as a winner
// would, and the next attempt is Open's own.
func TestMutOpenRetriesWhenSQLiteAnswersBusyAtOnce(t *testing.T) {
	ctx := context.Background()
	real := openReadWrite
	t.Cleanup(func() { openReadWrite = real })

	t.Run("busy", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "race.db")
		holder, err := sql.Open("sqlite", fileURI(path))
		if err != nil {
			t.Fatal(err)
		}
		defer holder.Close()
		conn, err := holder.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "BEGIN EXCLUSIVE"); err != nil {
			t.Fatal(err)
		}
		var attempts int
		var first error
		openReadWrite = func(path string) (*DB, error) {
			if attempts++; attempts > 1 {
				return real(path)
			}
			at := fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS)
			d, err := openDSN(path, strings.Replace(dsn(path, false), at, "busy_timeout(0)", 1), false)
			if d != nil {
				d.Close()
			}
			first = err
			if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
				t.Error(err)
			}
			return nil, first
		}
		d, err := Open(path)
		if first == nil || !strings.Contains(first.Error(), "database is locked") {
			t.Fatalf("the first attempt failed with %v, want database is locked", first)
		}
		if err != nil {
			t.Fatalf("Open after a busy attempt: %v, want it to try again and succeed", err)
		}
		defer d.Close()
		if attempts != 2 {
			t.Errorf("%d attempts, want 2", attempts)
		}
		if err := d.checkTables(ctx); err != nil {
			t.Error(err)
		}
	})

	t.Run("other error", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "other.db")
		scratch, err := sql.Open("sqlite", fileURI(filepath.Join(t.TempDir(), "scratch.db")))
		if err != nil {
			t.Fatal(err)
		}
		defer scratch.Close()
		_, noTable := scratch.ExecContext(ctx, "SELECT * FROM nothere")
		if noTable == nil {
			t.Fatal("no error from a missing table")
		}
		var attempts int
		openReadWrite = func(path string) (*DB, error) {
			if attempts++; attempts > 1 {
				return real(path)
			}
			return nil, fmt.Errorf("open %s: %w", path, noTable)
		}
		_, err = Open(path)
		if !errors.Is(err, noTable) || attempts != 1 {
			t.Errorf("Open: %v after %d attempts; want the first attempt's error (no such table), not tried again", err, attempts)
		}
	})
}

// TestMutSqliteErrorDropsOnlyANumericCode checks sqliteError's message
// (a survivor of the sampled mutation run, store.go:483): the result code
// the driver appends, " (NNNN)" and then " (SQLITE_NAME)", is cut, any
// other parenthesis kept.
func TestMutSqliteErrorDropsOnlyANumericCode(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"disk I/O error (4874)", "disk I/O error"},
		{"database is locked (5)", "database is locked"},
		{"database is locked (5) (SQLITE_BUSY)", "database is locked"},
		{"disk I/O error (4874) (SQLITE_IOERR_SHORT_READ)", "disk I/O error"},
		{"no such table: x (SQLITE_ERROR)", "no such table: x"},
		{"no such table: x (see SQLITE_ERROR)", "no such table: x (see SQLITE_ERROR)"},
		{"no such table: x (not a code)", "no such table: x (not a code)"},
		{"(5)", "(5)"},
		{"constraint failed", "constraint failed"},
	} {
		err := sqliteError{errors.New(c.msg)}
		if got := err.Error(); got != c.want {
			t.Errorf("sqliteError(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

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
