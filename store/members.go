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

// pick is a stored point a grid's view shows: its stored ID, status and
// grid, and the member's parameters when a member selected it (nil
// otherwise).
type pick struct {
	id, status, grid string
	params           []Param
	twin             *stored // a member's other identity, when stored too
}

// stored is a stored point's status and grid.
type stored struct{ status, grid string }

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
			byID[found[i].ID] = &found[i]
		}
		for _, p := range batch {
			r := *byID[p.id] // the snapshot holds every picked point
			r.GridID = gridID
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
	s, err := newGridScan(ctx, tx, gridID, "")
	if err == nil {
		err = s.members(members)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("count points of grid %s: %w", gridID, err)
	}
	// The grid's own points, counted in SQL, corrected by the members:
	// plus those stored under another grid, minus the twins of found ones
	// stored under this one.
	err = tx.QueryRowContext(ctx, `
		SELECT count(*) FILTER (WHERE status = 'done'), count(*) FILTER (WHERE status = 'failed')
		FROM points WHERE grid_id = ?`, gridID).Scan(&done, &failed)
	if err != nil {
		return 0, 0, fmt.Errorf("count points of grid %s: %w", gridID, err)
	}
	count := func(status string, n int) {
		switch status {
		case StatusDone:
			done += n
		case StatusFailed:
			failed += n
		}
	}
	for _, p := range s.found {
		if p.grid != gridID {
			count(p.status, 1)
		}
		if p.twin != nil && p.twin.grid == gridID {
			count(p.twin.status, -1)
		}
	}
	return done, failed, nil
}

// gridPicks returns the points of GridResults, members' first in member
// order, reading only their IDs and statuses.
func gridPicks(ctx context.Context, tx *sql.Tx, gridID, status string, members iter.Seq[Member]) ([]pick, error) {
	s, err := newGridScan(ctx, tx, gridID, status)
	if err != nil {
		return nil, err
	}
	if err := s.members(members); err != nil {
		return nil, err
	}
	return s.picks()
}

// gridScan selects the points of a grid's view (GridResults).
type gridScan struct {
	ctx            context.Context
	tx             *sql.Tx
	gridID, status string
	// others is set when points of other grids are stored: only then can a
	// member be stored elsewhere. Else only members with a legacy ID (twins
	// under two identities) are looked up: the others are the grid's own,
	// spelt as it spells them.
	others bool
	legacy bool            // a member has a legacy ID
	found  []pick          // members found, in member order
	taken  map[string]bool // stored IDs that found holds or that are a found member's twin
}

func newGridScan(ctx context.Context, tx *sql.Tx, gridID, status string) (*gridScan, error) {
	s := &gridScan{ctx: ctx, tx: tx, gridID: gridID, status: status, taken: map[string]bool{}}
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM points WHERE grid_id < ?1 OR grid_id > ?1)`, gridID).Scan(&s.others)
	return s, err
}

// members looks the members up, a batch at a time.
func (s *gridScan) members(members iter.Seq[Member]) error {
	batch := make([]Member, 0, memberBatch)
	for m := range members {
		if m.LegacyID != "" {
			s.legacy = true
		} else if !s.others {
			continue
		}
		if batch = append(batch, m); len(batch) == memberBatch {
			if err := s.lookup(batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return s.lookup(batch)
}

// lookup finds the members of batch under their ID or legacy ID.
func (s *gridScan) lookup(batch []Member) error {
	if len(batch) == 0 {
		return nil
	}
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
	found, err := queryStatuses(s.ctx, s.tx, `p.id IN (SELECT value FROM json_each(?1)) AND (?2 = '' OR p.status = ?2)`, string(list), s.status)
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
		if !ok || s.taken[id] {
			continue
		}
		// A database that ran the member under both identities holds
		// one point twice: the other is its twin, not another point.
		s.taken[m.ID], s.taken[id] = true, true
		p := pick{id: id, status: st.status, grid: st.grid, params: m.Params}
		if m.LegacyID != "" {
			s.taken[m.LegacyID] = true
			if twin, ok := found[m.LegacyID]; ok && id == m.ID {
				p.twin = &twin
			}
		}
		s.found = append(s.found, p)
	}
	return nil
}

// picks returns the members found, then the grid's own points no member
// took.
func (s *gridScan) picks() ([]pick, error) {
	own, err := queryStatuses(s.ctx, s.tx, `p.grid_id = ?1 AND (?2 = '' OR p.status = ?2)`, s.gridID, s.status)
	if err != nil {
		return nil, err
	}
	picks := s.found
	for id, st := range own {
		if !s.taken[id] {
			picks = append(picks, pick{id: id, status: st.status, grid: st.grid})
		}
	}
	return picks, nil
}

// queryStatuses returns the status and grid of each point p that the SQL
// condition where, with arguments args, selects, by ID.
func queryStatuses(ctx context.Context, tx *sql.Tx, where string, args ...any) (map[string]stored, error) {
	rows, err := tx.QueryContext(ctx, `SELECT p.id, p.status, p.grid_id FROM points p WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]stored{}
	for rows.Next() {
		var id string
		var st stored
		if err := rows.Scan(&id, &st.status, &st.grid); err != nil {
			return nil, err
		}
		out[id] = st
	}
	return out, rows.Err()
}
