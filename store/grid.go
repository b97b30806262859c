package store

import (
	"context"
	"fmt"
	"time"
)

// GridRecord is a grid as run: one per grid identity.
type GridRecord struct {
	ID           string    // identity given by the caller: hash of Canonical and ModelVersion
	Name         string    // the grid's name
	Scenario     string    // the scenario its points run
	ModelVersion string    // version of the network model that ran it
	Canonical    string    // the grid in canonical text form
	Created      time.Time // when SaveGrid first stored it; ignored by SaveGrid
}

// SaveGrid stores g unless a grid with its ID is already stored, so calling it
// again is harmless. It fails with an error wrapping ErrMismatch if a stored
// grid with the same ID differs from g (name, scenario, model version or
// canonical text), which means the caller's identity hash is broken. A grid
// must be saved before results of its points are written.
func (d *DB) SaveGrid(ctx context.Context, g GridRecord) error {
	if g.ID == "" {
		return fmt.Errorf("save grid %q: empty grid ID", g.Name)
	}
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save grid %s: %w", g.ID, d.classify(err))
	}
	defer tx.Rollback()
	_, err = tx.ExecContext(ctx, `
		INSERT INTO grids (id, name, scenario, model_version, canonical, created)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`,
		g.ID, g.Name, g.Scenario, g.ModelVersion, g.Canonical, dbTime(time.Now()))
	if err != nil {
		return fmt.Errorf("save grid %s: %w", g.ID, d.classify(err))
	}
	var stored GridRecord
	err = tx.QueryRowContext(ctx, `SELECT name, scenario, model_version, canonical FROM grids WHERE id = ?`, g.ID).
		Scan(&stored.Name, &stored.Scenario, &stored.ModelVersion, &stored.Canonical)
	if err != nil {
		return fmt.Errorf("save grid %s: %w", g.ID, d.classify(err))
	}
	if stored.Name != g.Name || stored.Scenario != g.Scenario || stored.ModelVersion != g.ModelVersion || stored.Canonical != g.Canonical {
		return fmt.Errorf("save grid %s: %w: a different grid is stored under this ID", g.ID, ErrMismatch)
	}
	return tx.Commit()
}

// Grids returns every stored grid ordered by name, then ID.
func (d *DB) Grids(ctx context.Context) ([]GridRecord, error) {
	rows, err := d.sql.QueryContext(ctx, `
		SELECT id, name, scenario, model_version, canonical, created
		FROM grids ORDER BY name, id`)
	if err != nil {
		return nil, fmt.Errorf("list grids: %w", err)
	}
	defer rows.Close()
	var grids []GridRecord
	for rows.Next() {
		var g GridRecord
		var created string
		if err := rows.Scan(&g.ID, &g.Name, &g.Scenario, &g.ModelVersion, &g.Canonical, &created); err != nil {
			return nil, fmt.Errorf("list grids: %w", err)
		}
		if g.Created, err = time.Parse(timeLayout, created); err != nil {
			return nil, fmt.Errorf("list grids: grid %s: %w", g.ID, err)
		}
		grids = append(grids, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list grids: %w", err)
	}
	return grids, nil
}
