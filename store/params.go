package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
)

// ParamCheck reports why value is not a valid value of parameter name for
// a point of model version modelVersion, or nil if it is, or if the check
// cannot tell (another model version, a parameter it does not know).
type ParamCheck func(modelVersion, name, value string) error

// paramCheck is the check CheckParamsWith set, or nil.
var paramCheck atomic.Pointer[ParamCheck]

// CheckParamsWith makes Open and OpenReadOnly check every distinct stored
// parameter value with check: a database holding a value check rejects
// (a hand-edited or damaged file) is refused at open with an error
// wrapping ErrNotDatabase that says why (check's error, which names the
// parameter and value), before any command reads or merges it. The store knows no parameters, so the
// program that knows them sets the check once, at start; nil turns
// checking off (the default).
func CheckParamsWith(check ParamCheck) {
	if check == nil {
		paramCheck.Store(nil)
		return
	}
	paramCheck.Store(&check)
}

// checkParams fails with an error wrapping ErrNotDatabase at the first
// stored parameter value the ParamCheck rejects. When every grid is of one
// model version it reads each distinct name and value once, by seeking in
// the index point_params_name_value (a query per distinct value, however
// many points share it); otherwise it joins every value to its point's
// model version.
func (d *DB) checkParams(ctx context.Context) error {
	check := paramCheck.Load()
	if check == nil {
		return nil
	}
	var versions int
	var version sql.NullString
	err := d.sql.QueryRowContext(ctx, `SELECT count(DISTINCT model_version), min(model_version) FROM grids`).Scan(&versions, &version)
	if err != nil {
		return err
	}
	reject := func(version, name, value string) error {
		if err := (*check)(version, name, value); err != nil {
			return fmt.Errorf("%w: damaged: a point's parameter value does not parse: %v", ErrNotDatabase, err)
		}
		return nil
	}
	if versions > 1 {
		rows, err := d.sql.QueryContext(ctx, `
			SELECT DISTINCT p.model_version, pp.name, pp.value
			FROM point_params pp JOIN points p ON p.id = pp.point_id`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var version, name, value string
			if err := rows.Scan(&version, &name, &value); err != nil {
				return err
			}
			if err := reject(version, name, value); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	// Points are stored under a grid, and a grid's ID is of one model
	// version: every point is of version.
	name := ""
	for {
		err := d.sql.QueryRowContext(ctx, `SELECT name FROM point_params WHERE name > ? ORDER BY name LIMIT 1`, name).Scan(&name)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		var value string
		err = d.sql.QueryRowContext(ctx, `SELECT min(value) FROM point_params WHERE name = ?`, name).Scan(&value)
		for err == nil {
			if err := reject(version.String, name, value); err != nil {
				return err
			}
			err = d.sql.QueryRowContext(ctx, `SELECT value FROM point_params WHERE name = ? AND value > ? ORDER BY value LIMIT 1`, name, value).Scan(&value)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
	}
}
