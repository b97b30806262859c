package store

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
)

// ExportCSV writes one CSV row per done point: first the parameter columns,
// the union of the points' parameter names sorted by name (a point without a
// parameter has an empty cell), then seed, then the metrics by the names
// MetricNames returns (NULL gives an empty cell). Parameter values are written
// in their stored canonical text, metrics in the shortest form that reads back
// as the same float64. Rows are ordered by grid ID, then parameter values
// column by column (2 before 10 and 50us before 150us; see compareValues),
// then seed, then point ID, so the output depends only on the stored data.
func (d *DB) ExportCSV(ctx context.Context, w io.Writer) error {
	rows, params, err := d.exportRows(ctx)
	if err != nil {
		return fmt.Errorf("export csv: %w", err)
	}
	cw := csv.NewWriter(w)
	cw.Write(slices.Concat(params, []string{"seed"}, metricNames))
	record := make([]string, 0, len(params)+1+len(metricNames))
	for _, r := range rows {
		record = record[:0]
		for _, name := range params {
			v, _ := param(r.Point.Params, name)
			record = append(record, v)
		}
		record = append(record, strconv.FormatUint(r.Point.Seed, 10))
		for _, name := range metricNames {
			v, ok := r.Metrics[name]
			if !ok {
				record = append(record, "")
				continue
			}
			record = append(record, strconv.FormatFloat(v, 'g', -1, 64))
		}
		cw.Write(record)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("export csv: %w", err)
	}
	return nil
}

// ExportJSON writes the rows of ExportCSV as a JSON array of objects, one per
// done point, with the same keys in the same order. A parameter value that is
// a JSON number (15, 0.5, 1e-3) is written as a number, any other (150us, qp)
// as a string; a point without a parameter omits its key. seed is a number,
// a metric a number or null.
func (d *DB) ExportJSON(ctx context.Context, w io.Writer) error {
	rows, _, err := d.exportRows(ctx)
	if err != nil {
		return fmt.Errorf("export json: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	var line []byte
	for i, r := range rows {
		if i > 0 {
			bw.WriteString(",")
		}
		line = append(line[:0], "\n  {"...)
		for _, p := range r.Point.Params { // sorted by name
			line = appendKey(line, p.Name)
			if jsonNumber.MatchString(p.Value) {
				line = append(line, p.Value...)
			} else {
				line = appendString(line, p.Value)
			}
			line = append(line, ", "...)
		}
		line = appendKey(line, "seed")
		line = strconv.AppendUint(line, r.Point.Seed, 10)
		for _, name := range metricNames {
			line = append(line, ", "...)
			line = appendKey(line, name)
			if v, ok := r.Metrics[name]; ok {
				line = strconv.AppendFloat(line, v, 'g', -1, 64)
			} else {
				line = append(line, "null"...)
			}
		}
		line = append(line, '}')
		bw.Write(line)
	}
	if len(rows) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export json: %w", err)
	}
	return nil
}

// jsonNumber matches the JSON number grammar (RFC 8259, section 6).
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func appendKey(b []byte, key string) []byte {
	return append(appendString(b, key), ": "...)
}

func appendString(b []byte, s string) []byte {
	q, _ := json.Marshal(s) // a string always marshals
	return append(b, q...)
}

// exportRows returns the done points in export order and the sorted union of
// their parameter names.
func (d *DB) exportRows(ctx context.Context) ([]Result, []string, error) {
	rows, err := d.Results(ctx, Filter{Status: StatusDone})
	if err != nil {
		return nil, nil, err
	}
	params := paramNames(rows)
	for _, name := range params {
		if name == "seed" || slices.Contains(metricNames, name) {
			return nil, nil, fmt.Errorf("parameter %q has the name of a seed or metric column", name)
		}
	}
	return rows, params, nil
}

// paramNames returns the union of the parameter names of rs, sorted.
func paramNames(rs []Result) []string {
	var names []string
	seen := make(map[string]bool)
	for _, r := range rs {
		for _, p := range r.Point.Params {
			if !seen[p.Name] {
				seen[p.Name] = true
				names = append(names, p.Name)
			}
		}
	}
	slices.Sort(names)
	return names
}

// param returns the value of the named parameter.
func param(params []Param, name string) (string, bool) {
	for _, p := range params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// sortResults orders rs by grid ID, then the values of the parameters named
// in params, then seed, then point ID.
func sortResults(rs []Result, params []string) {
	slices.SortFunc(rs, func(a, b Result) int {
		if c := cmp.Compare(a.Point.GridID, b.Point.GridID); c != 0 {
			return c
		}
		for _, name := range params {
			va, oka := param(a.Point.Params, name)
			vb, okb := param(b.Point.Params, name)
			if c := compareValues(va, oka, vb, okb); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(a.Point.Seed, b.Point.Seed); c != 0 {
			return c
		}
		return cmp.Compare(a.Point.ID, b.Point.ID)
	})
}

// compareValues orders parameter values: missing first, then by the text
// after a leading number (none for a plain number), then by that number
// (values without one first), then by their text. So 2 sorts before 10, and
// 50us before 150us; the order is total, whatever the mix of values.
func compareValues(a string, hasA bool, b string, hasB bool) int {
	if hasA != hasB {
		if hasA {
			return 1
		}
		return -1
	}
	na, okA, unitA := splitNumber(a)
	nb, okB, unitB := splitNumber(b)
	if c := cmp.Compare(unitA, unitB); c != 0 {
		return c
	}
	if okA != okB {
		if okA {
			return 1
		}
		return -1
	}
	if c := cmp.Compare(na, nb); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

var leadingNumber = regexp.MustCompile(`^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?`)

// splitNumber splits v into a leading decimal number and the rest: "150us"
// gives 150 and "us", "qp" gives no number and "qp".
func splitNumber(v string) (num float64, ok bool, rest string) {
	prefix := leadingNumber.FindString(v)
	if prefix == "" {
		return 0, false, v
	}
	num, err := strconv.ParseFloat(prefix, 64)
	if err != nil {
		return 0, false, v
	}
	return num, true, v[len(prefix):]
}
