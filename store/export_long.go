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

// longExport writes a long-form export: one row per datum of each done
// point (a sample of a flow, an iteration of an app), each row the
// columns of ExportCSV up to seed, then the point's ID and the datum's own
// columns, as CSV or as a JSON array of objects with those keys in that
// order. what names the export in errors; columns are the datum's columns,
// starting with "point"; rows writes one point's rows through lw. Only one
// point's data is held at a time, and the export stops at the first error
// writing to w.
func (d *DB) longExport(ctx context.Context, w io.Writer, opt ExportOptions, asJSON bool, what string, columns []string,
	rows func(lw *longWriter, r *exportRow) error) error {
	if asJSON {
		what += " json"
	} else {
		what += " csv"
	}
	points, params, err := d.exportRows(ctx, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	for _, name := range params {
		if slices.Contains(columns, name) {
			return fmt.Errorf("%s: parameter %q has the name of one of its columns", what, name)
		}
	}
	lw := &longWriter{asJSON: asJSON, bw: bufio.NewWriterSize(w, 64<<10)}
	lw.cw = csv.NewWriter(lw.bw)
	if asJSON {
		lw.bw.WriteString("[")
	} else {
		lw.cw.Write(slices.Concat(exportColumns, params, []string{"seed"}, columns))
	}
	for i := range points {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		r := &points[i]
		if asJSON {
			lw.head = r.appendJSONHead(lw.head[:0], r.GridID, r.Point.Scenario, params)
			lw.head = strconv.AppendUint(appendKey(lw.head, "seed"), r.Point.Seed, 10)
			lw.head = appendString(appendKey(append(lw.head, ", "...), "point"), r.ID)
		} else {
			lw.record = r.appendCSVHead(lw.record[:0], r.GridID, r.Point.Scenario, params)
			lw.record = append(lw.record, strconv.FormatUint(r.Point.Seed, 10), r.ID)
		}
		lw.n = len(lw.record)
		if err := rows(lw, r); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	if asJSON {
		if lw.rows > 0 {
			lw.bw.WriteString("\n")
		}
		lw.bw.WriteString("]\n")
	}
	lw.cw.Flush()
	if err := lw.cw.Error(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if err := lw.bw.Flush(); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// longWriter writes the rows of one point of a long-form export: the
// point's leading cells are set by longExport, a row adds the datum's own.
type longWriter struct {
	asJSON bool
	bw     *bufio.Writer
	cw     *csv.Writer
	head   []byte   // JSON: the point's leading keys, "{" to its ID
	line   []byte   // JSON: the row being written
	record []string // CSV: the point's leading cells, then the row's
	n      int      // CSV: how many of record's cells are the point's
	rows   int
}

// csvRow writes a CSV row of the point's cells and cells.
func (lw *longWriter) csvRow(cells ...string) error {
	lw.record = append(lw.record[:lw.n], cells...)
	return lw.cw.Write(lw.record) // e.g. a closed pipe: stop reading
}

// jsonLine returns a JSON row's start, up to the point's ID, to append the
// datum's keys to (each after ", ") and pass to writeJSON.
func (lw *longWriter) jsonLine() []byte {
	lw.line = lw.line[:0]
	if lw.rows > 0 {
		lw.line = append(lw.line, ',')
	}
	return append(lw.line, lw.head...)
}

// writeJSON closes the object line and writes it.
func (lw *longWriter) writeJSON(line []byte) error {
	lw.line = line
	lw.rows++
	_, err := lw.bw.Write(append(line, '}'))
	return err
}
