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
	"strconv"
	"strings"
	"syscall"
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
	// ErrNoDatabase reports a database file that does not exist where one
	// is read; it wraps fs.ErrNotExist.
	ErrNoDatabase error = notExistError("no such database")
	// ErrUnwritable reports a database that cannot be created or written:
	// its path is a directory, its directory is missing or read-only, or the
	// file itself is read-only.
	ErrUnwritable = errors.New("cannot write the database")
	// ErrNoSpace reports a write that failed because the file system of the
	// database is full. Nothing of the failed transaction is stored.
	ErrNoSpace = errors.New("no space left on device")
)

// notExistError is an error that is fs.ErrNotExist for errors.Is.
type notExistError string

func (e notExistError) Error() string        { return string(e) }
func (e notExistError) Is(target error) bool { return target == fs.ErrNotExist }

// DB is an open ccsweep results database. Its methods are safe for concurrent
// use by multiple goroutines, and several processes may open the same file at
// once: SQLite's WAL locking serialises their writes, and Claim keeps them from
// running the same point twice.
type DB struct {
	sql       *sql.DB
	path      string
	readOnly  bool
	version   int  // the schema version of the file, as opened (after any migration)
	removeWAL bool // Close removes the -wal and -shm files this read-only handle made
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
// not a ccsweep database (the file is left untouched), with one wrapping
// ErrSchemaTooNew if a newer ccsweep wrote it, with one wrapping
// ErrUnwritable if path is a directory or its directory is missing or
// read-only, and with one wrapping ErrNoSpace if the file system is full. A
// file Open created is removed again when opening fails, so no empty stub
// remains.
//
// Durability: the database runs in WAL mode with synchronous=NORMAL, so a
// committed transaction survives the process being killed; a power loss or OS
// crash may lose the last transactions, never the file's integrity.
func Open(path string) (*DB, error) {
	if err := checkWritable(path); err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	_, statErr := os.Stat(path)
	created := errors.Is(statErr, fs.ErrNotExist)
	d, err := openReadWrite(path)
	// Processes that create one database at once race to set it up (WAL
	// mode, the schema); SQLite answers the losers "busy" at once, without
	// its busy timeout. They try again until the winner is done.
	for deadline := time.Now().Add(busyTimeoutMS * time.Millisecond); err != nil && isBusy(err) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		d, err = openReadWrite(path)
	}
	// A full disk can leave a 0-byte file behind. Only then is it removed:
	// in WAL mode a live database's main file stays at 0 bytes until its
	// first checkpoint, so after any other failure the file may be another
	// process's new database.
	if err != nil && created && errors.Is(err, ErrNoSpace) {
		removeStub(path)
	}
	return d, err
}

// openReadWrite is one attempt of Open. It is a variable so that a test
// can make an attempt lose the race Open retries, which no test can time
// (TestMutOpenRetriesWhenSQLiteAnswersBusyAtOnce).
var openReadWrite = func(path string) (*DB, error) { return openDSN(path, dsn(path, false), false) }

// isBusy reports whether err is SQLite's "database is locked".
func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}

// checkWritable fails with an error wrapping ErrUnwritable, saying why,
// unless this process can create or write the database at path and the
// files SQLite keeps beside it.
func checkWritable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%w: it is a directory", ErrUnwritable)
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%w: it is not a regular file", ErrUnwritable)
	case err == nil && !writable(path):
		return fmt.Errorf("%w: the file is read-only%s", ErrUnwritable, onReadOnlyFS(path))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %w", ErrUnwritable, unwrapPathError(err))
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: directory %s does not exist", ErrUnwritable, dir)
	case err != nil:
		return fmt.Errorf("%w: directory %s: %w", ErrUnwritable, dir, unwrapPathError(err))
	case !di.IsDir():
		return fmt.Errorf("%w: %s is not a directory", ErrUnwritable, dir)
	case !writable(dir):
		return fmt.Errorf("%w: directory %s is read-only%s", ErrUnwritable, dir, onReadOnlyFS(dir))
	}
	return nil
}

// unwrapPathError drops the operation and path of an *fs.PathError, which
// the caller's message already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// removeStub removes what a failed Open left of a file it created.
func removeStub(path string) {
	if fi, err := os.Stat(path); err == nil && fi.Size() > 0 {
		// Another process made it a database meanwhile.
		return
	}
	removeFiles(path)
}

// Exists reports whether path holds something to read as a database: false
// for a missing or empty (0-byte) file, which Open makes a new database.
func Exists(path string) (bool, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("%s: %w", path, unwrapPathError(err))
	}
	return !fi.Mode().IsRegular() || fi.Size() > 0, nil
}

// OpenReadOnly opens an existing database at path for reading only, as the
// report server and the exports do: it never creates the database, never
// writes to it and leaves no -wal or -shm file behind where there was none,
// so results can be read from a read-only file system or a directory of
// another user. It sees results committed by writers in other processes
// meanwhile, except in one case: a database no process has open (no -wal or
// -shm beside it) whose file or directory this process cannot write is read
// as immutable, as SQLite cannot read it otherwise, and a sweep that starts
// writing it later is not seen. It fails with an error wrapping
// ErrNoDatabase if the file is missing, ErrNotDatabase if it is not a
// ccsweep database (an empty file, a directory, a FIFO or a device among
// them), or
// ErrSchemaTooNew if a newer ccsweep wrote it, and if its schema is older
// than the current one.
func OpenReadOnly(path string) (*DB, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("%s: %w", path, ErrNoDatabase)
	case err != nil:
		return nil, fmt.Errorf("open %s: %w", path, unwrapPathError(err))
	case fi.IsDir():
		return nil, fmt.Errorf("open %s: %w: it is a directory", path, ErrNotDatabase)
	case !fi.Mode().IsRegular():
		// A FIFO would block the open forever; a device is no database.
		return nil, fmt.Errorf("open %s: %w: it is not a regular file", path, ErrNotDatabase)
	case fi.Size() == 0:
		return nil, fmt.Errorf("open %s: %w: the file is empty", path, ErrNotDatabase)
	}
	params, quiet := readParams(path)
	d, err := openDSN(path, dsn(path, true)+params, true)
	if err != nil {
		if quiet {
			removeEmptyWAL(path)
		}
		return nil, err
	}
	d.removeWAL = quiet
	return d, nil
}

// readParams returns the URI parameters that read the database at path
// without writing beside it ("&immutable=1" when no process has it open and
// this one cannot create its -wal and -shm), and whether no process had it
// open, in which case the reader must call removeEmptyWAL when done.
func readParams(path string) (params string, quiet bool) {
	quiet = !exists(path+"-wal") && !exists(path+"-shm")
	if quiet && !(writable(path) && writable(filepath.Dir(path))) {
		return "&immutable=1", false
	}
	return "", quiet
}

// exists reports whether a file exists at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// removeEmptyWAL removes the -wal and -shm files a read-only connection made
// for a database no process had open. It opens the database read-write and
// closes it again: SQLite's last connection to close deletes both, unless
// another process has opened the database meanwhile, and a WAL that holds
// frames (another process's commits) is left alone.
func removeEmptyWAL(path string) {
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() > 0 {
		return
	}
	db, err := sql.Open("sqlite", fileURI(path)+"?mode=rw&_pragma=busy_timeout(100)")
	if err != nil {
		return
	}
	var v int
	db.QueryRow("PRAGMA user_version").Scan(&v)
	db.Close()
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
		return nil, fmt.Errorf("open %s: %w", path, unwrapPathError(err))
	}
	sqldb, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	d := &DB{sql: sqldb, path: path, readOnly: readOnly}
	if err := d.init(ctx); err != nil {
		sqldb.Close()
		return nil, d.openError(err)
	}
	if err := d.checkTables(ctx); err != nil {
		sqldb.Close()
		return nil, d.openError(err)
	}
	if err := d.checkParams(ctx); err != nil {
		sqldb.Close()
		return nil, d.openError(err)
	}
	return d, nil
}

// schemaTables are the tables every ccsweep database holds once migrated.
var schemaTables = []string{"grids", "runs", "points", "point_params", "series", "claims"}

// checkTables fails with an error wrapping ErrNotDatabase if a table of the
// schema is missing (a damaged or hand-edited file), so that no command
// meets it later as a raw SQL error or reads it as empty.
func (d *DB) checkTables(ctx context.Context) error {
	rows, err := d.sql.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return err
	}
	defer rows.Close()
	have := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return err
		}
		have[name] = true
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for _, t := range schemaTables {
		if !have[t] {
			return fmt.Errorf("%w: damaged: table %s is missing", ErrNotDatabase, t)
		}
	}
	return nil
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
		case v < minReadVersion:
			return fmt.Errorf("schema version %d is older than %d; open it read-write once (ccsweep run or merge) to upgrade it", v, minReadVersion)
		}
		d.version = v
		return nil
	}
	if err := d.migrate(ctx); err != nil {
		return err
	}
	d.version = len(migrations)
	return nil
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

// openError is err, from opening the database, classified and naming the
// file once.
func (d *DB) openError(err error) error {
	err = d.classify(err)
	if errors.Is(err, ErrNoSpace) {
		return err // names the file already
	}
	return fmt.Errorf("open %s: %w", d.path, err)
}

// classify wraps SQLite's "not a database" and "corrupt" errors in
// ErrNotDatabase, a full disk in ErrNoSpace (naming the file), and failures
// to create or write the file in ErrUnwritable; it drops SQLite's numeric
// result codes from the message, which tell a user nothing.
func (d *DB) classify(err error) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		if errors.Is(err, syscall.ENOSPC) {
			return fmt.Errorf("%w: %s", ErrNoSpace, d.path)
		}
		return err
	}
	plain := sqliteError{err}
	switch e.Code() & 0xff {
	case sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
		return fmt.Errorf("%w: %w", ErrNotDatabase, plain)
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("%w: %s", ErrNoSpace, d.path)
	case sqlite3.SQLITE_IOERR:
		if diskFull(filepath.Dir(d.path)) {
			return fmt.Errorf("%w: %s", ErrNoSpace, d.path)
		}
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY:
		if !d.readOnly {
			return fmt.Errorf("%w: %w", ErrUnwritable, plain)
		}
		if exists(d.path+"-wal") && !exists(d.path+"-shm") {
			return fmt.Errorf("%w: %s-wal holds results not yet copied into it, and %s-shm, which SQLite needs to read them, cannot be created here; "+
				"open it read-write once (ccsweep merge) where it can be written", ErrUnwritable, d.path, d.path)
		}
	}
	return plain
}

// sqliteError is an SQLite error whose message leaves out the result
// code the driver appends, numeric and named ("database is locked" rather
// than "database is locked (5) (SQLITE_BUSY)").
type sqliteError struct{ err error }

func (e sqliteError) Error() string {
	msg := e.err.Error()
	if i := strings.LastIndex(msg, " (SQLITE_"); i > 0 && strings.HasSuffix(msg, ")") && !strings.ContainsAny(msg[i+2:len(msg)-1], " ()") {
		msg = msg[:i]
	}
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		if _, err := strconv.Atoi(msg[i+2 : len(msg)-1]); err == nil {
			return msg[:i]
		}
	}
	return msg
}

func (e sqliteError) Unwrap() error { return e.err }

// Close closes the database. It does not close Writers made by NewWriter:
// close them first.
func (d *DB) Close() error {
	err := d.sql.Close()
	if d.removeWAL {
		removeEmptyWAL(d.path)
	}
	return err
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
