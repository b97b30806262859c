package store

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
)

// iterationColumns are the columns of an iterations export after the
// parameters and seed: the point, the app, the iteration (counted from 1)
// and its time in microseconds.
var iterationColumns = []string{"point", "app", "iteration", "us"}

// ExportIterationsCSV writes the per-iteration times of the closed-loop
// applications of every done point in long form, one row per iteration of
// each app: the columns of ExportCSV up to seed (grid, grid_id, scenario,
// the parameters, seed), then point (its ID), app (its metric label),
// iteration (from 1) and us. Points come in ExportCSV's order, a point's
// apps by name, an app's iterations in order; points without apps write
// no rows. Only one point's times are held at a time.
func (d *DB) ExportIterationsCSV(ctx context.Context, w io.Writer, opt ExportOptions) error {
	return d.exportIterations(ctx, w, opt, false)
}

// ExportIterationsJSON writes the rows of ExportIterationsCSV as a JSON
// array of objects with the same keys in the same order, typed as
// ExportSeriesJSON types them (iteration and us as numbers).
func (d *DB) ExportIterationsJSON(ctx context.Context, w io.Writer, opt ExportOptions) error {
	return d.exportIterations(ctx, w, opt, true)
}

func (d *DB) exportIterations(ctx context.Context, w io.Writer, opt ExportOptions, asJSON bool) error {
	what := "export iterations csv"
	if asJSON {
		what = "export iterations json"
	}
	rows, params, err := d.exportRows(ctx, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	for _, name := range params {
		if slices.Contains(iterationColumns, name) {
			return fmt.Errorf("%s: parameter %q has the name of an iterations column", what, name)
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := csv.NewWriter(bw)
	if asJSON {
		bw.WriteString("[")
	} else {
		cw.Write(slices.Concat(exportColumns, params, []string{"seed"}, iterationColumns))
	}
	var line, head []byte
	var record []string
	rowsOut := 0
	for _, r := range rows {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		apps, err := d.Iterations(ctx, r.Point.ID)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		if len(apps) == 0 {
			continue
		}
		if asJSON {
			head = r.appendJSONHead(head[:0], r.Point.GridID, r.Point.Scenario, params)
			head = strconv.AppendUint(appendKey(head, "seed"), r.Point.Seed, 10)
			head = appendString(appendKey(append(head, ", "...), "point"), r.Point.ID)
		} else {
			record = r.appendCSVHead(record[:0], r.Point.GridID, r.Point.Scenario, params)
			record = append(record, strconv.FormatUint(r.Point.Seed, 10), r.Point.ID)
		}
		n := len(record)
		for _, a := range apps {
			for k, v := range a.Us {
				if !asJSON {
					record = append(record[:n], a.App, strconv.Itoa(k+1), strconv.FormatFloat(v, 'g', -1, 64))
					if err := cw.Write(record); err != nil {
						return fmt.Errorf("%s: %w", what, err)
					}
					continue
				}
				line = line[:0]
				if rowsOut > 0 {
					line = append(line, ',')
				}
				line = append(line, head...)
				line = appendString(appendKey(append(line, ", "...), "app"), a.App)
				line = strconv.AppendInt(appendKey(append(line, ", "...), "iteration"), int64(k+1), 10)
				line = strconv.AppendFloat(appendKey(append(line, ", "...), "us"), v, 'g', -1, 64)
				if _, err := bw.Write(append(line, '}')); err != nil {
					return fmt.Errorf("%s: %w", what, err)
				}
				rowsOut++
			}
		}
	}
	if asJSON {
		if rowsOut > 0 {
			bw.WriteString("\n")
		}
		bw.WriteString("]\n")
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
