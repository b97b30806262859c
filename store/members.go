package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"iter"
)

// Member is a point of a grid as the grid spells it: its identity, the
// identity an older ccsweep gave it ("" if the same), and its parameters.
type Member struct {
	ID       string
	LegacyID string
	Params   []Param
}

// memberBatch is how many points GridResults asks the database about at
// once.
const memberBatch = 4096

// pick is a stored point a grid's view shows: its stored ID and status,
// and the member's parameters when a member selected it (nil otherwise).
type pick struct {
	id, status string
	params     []Param
}

// GridResults returns the stored results of a grid, selected by the
// identities of its points rather than by the grid that stored them: the
// result of every member, stored under its ID or else under its LegacyID
// (whichever grid ran it), and the other points stored under gridID (those
// a refinement added). Each result comes once, with GridID set to gridID;
// a member's has the member's Params, so that two grids that spell one
// point differently each see it their way. A point two members share (two
// sub-grids listing it) belongs to the first. status, if not empty, keeps
// only the results with that status. Results are ordered as Results orders
// them; they have no series. It reads one consistent snapshot.
func (d *DB) GridResults(ctx context.Context, gridID, status string, members iter.Seq[Member]) ([]Result, error) {
	tx, err := d.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("read results of grid %s: %w", gridID, err)
	}
	defer tx.Rollback()
	picks, err := gridPicks(ctx, tx, gridID, status, members)
	if err != nil {
		return nil, fmt.Errorf("read results of grid %s: %w", gridID, err)
	}
	rs := make([]Result, 0, len(picks))
	for start := 0; start < len(picks); start += memberBatch {
		batch := picks[start:min(start+memberBatch, len(picks))]
		ids := make([]string, len(batch))
		for i, p := range batch {
			ids[i] = p.id
		}
		list, err := json.Marshal(ids)
		if err != nil {
			return nil, err
		}
		found, err := queryResultsWhere(ctx, tx, `p.id IN (SELECT value FROM json_each(?1))`, string(list))
		if err != nil {
			return nil, fmt.Errorf("read results of grid %s: %w", gridID, err)
		}
		byID := make(map[string]*Result, len(found))
		for i := range found {
			byID[found[i].Point.ID] = &found[i]
		}
		for _, p := range batch {
			r := *byID[p.id] // the snapshot holds every picked point
			r.Point.GridID = gridID
			if p.params != nil {
				r.Point.Params = p.params
			}
			rs = append(rs, r)
		}
	}
	sortResults(rs, paramNames(rs))
	return rs, nil
}

// GridCounts returns how many of the points GridResults would return are
// done and how many failed, without reading them.
func (d *DB) GridCounts(ctx context.Context, gridID string, members iter.Seq[Member]) (done, failed int, err error) {
	tx, err := d.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, 0, fmt.Errorf("count points of grid %s: %w", gridID, err)
	}
	defer tx.Rollback()
	picks, err := gridPicks(ctx, tx, gridID, "", members)
	if err != nil {
		return 0, 0, fmt.Errorf("count points of grid %s: %w", gridID, err)
	}
	for _, p := range picks {
		switch p.status {
		case StatusDone:
			done++
		case StatusFailed:
			failed++
		}
	}
	return done, failed, nil
}

// gridPicks returns the points of GridResults, members' first in member
// order, reading only their IDs and statuses.
func gridPicks(ctx context.Context, tx *sql.Tx, gridID, status string, members iter.Seq[Member]) ([]pick, error) {
	own, err := queryStatuses(ctx, tx, `p.grid_id = ?1 AND (?2 = '' OR p.status = ?2)`, gridID, status)
	if err != nil {
		return nil, err
	}
	var picks []pick
	taken := map[string]bool{} // stored IDs that picks holds or that are a picked member's twin
	batch := make([]Member, 0, memberBatch)
	flush := func() error {
		ids := make([]string, 0, 2*len(batch))
		for _, m := range batch {
			ids = append(ids, m.ID)
			if m.LegacyID != "" {
				ids = append(ids, m.LegacyID)
			}
		}
		list, err := json.Marshal(ids)
		if err != nil {
			return err
		}
		found, err := queryStatuses(ctx, tx, `p.id IN (SELECT value FROM json_each(?1)) AND (?2 = '' OR p.status = ?2)`, string(list), status)
		if err != nil {
			return err
		}
		for _, m := range batch {
			id := m.ID
			st, ok := found[id]
			if !ok && m.LegacyID != "" {
				id = m.LegacyID
				st, ok = found[id]
			}
			if !ok || taken[id] {
				continue
			}
			// A database that ran the member under both identities holds
			// one point twice: the other is its twin, not another point.
			taken[m.ID], taken[id] = true, true
			if m.LegacyID != "" {
				taken[m.LegacyID] = true
			}
			picks = append(picks, pick{id: id, status: st, params: m.Params})
		}
		batch = batch[:0]
		return nil
	}
	for m := range members {
		if batch = append(batch, m); len(batch) == memberBatch {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	for id, st := range own {
		if !taken[id] {
			picks = append(picks, pick{id: id, status: st})
		}
	}
	return picks, nil
}

// queryStatuses returns the status of each point p that the SQL condition
// where, with arguments args, selects, by ID.
func queryStatuses(ctx context.Context, tx *sql.Tx, where string, args ...any) (map[string]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT p.id, p.status FROM points p WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, st string
		if err := rows.Scan(&id, &st); err != nil {
			return nil, err
		}
		out[id] = st
	}
	return out, rows.Err()
}
