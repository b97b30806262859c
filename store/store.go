package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var (
	// ErrNotDatabase reports a file that is not a ccsweep database: not
	// SQLite at all, corrupt, or an SQLite database of another application.
	ErrNotDatabase = errors.New("not a ccsweep database")
	// ErrSchemaTooNew reports a database written by a newer ccsweep, whose
	// schema this build does not know.
	ErrSchemaTooNew = errors.New("database written by a newer ccsweep")
	// ErrMismatch reports databases or results that disagree on grid or model
	// version where mixing them would make the results meaningless.
	ErrMismatch = errors.New("grid or model version mismatch")
	// ErrClosed reports a Writer used after Close.
	ErrClosed = errors.New("writer closed")
)

// DB is an open ccsweep results database. Its methods are safe for concurrent
// use by multiple goroutines, and several processes may open the same file at
// once: SQLite's WAL locking serialises their writes, and Claim keeps them from
// running the same point twice.
type DB struct {
	sql      *sql.DB
	path     string
	readOnly bool
}

// busyTimeoutMS is how long a statement waits for another connection's lock
// before failing with SQLITE_BUSY.
const busyTimeoutMS = 5000

// pragma is a connection setting and the value PRAGMA name reports once the
// setting took effect.
type pragma struct{ name, want string }

var (
	readWritePragmas = []pragma{
		{"journal_mode", "wal"},
		{"busy_timeout", fmt.Sprint(busyTimeoutMS)},
		{"foreign_keys", "1"},
		{"synchronous", "1"}, // NORMAL
	}
	readOnlyPragmas = []pragma{
		{"busy_timeout", fmt.Sprint(busyTimeoutMS)},
		{"foreign_keys", "1"},
	}
)

// Open opens the database at path for reading and writing, creating the file
// and its schema if it does not exist and migrating an older schema to the
// current one. It fails with an error wrapping ErrNotDatabase if the file is
// not a ccsweep database (the file is left untouched), and with one wrapping
// ErrSchemaTooNew if a newer ccsweep wrote it.
//
// Durability: the database runs in WAL mode with synchronous=NORMAL, so a
// committed transaction survives the process being killed; a power loss or OS
// crash may lose the last transactions, never the file's integrity.
func Open(path string) (*DB, error) {
	return openDSN(path, dsn(path, false), false)
}

// OpenReadOnly opens an existing database at path for reading only, as the
// report server does: it never creates the file and never writes to it. (To
// read a WAL database SQLite may create its -shm and -wal files, and a
// read-only connection leaves them behind; the next read-write one removes
// them.) It sees results committed by writers in other processes meanwhile.
// It fails if the file is missing, is not a ccsweep database, or has a schema
// other than the current one.
func OpenReadOnly(path string) (*DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	return openDSN(path, dsn(path, true), true)
}

// dsn returns the modernc.org/sqlite data source name for the file at path.
// The path is written as a file: URI so that SQLite applies mode=ro and so
// that '?', '#' and '%' in a file name cannot be taken for URI syntax.
func dsn(path string, readOnly bool) string {
	q := []string{
		fmt.Sprintf("_pragma=busy_timeout(%d)", busyTimeoutMS),
		"_pragma=foreign_keys(1)",
	}
	if readOnly {
		q = append(q, "mode=ro")
	} else {
		// _txlock=immediate makes every write transaction take the write lock
		// at BEGIN, so that a busy database makes it wait (busy_timeout)
		// instead of failing when a read turns into a write.
		q = append(q, "_pragma=journal_mode(WAL)", "_pragma=synchronous(NORMAL)", "_txlock=immediate")
	}
	return fileURI(path) + "?" + strings.Join(q, "&")
}

// fileURI returns path as an absolute SQLite file: URI without parameters.
func fileURI(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	u := url.URL{Scheme: "file", OmitHost: true, Path: filepath.ToSlash(path)}
	return u.String()
}

func openDSN(path, dsn string, readOnly bool) (*DB, error) {
	ctx := context.Background()
	if err := checkHeader(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	d := &DB{sql: sqldb, path: path, readOnly: readOnly}
	if err := d.init(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("open %s: %w", path, classify(err))
	}
	return d, nil
}

func (d *DB) init(ctx context.Context) error {
	want := readWritePragmas
	if d.readOnly {
		want = readOnlyPragmas
	}
	if err := checkPragmas(ctx, d.sql, want); err != nil {
		return err
	}
	if d.readOnly {
		v, err := schemaVersion(ctx, d.sql)
		switch {
		case err != nil:
			return err
		case v == 0:
			return fmt.Errorf("%w: no ccsweep schema", ErrNotDatabase)
		case v > len(migrations):
			return fmt.Errorf("%w: schema version %d, this ccsweep knows up to %d", ErrSchemaTooNew, v, len(migrations))
		case v < len(migrations):
			return fmt.Errorf("schema version %d is older than %d; open it read-write once (ccsweep run or merge) to upgrade it", v, len(migrations))
		}
		return nil
	}
	return d.migrate(ctx)
}

// checkHeader rejects a file that is not an SQLite database, or is the
// database of another application, before SQLite opens it: opening it
// read-write would already switch it to WAL mode. A missing or empty file
// passes, and so does a database with no schema yet.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	var h [100]byte // https://www.sqlite.org/fileformat.html#the_database_header
	n, err := io.ReadFull(f, h[:])
	switch {
	case n == 0:
		return nil
	case err != nil:
		return fmt.Errorf("%w: %d bytes is too short for an SQLite file", ErrNotDatabase, n)
	case string(h[:16]) != "SQLite format 3\x00":
		return fmt.Errorf("%w: not an SQLite file", ErrNotDatabase)
	}
	app, schemaCookie := binary.BigEndian.Uint32(h[68:]), binary.BigEndian.Uint32(h[40:])
	if app != applicationID && (app != 0 || schemaCookie != 0) {
		return fmt.Errorf("%w: SQLite database of another application (application_id %#x)", ErrNotDatabase, app)
	}
	return nil
}

// checkPragmas reads back each pragma on one connection: a misspelled _pragma
// in the DSN is ignored silently by SQLite, and this makes it loud.
func checkPragmas(ctx context.Context, db *sql.DB, want []pragma) error {
	conn, err := db.Conn(ctx) // opening the connection runs the DSN's pragmas
	if err != nil {
		return err
	}
	defer conn.Close()
	for _, p := range want {
		var got string
		if err := conn.QueryRowContext(ctx, "PRAGMA "+p.name).Scan(&got); err != nil {
			return fmt.Errorf("read pragma %s: %w", p.name, err)
		}
		if !strings.EqualFold(got, p.want) {
			return fmt.Errorf("pragma %s is %q, want %q: the DSN setting did not take effect", p.name, got, p.want)
		}
	}
	return nil
}

// classify wraps SQLite's "not a database" and "corrupt" errors in
// ErrNotDatabase.
func classify(err error) error {
	var e *sqlite.Error
	if errors.As(err, &e) {
		switch e.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
			return fmt.Errorf("%w: %w", ErrNotDatabase, err)
		}
	}
	return err
}

// Close closes the database. It does not close Writers made by NewWriter:
// close them first.
func (d *DB) Close() error {
	return d.sql.Close()
}

// Path returns the file name the database was opened with.
func (d *DB) Path() string { return d.path }

// timeLayout is how timestamps are stored: UTC, fixed width, so that text
// order is time order.
const timeLayout = "2006-01-02T15:04:05.000000000Z"

// dbTime returns t as stored, or nil (NULL) for the zero time.
func dbTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(timeLayout)
}

// parseTime parses a stored timestamp; NULL gives the zero time.
func parseTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	return time.Parse(timeLayout, s.String)
}
