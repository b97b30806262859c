package store

import (
	"context"
	"io"
	"math"
	"strconv"
)

// seriesColumns are the columns of a series export after the parameters
// and seed: the point, the flow and its role, the time at the end of the
// sample interval in seconds and the flow's throughput over that interval.
var seriesColumns = []string{"point", "flow", "role", "time_s", "gbps"}

// ExportSeriesCSV writes the per-flow throughput series of every done
// point in long form, one row per sample of each flow: the columns of
// ExportCSV up to seed (grid, grid_id, scenario, the parameters, seed),
// then point (its ID), flow, role, time_s (the end of the sample interval:
// k times the sampling interval for the k-th sample, counted from 1) and
// gbps. Points come in ExportCSV's order, a point's flows in the order the
// run stored them, a flow's samples by time. Samples are stored as
// float32 and written in the shortest form that reads back as that
// float32. Only one point's series are held at a time, and the export
// stops at the first error writing to w.
func (d *DB) ExportSeriesCSV(ctx context.Context, w io.Writer, opt ExportOptions) error {
	return d.exportSeries(ctx, w, opt, false)
}

// ExportSeriesJSON writes the rows of ExportSeriesCSV as a JSON array of
// objects with the same keys in the same order, typed as ExportJSON types
// them: parameters as numbers when they are JSON numbers, seed, time_s and
// gbps as numbers, the rest as strings.
func (d *DB) ExportSeriesJSON(ctx context.Context, w io.Writer, opt ExportOptions) error {
	return d.exportSeries(ctx, w, opt, true)
}

func (d *DB) exportSeries(ctx context.Context, w io.Writer, opt ExportOptions, asJSON bool) error {
	return d.longExport(ctx, w, opt, asJSON, "export series", seriesColumns, func(lw *longWriter, r *exportRow) error {
		series, err := d.Series(ctx, r.ID)
		if err != nil {
			return err
		}
		for _, s := range series {
			at := sampleTimes(s.SampleSeconds)
			for k, v := range s.Gbps {
				if !lw.asJSON {
					if err := lw.csvRow(s.Flow, s.Role, strconv.FormatFloat(at(k+1), 'g', -1, 64), strconv.FormatFloat(v, 'g', -1, 32)); err != nil {
						return err
					}
					continue
				}
				line := lw.jsonLine()
				line = appendString(appendKey(append(line, ", "...), "flow"), s.Flow)
				line = appendString(appendKey(append(line, ", "...), "role"), s.Role)
				line = strconv.AppendFloat(appendKey(append(line, ", "...), "time_s"), at(k+1), 'g', -1, 64)
				line = strconv.AppendFloat(appendKey(append(line, ", "...), "gbps"), v, 'g', -1, 32)
				if err := lw.writeJSON(line); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// sampleTimes returns the time in seconds at the end of the k-th sample
// interval of length step. A step that is a whole number of picoseconds
// (every step the model uses) is multiplied in integers, so that times
// print as the decimals they are (0.009, not 0.009000000000000001).
func sampleTimes(step float64) func(k int) float64 {
	ps := math.Round(step * 1e12)
	if ps > 0 && ps < 1<<40 && math.Abs(ps-step*1e12) <= 1e-6*ps {
		n := int64(ps)
		return func(k int) float64 { return float64(int64(k)*n) / 1e12 }
	}
	return func(k int) float64 { return float64(k) * step }
}
