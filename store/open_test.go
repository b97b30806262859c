package store_test

import (
	"bytes"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

func TestOpenCreatesSchema(t *testing.T) {
	d, path := newDB(t)
	db := store.SQLDB(d)
	var version, app int
	if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("PRAGMA application_id").Scan(&app); err != nil {
		t.Fatal(err)
	}
	if version != 6 || app != 0x63637377 {
		t.Errorf("user_version, application_id = %d, %#x; want 6, 0x63637377", version, app)
	}
	rows, err := db.Query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		tables = append(tables, name)
	}
	want := []string{"app_iterations", "app_metrics", "claims", "grids", "point_params", "points", "runs", "series"}
	if !slices.Equal(tables, want) {
		t.Errorf("tables = %v, want %v", tables, want)
	}

	// Opening again, read-write and read-only, finds the schema current.
	for _, o := range opens {
		t.Run(o.name, func(t *testing.T) {
			d2, err := o.open(path)
			if err != nil {
				t.Fatal(err)
			}
			d2.Close()
		})
	}
}

// opens are the two ways to open a database.
var opens = []struct {
	name string
	open func(string) (*store.DB, error)
}{{"Open", store.Open}, {"OpenReadOnly", store.OpenReadOnly}}

func TestPragmas(t *testing.T) {
	d, _ := newDB(t)
	db := store.SQLDB(d)
	// Hold several connections at once so that each is a distinct one.
	var conns []*sql.Conn
	for range 3 {
		c, err := db.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	for _, p := range []struct{ name, want string }{
		{"journal_mode", "wal"},
		{"busy_timeout", "5000"},
		{"foreign_keys", "1"},
		{"synchronous", "1"},
	} {
		t.Run(p.name, func(t *testing.T) {
			for i, c := range conns {
				var got string
				if err := c.QueryRowContext(t.Context(), "PRAGMA "+p.name).Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != p.want {
					t.Errorf("connection %d: %s = %s, want %s", i, p.name, got, p.want)
				}
			}
		})
	}
}

func TestOpenNotDatabase(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, path string)
		// wal: opening may leave the -wal and -shm files SQLite creates to
		// read a WAL database; it always leaves the database file itself.
		wal bool
	}{
		{"garbage", func(t *testing.T, path string) {
			writeFile(t, path, bytes.Repeat([]byte("not a database "), 500))
		}, false},
		{"short", func(t *testing.T, path string) {
			writeFile(t, path, []byte("SQLite"))
		}, false},
		{"unknown application id", func(t *testing.T, path string) {
			b := bytes.Repeat([]byte{0xa5}, 8192)
			copy(b, "SQLite format 3\x00")
			writeFile(t, path, b)
		}, false},
		{"corrupt ccsweep", func(t *testing.T, path string) {
			d, err := store.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			d.Close()
			b := readFile(t, path)
			for i := 100; i < 4096; i++ { // the rest of page 1: the schema table
				b[i] = 0xa5
			}
			writeFile(t, path, b)
		}, true},
		{"other application", func(t *testing.T, path string) {
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec("CREATE TABLE notes (body TEXT)"); err != nil {
				t.Fatal(err)
			}
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.db")
			tc.make(t, path)
			before := readFile(t, path)
			for _, o := range opens {
				d, err := o.open(path)
				if err == nil {
					d.Close()
					t.Fatalf("%s succeeded", o.name)
				}
				if !errors.Is(err, store.ErrNotDatabase) {
					t.Errorf("%s: error %q does not wrap ErrNotDatabase", o.name, err)
				}
			}
			if !bytes.Equal(readFile(t, path), before) {
				t.Error("opening modified the file")
			}
			if names := dirNames(t, dir); !tc.wal && !slices.Equal(names, []string{"x.db"}) {
				t.Errorf("directory holds %v, want only x.db", names)
			}
		})
	}
}

func TestOpenNewerSchema(t *testing.T) {
	d, path := newDB(t)
	if _, err := store.SQLDB(d).Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, o := range opens {
		t.Run(o.name, func(t *testing.T) {
			d, err := o.open(path)
			if err == nil {
				d.Close()
				t.Fatal("open succeeded")
			}
			if !errors.Is(err, store.ErrSchemaTooNew) {
				t.Errorf("error %q does not wrap ErrSchemaTooNew", err)
			}
		})
	}
}

func TestOpenReadOnlyMissingFile(t *testing.T) {
	dir := t.TempDir()
	_, err := store.OpenReadOnly(filepath.Join(dir, "missing.db"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v does not wrap fs.ErrNotExist", err)
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("directory holds %v, want nothing", names)
	}
}

func TestOpenReadOnlyWritesNothing(t *testing.T) {
	d, path := newDB(t)
	if err := d.SaveResults(t.Context(), []store.Result{doneResult("p1", testGrid.ID)}); err != nil {
		t.Fatal(err)
	}
	d.Close() // checkpoints the WAL into the file
	before := readFile(t, path)

	ro, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if rs, err := ro.Results(t.Context(), store.Filter{}); err != nil || len(rs) != 1 {
		t.Errorf("Results = %d results, %v; want 1, nil", len(rs), err)
	}
	if err := ro.SaveGrid(t.Context(), store.GridRecord{ID: "g2"}); err == nil {
		t.Error("SaveGrid on a read-only database succeeded")
	}
	if _, err := ro.Claim(t.Context(), []string{"p2"}, "me", 1); err == nil {
		t.Error("Claim on a read-only database succeeded")
	}
	if !bytes.Equal(readFile(t, path), before) {
		t.Error("read-only use modified the database file")
	}
}

func TestOpenPathWithURICharacters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a?b#c%d e.db")
	d, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("database not created under its exact name: %v (directory holds %v)", err, dirNames(t, dir))
	}
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
