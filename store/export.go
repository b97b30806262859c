package store

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
)

// ExportOptions control an export.
type ExportOptions struct {
	// Effective, if set, returns the value every parameter had when a point
	// ran (its own, or the model's default for one it does not set), by
	// name, given the point's scenario, model version and parameters; nil
	// if it cannot tell (a model version it does not know). It fills the
	// cells of parameters a point does not set. Without it those cells are
	// empty.
	Effective func(scenario, modelVersion string, params []Param) map[string]string
	// GridResults, if set, returns the results of grid g with status
	// status, as DB.GridResults selects them: every point of the grid in
	// the database, whoever ran it. The export is then each grid's done
	// points in turn, a point two grids share once under each. Without
	// it, each point is exported once, under the grid that stored it.
	GridResults func(ctx context.Context, g GridRecord, status string) ([]Result, error)
}

// exportColumns are the first columns of an export: the grid's name and ID,
// and the scenario.
var exportColumns = []string{"grid", "grid_id", "scenario"}

// ExportCSV writes one CSV row per done point: first its grid's name and ID
// and its scenario (columns grid, grid_id, scenario), then the parameter
// columns, the union of the points' parameter names sorted by name, then
// seed, then the metrics by the names MetricNames returns and the union of
// the points' app metric names, sorted (NULL or a missing one gives an
// empty cell). A point's own parameter values are written in their stored
// canonical text, the others as opt.Effective gives them (empty without it);
// metrics in the shortest form that reads back as the same float64. Rows are
// ordered by grid ID, then parameter values column by column (2 before 10,
// 50us before 150us before 1ms; see compareValues), then seed, then point
// ID, so the output depends only on the stored data.
func (d *DB) ExportCSV(ctx context.Context, w io.Writer, opt ExportOptions) error {
	rows, params, err := d.exportRows(ctx, opt)
	if err != nil {
		return fmt.Errorf("export csv: %w", err)
	}
	metrics := exportMetrics(rows)
	cw := csv.NewWriter(w)
	cw.Write(slices.Concat(exportColumns, params, []string{"seed"}, metrics))
	record := make([]string, 0, len(exportColumns)+len(params)+1+len(metrics))
	for _, r := range rows {
		record = r.appendCSVHead(record[:0], r.GridID, r.Point.Scenario, params)
		record = append(record, strconv.FormatUint(r.Point.Seed, 10))
		for _, name := range metrics {
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
// done point, with the same keys in the same order. grid, grid_id and
// scenario are strings. A parameter value that is a JSON number (15, 0.5,
// 1e-3) is written as a number, any other (150us, qp) as a string; a
// parameter whose cell ExportCSV leaves empty is left out. seed is a number,
// a metric a number or null.
func (d *DB) ExportJSON(ctx context.Context, w io.Writer, opt ExportOptions) error {
	rows, params, err := d.exportRows(ctx, opt)
	if err != nil {
		return fmt.Errorf("export json: %w", err)
	}
	metrics := exportMetrics(rows)
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	var line []byte
	for i, r := range rows {
		if i > 0 {
			bw.WriteString(",")
		}
		line = r.appendJSONHead(line[:0], r.GridID, r.Point.Scenario, params)
		line = appendKey(line, "seed")
		line = strconv.AppendUint(line, r.Point.Seed, 10)
		for _, name := range metrics {
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

// exportRow is a done point as exported.
type exportRow struct {
	Result
	gridName  string
	effective map[string]string // from ExportOptions.Effective; may be nil
}

// appendCSVHead appends the row's first cells: grid, grid_id, scenario,
// then each of params (value).
func (r *exportRow) appendCSVHead(rec []string, gridID, scenario string, params []string) []string {
	rec = append(rec, r.gridName, gridID, scenario)
	for _, name := range params {
		rec = append(rec, r.value(name))
	}
	return rec
}

// appendJSONHead opens the row's JSON object on a new line and appends
// grid, grid_id and scenario as strings and each of params that has a value,
// as a number when it is a JSON number, else as a string; every entry is
// followed by ", ".
func (r *exportRow) appendJSONHead(line []byte, gridID, scenario string, params []string) []byte {
	line = append(line, "\n  {"...)
	for i, v := range []string{r.gridName, gridID, scenario} {
		line = appendString(appendKey(line, exportColumns[i]), v)
		line = append(line, ", "...)
	}
	for _, name := range params {
		v := r.value(name)
		if v == "" {
			continue
		}
		line = appendKey(line, name)
		if jsonNumber.MatchString(v) {
			line = append(line, v...)
		} else {
			line = appendString(line, v)
		}
		line = append(line, ", "...)
	}
	return line
}

// value returns the cell of parameter name: the point's own value, else its
// effective one, else "".
func (r *exportRow) value(name string) string {
	if v, ok := param(r.Point.Params, name); ok {
		return v
	}
	return r.effective[name]
}

// exportRows returns the done points in export order and the sorted union of
// their parameter names.
func (d *DB) exportRows(ctx context.Context, opt ExportOptions) ([]exportRow, []string, error) {
	grids, err := d.Grids(ctx)
	if err != nil {
		return nil, nil, err
	}
	var rs []Result
	if opt.GridResults == nil {
		if rs, err = d.Results(ctx, Filter{Status: StatusDone}); err != nil {
			return nil, nil, err
		}
	} else {
		for _, g := range grids {
			part, err := opt.GridResults(ctx, g, StatusDone)
			if err != nil {
				return nil, nil, err
			}
			rs = append(rs, part...)
		}
		sortResults(rs, paramNames(rs))
	}
	names := make(map[string]string, len(grids))
	for _, g := range grids {
		names[g.ID] = g.Name
	}
	params := paramNames(rs)
	for _, name := range params {
		if name == "seed" || slices.Contains(metricNames, name) || slices.Contains(exportColumns, name) || slices.ContainsFunc(rs, func(r Result) bool { _, ok := r.Metrics[name]; return ok }) {
			return nil, nil, fmt.Errorf("parameter %q has the name of a grid, seed or metric column", name)
		}
	}
	rows := make([]exportRow, len(rs))
	for i, r := range rs {
		rows[i] = exportRow{Result: r, gridName: names[r.GridID]}
		if opt.Effective != nil {
			rows[i].effective = opt.Effective(r.Point.Scenario, r.ModelVersion, r.Point.Params)
		}
	}
	return rows, params, nil
}

// exportMetrics returns the metric columns of an export: MetricNames, then
// the union of the rows' app metric names, sorted.
func exportMetrics(rows []exportRow) []string {
	seen := map[string]bool{}
	for _, r := range rows {
		for _, name := range appMetricNames(r.Metrics) {
			seen[name] = true
		}
	}
	return slices.Concat(metricNames, slices.Sorted(maps.Keys(seen)))
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
		if c := cmp.Compare(a.GridID, b.GridID); c != 0 {
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
		return cmp.Compare(a.ID, b.ID)
	})
}

// compareValues orders parameter values: missing first, then by the text
// after a leading number (none for a plain number; every duration unit counts
// as "s"), then by that number (a duration's in seconds; values without one
// first), then by their text. So 2 sorts before 10, and 50us before 150us
// before 1ms; the order is total, whatever the mix of values.
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

// durationUnits are the units of duration values, in seconds.
var durationUnits = map[string]float64{"s": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9, "ps": 1e-12}

// splitNumber splits v into a leading decimal number and the rest: "qp"
// gives no number and "qp", "15" gives 15 and "", and a duration its value in
// seconds and "s" ("150us" gives 0.00015 and "s").
func splitNumber(v string) (num float64, ok bool, rest string) {
	prefix := leadingNumber.FindString(v)
	if prefix == "" {
		return 0, false, v
	}
	num, err := strconv.ParseFloat(prefix, 64)
	if err != nil {
		return 0, false, v
	}
	rest = v[len(prefix):]
	if scale, ok := durationUnits[rest]; ok {
		return num * scale, true, "s"
	}
	return num, true, rest
}
