package store

import (
	"context"
	"io"
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
	return d.longExport(ctx, w, opt, asJSON, "export iterations", iterationColumns, func(lw *longWriter, r *exportRow) error {
		apps, err := d.Iterations(ctx, r.ID)
		if err != nil {
			return err
		}
		for _, a := range apps {
			for k, v := range a.Us {
				if !lw.asJSON {
					if err := lw.csvRow(a.App, strconv.Itoa(k+1), strconv.FormatFloat(v, 'g', -1, 64)); err != nil {
						return err
					}
					continue
				}
				line := lw.jsonLine()
				line = appendString(appendKey(append(line, ", "...), "app"), a.App)
				line = strconv.AppendInt(appendKey(append(line, ", "...), "iteration"), int64(k+1), 10)
				line = strconv.AppendFloat(appendKey(append(line, ", "...), "us"), v, 'g', -1, 64)
				if err := lw.writeJSON(line); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
