package store

import (
	"context"
	"database/sql"
	"fmt"
)

// applicationID marks a ccsweep database in the SQLite header ("ccsw").
const applicationID = 0x63637377

// migrations upgrade the schema one version at a time: migrations[i] takes a
// database from user_version i to i+1. Append to this list; never edit an
// entry that has shipped.
var migrations = []string{
	// 1: the initial schema.
	`
CREATE TABLE grids (
	id            TEXT PRIMARY KEY, -- caller's identity: hash of canonical text and model version
	name          TEXT NOT NULL,
	scenario      TEXT NOT NULL,
	model_version TEXT NOT NULL,
	canonical     TEXT NOT NULL,    -- the grid as run, in canonical form
	created       TEXT NOT NULL
) STRICT;

CREATE TABLE runs (
	id            INTEGER PRIMARY KEY,
	uuid          TEXT NOT NULL UNIQUE, -- identifies the run across merged databases
	version       TEXT NOT NULL,
	commit_hash   TEXT NOT NULL,
	model_version TEXT NOT NULL,
	host          TEXT NOT NULL,
	pid           INTEGER NOT NULL,
	args          TEXT NOT NULL,        -- JSON array
	workers       INTEGER NOT NULL,
	started       TEXT NOT NULL,
	finished      TEXT                  -- NULL while running or if killed
) STRICT;

CREATE TABLE points (
	id                TEXT PRIMARY KEY,
	grid_id           TEXT NOT NULL REFERENCES grids (id),
	scenario          TEXT NOT NULL,
	seed              INTEGER NOT NULL CHECK (seed >= 0),
	status            TEXT NOT NULL CHECK (status IN ('done', 'failed')),
	error             TEXT NOT NULL,
	started           TEXT,
	finished          TEXT,
	wall_seconds      REAL NOT NULL,
	events            INTEGER NOT NULL,
	run_id            INTEGER REFERENCES runs (id),
	model_version     TEXT NOT NULL,
	victim_gbps       REAL,
	contributors_gbps REAL,
	fairness_jain     REAL,
	var               REAL,
	sd_gbps           REAL,
	fecn              REAL,
	becn              REAL,
	mean_ccti         REAL
) STRICT;

CREATE INDEX points_grid_status ON points (grid_id, status);

CREATE TABLE point_params (
	point_id TEXT NOT NULL REFERENCES points (id) ON DELETE CASCADE,
	name     TEXT NOT NULL,
	value    TEXT NOT NULL, -- canonical text
	PRIMARY KEY (point_id, name)
) STRICT, WITHOUT ROWID;

CREATE INDEX point_params_name_value ON point_params (name, value);

CREATE TABLE series (
	point_id       TEXT NOT NULL REFERENCES points (id) ON DELETE CASCADE,
	flow           TEXT NOT NULL,
	ord            INTEGER NOT NULL, -- the flow's position in the point's result
	role           TEXT NOT NULL,
	sample_seconds REAL NOT NULL,
	samples        INTEGER NOT NULL,
	gbps           BLOB NOT NULL,    -- EncodeSamples
	PRIMARY KEY (point_id, flow)
) STRICT;

CREATE TABLE claims (
	point_id TEXT PRIMARY KEY,
	owner    TEXT NOT NULL,
	host     TEXT NOT NULL,
	pid      INTEGER NOT NULL,
	expires  TEXT NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX claims_owner ON claims (owner);
`,
	// 2: the metrics of generated traffic: per-role throughput, fairness and
	// latency, load, the busiest link and the fullest buffer.
	`
ALTER TABLE points ADD COLUMN background_gbps REAL;
ALTER TABLE points ADD COLUMN victim_jain REAL;
ALTER TABLE points ADD COLUMN background_jain REAL;
ALTER TABLE points ADD COLUMN latency_mean_us REAL;
ALTER TABLE points ADD COLUMN latency_p50_us REAL;
ALTER TABLE points ADD COLUMN latency_p99_us REAL;
ALTER TABLE points ADD COLUMN victim_latency_mean_us REAL;
ALTER TABLE points ADD COLUMN victim_latency_p50_us REAL;
ALTER TABLE points ADD COLUMN victim_latency_p99_us REAL;
ALTER TABLE points ADD COLUMN contributors_latency_mean_us REAL;
ALTER TABLE points ADD COLUMN contributors_latency_p50_us REAL;
ALTER TABLE points ADD COLUMN contributors_latency_p99_us REAL;
ALTER TABLE points ADD COLUMN background_latency_mean_us REAL;
ALTER TABLE points ADD COLUMN background_latency_p50_us REAL;
ALTER TABLE points ADD COLUMN background_latency_p99_us REAL;
ALTER TABLE points ADD COLUMN offered_load REAL;
ALTER TABLE points ADD COLUMN accepted_load REAL;
ALTER TABLE points ADD COLUMN max_link_util REAL;
ALTER TABLE points ADD COLUMN max_buffer_fill REAL;
ALTER TABLE points ADD COLUMN dropped_messages REAL;
`,
	// 3: the metrics of the congestion-control schemes: nicrate's share
	// accuracy and refused flows.
	`
ALTER TABLE points ADD COLUMN share_error REAL;
ALTER TABLE points ADD COLUMN refused_flows REAL;
`,
	// 4: distributed routing balancing's open paths.
	`
ALTER TABLE points ADD COLUMN paths_open_mean REAL;
`,
	// 5: the metrics of closed-loop applications, named by their scenario
	// (model.AppResult): one row per point and metric, none for NULL.
	`
CREATE TABLE app_metrics (
	point_id TEXT NOT NULL REFERENCES points (id) ON DELETE CASCADE,
	name     TEXT NOT NULL,
	value    REAL NOT NULL,
	PRIMARY KEY (point_id, name)
) STRICT, WITHOUT ROWID;
`,
	// 6: the per-iteration times of closed-loop applications
	// (Result.Iterations): one row per point, app and iteration.
	`
CREATE TABLE app_iterations (
	point_id  TEXT NOT NULL REFERENCES points (id) ON DELETE CASCADE,
	app       TEXT NOT NULL,    -- the app's metric label (model.AppResult.Label)
	iteration INTEGER NOT NULL, -- counted from 1
	us        REAL NOT NULL,    -- the iteration's time in microseconds
	PRIMARY KEY (point_id, app, iteration)
) STRICT, WITHOUT ROWID;
`,
}

// minReadVersion is the oldest schema a read-only handle opens without
// migrating it: every later schema only added tables, which readers treat
// as empty in an older file (DB.Iterations of a schema-5 file is empty).
const minReadVersion = 5

// iterationsVersion is the first schema with the app_iterations table.
const iterationsVersion = 6

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// schemaVersion returns the database's schema version, 0 for an empty
// database, or an error wrapping ErrNotDatabase if the file belongs to
// another application.
func schemaVersion(ctx context.Context, q querier) (int, error) {
	var app, version, tables int
	if err := q.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return 0, err
	}
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return 0, err
	}
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&tables); err != nil {
		return 0, err
	}
	switch {
	case app == applicationID && version > 0:
		return version, nil
	case app == 0 && version == 0 && tables == 0:
		return 0, nil
	}
	return 0, fmt.Errorf("%w: SQLite database of another application (application_id %#x, user_version %d)", ErrNotDatabase, app, version)
}

// migrate brings the schema up to date in one write transaction, so that two
// processes opening a new file at once create the schema once.
func (d *DB) migrate(ctx context.Context) error {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	v, err := schemaVersion(ctx, tx)
	if err != nil {
		return err
	}
	if v > len(migrations) {
		return fmt.Errorf("%w: schema version %d, this ccsweep knows up to %d", ErrSchemaTooNew, v, len(migrations))
	}
	if v == len(migrations) {
		return nil
	}
	for i := v; i < len(migrations); i++ {
		if _, err := tx.ExecContext(ctx, migrations[i]); err != nil {
			return fmt.Errorf("migrate schema to version %d: %w", i+1, err)
		}
	}
	// PRAGMA takes no bound parameters; both values are integers of ours.
	set := fmt.Sprintf("PRAGMA application_id = %d; PRAGMA user_version = %d", applicationID, len(migrations))
	if _, err := tx.ExecContext(ctx, set); err != nil {
		return err
	}
	return tx.Commit()
}
