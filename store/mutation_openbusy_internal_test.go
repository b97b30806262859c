package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
