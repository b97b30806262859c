package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Claim leases to owner those of ids that have no done result and no valid
// claim by another owner, for ttl, and returns them in the order of ids. It
// runs as one write transaction (BEGIN IMMEDIATE), so two callers, in one
// process or in several sharing the file, never both get the same ID. Claiming
// an ID the owner already holds renews its lease. Owner names one claimant,
// e.g. a run's UUID; the claim also records this host and process.
//
// A claim stops being valid when the point's result is stored (SaveResults
// deletes it), when its owner calls Release, when its lease expires, and, on
// the same host, as soon as the process that made it has died, so that a rerun
// after a crash or SIGKILL takes over the points at once. On other hosts only
// the lease protects the claim: renew long-held claims before ttl runs out.
func (d *DB) Claim(ctx context.Context, ids []string, owner string, ttl time.Duration) ([]string, error) {
	if owner == "" || ttl <= 0 {
		return nil, fmt.Errorf("claim: need an owner and a positive lease, got %q and %v", owner, ttl)
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("claim: %w", d.classify(err))
	}
	host, now := hostname(), time.Now()
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("claim: %w", d.classify(err))
	}
	defer tx.Rollback()
	if err := dropStaleClaims(ctx, tx, host, now); err != nil {
		return nil, fmt.Errorf("claim: %w", d.classify(err))
	}
	// Repeated IDs in the list would make the upsert renew and report an ID
	// twice; DISTINCT avoids both.
	rows, err := tx.QueryContext(ctx, `
		INSERT INTO claims (point_id, owner, host, pid, expires)
		SELECT DISTINCT j.value, ?, ?, ?, ? FROM json_each(?) AS j
		WHERE NOT EXISTS (SELECT 1 FROM points p WHERE p.id = j.value AND p.status = 'done')
		ON CONFLICT (point_id) DO UPDATE SET expires = excluded.expires
			WHERE claims.owner = excluded.owner
		RETURNING point_id`,
		owner, host, os.Getpid(), dbTime(now.Add(ttl)), string(list))
	if err != nil {
		return nil, fmt.Errorf("claim: %w", d.classify(err))
	}
	got := make(map[string]bool)
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("claim: %w", d.classify(err))
		}
		got[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim: %w", d.classify(err))
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("claim: %w", d.classify(err))
	}
	claimed := make([]string, 0, len(got))
	for _, id := range ids {
		if got[id] {
			claimed = append(claimed, id)
			delete(got, id)
		}
	}
	return claimed, nil
}

// dropStaleClaims deletes expired claims and the claims of this host's
// processes that have died.
func dropStaleClaims(ctx context.Context, tx *sql.Tx, host string, now time.Time) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE expires < ?`, dbTime(now)); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT pid FROM claims WHERE host = ?`, host)
	if err != nil {
		return err
	}
	var dead []int
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			rows.Close()
			return err
		}
		if !processAlive(pid) {
			dead = append(dead, pid)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, pid := range dead {
		if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE host = ? AND pid = ?`, host, pid); err != nil {
			return err
		}
	}
	return nil
}

// Release ends every claim owner holds. Claims whose results were stored are
// already gone.
func (d *DB) Release(ctx context.Context, owner string) error {
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("release claims of %s: %w", owner, d.classify(err))
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE owner = ?`, owner); err != nil {
		return fmt.Errorf("release claims of %s: %w", owner, d.classify(err))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("release claims of %s: %w", owner, d.classify(err))
	}
	return nil
}
