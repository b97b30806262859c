package store

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
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
	what := "export series csv"
	if asJSON {
		what = "export series json"
	}
	rows, params, err := d.exportRows(ctx, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	for _, name := range params {
		if slices.Contains(seriesColumns, name) {
			return fmt.Errorf("%s: parameter %q has the name of a series column", what, name)
		}
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	cw := csv.NewWriter(bw)
	if asJSON {
		bw.WriteString("[")
	} else {
		cw.Write(slices.Concat(exportColumns, params, []string{"seed"}, seriesColumns))
	}
	var line, head []byte
	var record []string
	rowsOut := 0
	for _, r := range rows {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		series, err := d.Series(ctx, r.Point.ID)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		// The cells every row of the point starts with.
		if asJSON {
			head = r.appendJSONHead(head[:0], r.Point.GridID, r.Point.Scenario, params)
			head = strconv.AppendUint(appendKey(head, "seed"), r.Point.Seed, 10)
			head = appendString(appendKey(append(head, ", "...), "point"), r.Point.ID)
		} else {
			record = r.appendCSVHead(record[:0], r.Point.GridID, r.Point.Scenario, params)
			record = append(record, strconv.FormatUint(r.Point.Seed, 10), r.Point.ID)
		}
		n := len(record)
		for _, s := range series {
			at := sampleTimes(s.SampleSeconds)
			for k, v := range s.Gbps {
				if !asJSON {
					record = append(record[:n], s.Flow, s.Role,
						strconv.FormatFloat(at(k+1), 'g', -1, 64), strconv.FormatFloat(v, 'g', -1, 32))
					if err := cw.Write(record); err != nil {
						return fmt.Errorf("%s: %w", what, err) // e.g. a closed pipe: stop reading
					}
					continue
				}
				line = line[:0]
				if rowsOut > 0 {
					line = append(line, ',')
				}
				line = append(line, head...)
				line = appendString(appendKey(append(line, ", "...), "flow"), s.Flow)
				line = appendString(appendKey(append(line, ", "...), "role"), s.Role)
				line = strconv.AppendFloat(appendKey(append(line, ", "...), "time_s"), at(k+1), 'g', -1, 64)
				line = strconv.AppendFloat(appendKey(append(line, ", "...), "gbps"), v, 'g', -1, 32)
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
