package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Run is the provenance of one `ccsweep run` invocation.
type Run struct {
	ID           int64     // assigned by BeginRun; local to one database file
	UUID         string    // assigned by BeginRun; the same in every database the run is merged into
	Version      string    // ccsweep version
	Commit       string    // VCS commit ccsweep was built from
	ModelVersion string    // version of the network model
	Host         string    // host name; BeginRun fills in os.Hostname() if empty
	PID          int       // process ID; BeginRun fills in os.Getpid() if zero
	Args         []string  // command line
	Workers      int       // number of simulation workers
	Started      time.Time // BeginRun fills in time.Now() if zero
	Finished     time.Time // set by EndRun; zero if the run never ended (killed)
}

// BeginRun records the start of a run and returns its ID, to be set as
// Result.RunID and passed to EndRun. r.ID, r.UUID and r.Finished are ignored.
func (d *DB) BeginRun(ctx context.Context, r Run) (int64, error) {
	if r.Host == "" {
		r.Host = hostname()
	}
	if r.PID == 0 {
		r.PID = os.Getpid()
	}
	if r.Started.IsZero() {
		r.Started = time.Now()
	}
	if r.Args == nil {
		r.Args = []string{}
	}
	args, err := json.Marshal(r.Args)
	if err != nil {
		return 0, fmt.Errorf("begin run: %w", d.classify(err))
	}
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("begin run: %w", d.classify(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `
		INSERT INTO runs (uuid, version, commit_hash, model_version, host, pid, args, workers, started)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rand.Text(), r.Version, r.Commit, r.ModelVersion, r.Host, r.PID, string(args), r.Workers, dbTime(r.Started))
	if err != nil {
		return 0, fmt.Errorf("begin run: %w", d.classify(err))
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("begin run: %w", d.classify(err))
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("begin run: %w", d.classify(err))
	}
	return id, nil
}

// EndRun records that run id finished at the given time.
func (d *DB) EndRun(ctx context.Context, id int64, finished time.Time) error {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("end run %d: %w", id, d.classify(err))
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE runs SET finished = ? WHERE id = ?`, dbTime(finished), id)
	if err != nil {
		return fmt.Errorf("end run %d: %w", id, d.classify(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("end run %d: %w", id, d.classify(err))
	}
	if n == 0 {
		return fmt.Errorf("end run %d: no such run", id)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("end run %d: %w", id, d.classify(err))
	}
	return nil
}

// Runs returns every recorded run in the order they began.
func (d *DB) Runs(ctx context.Context) ([]Run, error) {
	rows, err := d.sql.QueryContext(ctx, `
		SELECT id, uuid, version, commit_hash, model_version, host, pid, args, workers, started, finished
		FROM runs ORDER BY started, id`)
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	defer rows.Close()
	var runs []Run
	for rows.Next() {
		var r Run
		var args string
		var started, finished sql.NullString
		err := rows.Scan(&r.ID, &r.UUID, &r.Version, &r.Commit, &r.ModelVersion, &r.Host, &r.PID,
			&args, &r.Workers, &started, &finished)
		if err != nil {
			return nil, fmt.Errorf("list runs: %w", err)
		}
		if err := json.Unmarshal([]byte(args), &r.Args); err != nil {
			return nil, fmt.Errorf("list runs: run %d args: %w", r.ID, err)
		}
		if r.Started, err = parseTime(started); err != nil {
			return nil, fmt.Errorf("list runs: run %d: %w", r.ID, err)
		}
		if r.Finished, err = parseTime(finished); err != nil {
			return nil, fmt.Errorf("list runs: run %d: %w", r.ID, err)
		}
		runs = append(runs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	return runs, nil
}

// hostname returns the host name claims and runs are recorded under.
func hostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "unknown"
	}
	return h
}
