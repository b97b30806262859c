package store

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// TestMigrateFromVersion1: a database written by a ccsweep of schema 1 opens
// read-write, gains the metric columns of schema 2 (NULL for its points) and
// keeps what it held.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(migrations[0]); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = 1", applicationID),
		`INSERT INTO grids (id, name, scenario, model_version, canonical, created) VALUES ('g', 'n', 'testbed-s1', 'ib-1', '{}', '2026-01-01T00:00:00Z')`,
		`INSERT INTO points (id, grid_id, scenario, seed, status, error, wall_seconds, events, model_version, victim_gbps)
			VALUES ('p', 'g', 'testbed-s1', 1, 'done', '', 1, 2, 'ib-1', 12.5)`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var version int
	var victim float64
	var latency, shareError sql.NullFloat64
	if err := d.sql.QueryRow("PRAGMA user_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if err := d.sql.QueryRow("SELECT victim_gbps, latency_p99_us, share_error FROM points WHERE id = 'p'").Scan(&victim, &latency, &shareError); err != nil {
		t.Fatal(err)
	}
	if version != len(migrations) || victim != 12.5 || latency.Valid || shareError.Valid {
		t.Errorf("after upgrade: version %d, victim %v, latency %v, share error %v; want %d, 12.5, NULL, NULL", version, victim, latency, shareError, len(migrations))
	}
}
