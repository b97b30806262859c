package store

import (
	"bufio"
	"cmp"
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// ConfidenceLevel is the two-sided level of the confidence intervals of
// summaries: 95 %.
const ConfidenceLevel = 0.95

// Stat summarizes one metric of a point over its done seeds.
type Stat struct {
	// N counts the seeds with a value of the metric.
	N int
	// Mean is their mean; SD their sample standard deviation (n−1 in the
	// denominator), 0 for a single seed.
	Mean, SD float64
	// HalfWidth is the half-width of the ConfidenceLevel confidence interval
	// of the mean, t(1−α/2, N−1)·SD/√N with Student's t; +Inf for a single
	// seed, whose spread is unknown.
	HalfWidth float64
}

// Precise reports whether the interval's half-width is at most rel times
// the magnitude of the mean. A mean of 0 is precise only with no spread.
func (s Stat) Precise(rel float64) bool {
	if s.N < 2 {
		return false
	}
	return s.HalfWidth <= rel*math.Abs(s.Mean)
}

// StatOf summarizes xs (see Stat).
func StatOf(xs []float64) Stat {
	s := Stat{N: len(xs), HalfWidth: math.Inf(1)}
	if s.N == 0 {
		s.Mean, s.SD = math.NaN(), math.NaN()
		return s
	}
	if s.N < 2 {
		s.Mean, _ = MeanDev(xs, 1)
		return s
	}
	s.Mean, s.SD = MeanDev(xs, float64(s.N-1))
	s.HalfWidth = TQuantile(s.N-1) * s.SD / math.Sqrt(float64(s.N))
	return s
}

// MeanDev returns the mean of xs and sqrt(Σ(x−mean)²/div). For finite xs
// both are finite, even where a plain sum overflows (values near
// ±MaxFloat64): then it works on xs scaled down, and a deviation past
// MaxFloat64 is MaxFloat64. Otherwise the result is the plain sums', bit
// for bit.
func MeanDev(xs []float64, div float64) (mean, dev float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	dev = math.Sqrt(ss / div)
	if !math.IsInf(mean, 0) && !math.IsInf(dev, 0) || slices.ContainsFunc(xs, func(x float64) bool { return math.IsInf(x, 0) || math.IsNaN(x) }) {
		return mean, dev
	}
	scale := 0.0
	for _, x := range xs {
		scale = max(scale, math.Abs(x))
	}
	var m, sq float64
	for _, x := range xs {
		m += x / scale / float64(len(xs))
	}
	for _, x := range xs {
		sq += (x/scale - m) * (x/scale - m)
	}
	return m * scale, min(math.Sqrt(sq/div)*scale, math.MaxFloat64)
}

// TQuantile returns the quantile 1−(1−ConfidenceLevel)/2 of Student's t
// distribution with dof degrees of freedom (dof ≥ 1): 12.706 for 1, 2.262
// for 9, tending to 1.960. It uses gonum's distuv.StudentsT, whose quantile
// inverts the regularized incomplete beta function, rather than a table.
func TQuantile(dof int) float64 {
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(dof)}
	return t.Quantile(1 - (1-ConfidenceLevel)/2)
}

// Summary is one point of a grid (a scenario and its parameters: a Point
// without its seed) with its seeds' results aggregated. What a sweep did is
// another idea, sweep.Outcome; a summary's place in a ranking is
// report/rank's Entry.
type Summary struct {
	GridID   string
	Scenario string
	// Params are the point's parameters, sorted by name; Key spells them
	// (with the scenario) as one string that identifies the point.
	Params []Param
	Key    string
	// Seeds are the done seeds, ascending; IDs their point IDs, in the
	// same order. Failed counts the seeds that failed.
	Seeds  []uint64
	IDs    []string
	Failed int
	// Metrics summarize each metric over the done seeds that have it.
	Metrics map[string]Stat
}

// Value returns the point's value of parameter name, if it sets it.
func (s *Summary) Value(name string) (string, bool) { return param(s.Params, name) }

// PointKey spells a scenario and its parameters (in any order) as the key
// that identifies a point whatever its seed.
func PointKey(scenario string, params []Param) string {
	sorted := slices.Clone(params)
	slices.SortFunc(sorted, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
	var b strings.Builder
	b.WriteString(scenario)
	for _, p := range sorted {
		b.WriteString("\x00")
		b.WriteString(p.Name)
		b.WriteString("=")
		b.WriteString(p.Value)
	}
	return b.String()
}

// Summarize groups rs by grid, scenario and parameters and summarizes each
// group's done seeds; failed results only count in Failed. Summaries come in
// the order of the first result of each group.
func Summarize(rs []Result) []*Summary {
	var out []*Summary
	byKey := map[string]*Summary{}
	values := map[*Summary]map[string][]float64{}
	for i := range rs {
		r := &rs[i]
		key := PointKey(r.Point.Scenario, r.Point.Params)
		s := byKey[r.GridID+"\x01"+key]
		if s == nil {
			params := slices.Clone(r.Point.Params)
			slices.SortFunc(params, func(a, b Param) int { return strings.Compare(a.Name, b.Name) })
			s = &Summary{GridID: r.GridID, Scenario: r.Point.Scenario, Params: params, Key: key,
				Metrics: map[string]Stat{}}
			byKey[r.GridID+"\x01"+key] = s
			values[s] = map[string][]float64{}
			out = append(out, s)
		}
		if r.Status != StatusDone {
			s.Failed++
			continue
		}
		s.Seeds = append(s.Seeds, r.Point.Seed)
		s.IDs = append(s.IDs, r.ID)
		for name, v := range r.Metrics {
			values[s][name] = append(values[s][name], v)
		}
	}
	for _, s := range out {
		// Seeds in ascending order, the metrics' values with them.
		order := make([]int, len(s.Seeds))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(s.Seeds[a], s.Seeds[b]) })
		seeds, ids := slices.Clone(s.Seeds), slices.Clone(s.IDs)
		for i, k := range order {
			s.Seeds[i], s.IDs[i] = seeds[k], ids[k]
		}
		for name, xs := range values[s] {
			s.Metrics[name] = StatOf(xs)
		}
	}
	return out
}

// ResultsOf returns the stored results of the points ids (done or failed,
// with their apps' metrics, without series), in no particular order; IDs without a result are left
// out. Safe for any number of IDs.
func (d *DB) ResultsOf(ctx context.Context, ids []string) ([]Result, error) {
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	tx, err := d.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `
		SELECT id, grid_id, scenario, seed, status, error, wall_seconds, events, model_version, `+strings.Join(metricNames, ", ")+`
		FROM points WHERE id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	var rs []Result
	index := map[string]int{}
	for rows.Next() {
		var r Result
		var seed, events int64
		metrics := make([]sql.NullFloat64, len(metricNames))
		dest := []any{&r.ID, &r.GridID, &r.Point.Scenario, &seed, &r.Status, &r.Err, &r.WallSeconds, &events, &r.ModelVersion}
		for i := range metrics {
			dest = append(dest, &metrics[i])
		}
		if err := rows.Scan(dest...); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read results: %w", err)
		}
		r.Point.Seed, r.Events = uint64(seed), uint64(events)
		r.WallSeconds = finiteOrZero(r.WallSeconds)
		r.Metrics = map[string]float64{}
		for i, m := range metrics {
			if finite(m) {
				r.Metrics[metricNames[i]] = m.Float64
			}
		}
		index[r.ID] = len(rs)
		rs = append(rs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	rows, err = tx.QueryContext(ctx, `
		SELECT point_id, name, value FROM point_params
		WHERE point_id IN (SELECT value FROM json_each(?)) ORDER BY point_id, name`, string(list))
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var p Param
		if err := rows.Scan(&id, &p.Name, &p.Value); err != nil {
			return nil, fmt.Errorf("read results: %w", err)
		}
		if i, ok := index[id]; ok {
			rs[i].Point.Params = append(rs[i].Point.Params, p)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	rows.Close()
	rows, err = tx.QueryContext(ctx, `
		SELECT point_id, name, value FROM app_metrics
		WHERE point_id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		var v sql.NullFloat64
		if err := rows.Scan(&id, &name, &v); err != nil {
			return nil, fmt.Errorf("read results: %w", err)
		}
		if i, ok := index[id]; ok && finite(v) {
			rs[i].Metrics[name] = v.Float64
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	return rs, nil
}

// summaryColumns are the columns of a summary export after the parameters:
// the number of done seeds, then mean, sample sd and confidence half-width
// of every metric of metrics.
func summaryColumns(metrics []string) []string {
	cols := []string{"seeds"}
	for _, m := range metrics {
		cols = append(cols, m+"_mean", m+"_sd", m+"_ci95")
	}
	return cols
}

// summaryRows returns the points of the export (see exportRows) with their
// seeds aggregated, in export order, the parameter columns and the metrics
// (exportMetrics: the fixed ones, then the apps').
func (d *DB) summaryRows(ctx context.Context, opt ExportOptions) ([]*Summary, []exportRow, []string, []string, error) {
	rows, params, err := d.exportRows(ctx, opt)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	rs := make([]Result, len(rows))
	for i, r := range rows {
		rs[i] = r.Result
	}
	sums := Summarize(rs)
	// The first export row of each summary gives its grid name and
	// effective parameters: rows of one point are adjacent.
	firsts := make([]exportRow, 0, len(sums))
	seen := map[string]bool{}
	for _, r := range rows {
		k := r.GridID + "\x01" + PointKey(r.Point.Scenario, r.Point.Params)
		if !seen[k] {
			seen[k] = true
			firsts = append(firsts, r)
		}
	}
	return sums, firsts, params, exportMetrics(rows), nil
}

// ExportSummaryCSV writes one CSV row per point of the export of ExportCSV
// with its seeds aggregated: grid, grid_id, scenario and the parameter
// columns as ExportCSV writes them, then seeds (how many are done), then for
// every metric (by the names MetricNames returns, then the apps' metrics as
// ExportCSV names them) its mean (NAME_mean),
// sample standard deviation (NAME_sd, 0 for one seed) and the half-width of
// its 95 % confidence interval (NAME_ci95, empty for one seed). Rows are in
// export order.
func (d *DB) ExportSummaryCSV(ctx context.Context, w io.Writer, opt ExportOptions) error {
	sums, firsts, params, metrics, err := d.summaryRows(ctx, opt)
	if err != nil {
		return fmt.Errorf("export summary csv: %w", err)
	}
	cw := csv.NewWriter(w)
	cw.Write(slices.Concat(exportColumns, params, summaryColumns(metrics)))
	for i, s := range sums {
		r := firsts[i]
		rec := r.appendCSVHead(nil, s.GridID, s.Scenario, params)
		rec = append(rec, strconv.Itoa(len(s.Seeds)))
		for _, name := range metrics {
			st, ok := s.Metrics[name]
			if !ok {
				rec = append(rec, "", "", "")
				continue
			}
			rec = append(rec, formatFloat(st.Mean), formatFloat(st.SD), formatFloat(st.HalfWidth))
		}
		cw.Write(rec)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("export summary csv: %w", err)
	}
	return nil
}

// ExportSummaryJSON writes the rows of ExportSummaryCSV as a JSON array of
// objects with the same keys in the same order; parameters as ExportJSON
// writes them, an undefined value (a metric no seed has, the interval of a
// single seed) as null.
func (d *DB) ExportSummaryJSON(ctx context.Context, w io.Writer, opt ExportOptions) error {
	sums, firsts, params, metrics, err := d.summaryRows(ctx, opt)
	if err != nil {
		return fmt.Errorf("export summary json: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("[")
	var line []byte
	for i, s := range sums {
		r := firsts[i]
		if i > 0 {
			bw.WriteString(",")
		}
		line = r.appendJSONHead(line[:0], s.GridID, s.Scenario, params)
		line = appendKey(line, "seeds")
		line = strconv.AppendInt(line, int64(len(s.Seeds)), 10)
		for _, name := range metrics {
			st, ok := s.Metrics[name]
			vals := []float64{math.NaN(), math.NaN(), math.NaN()}
			if ok {
				vals = []float64{st.Mean, st.SD, st.HalfWidth}
			}
			for k, suffix := range []string{"_mean", "_sd", "_ci95"} {
				line = append(line, ", "...)
				line = appendKey(line, name+suffix)
				if v := vals[k]; math.IsNaN(v) || math.IsInf(v, 0) {
					line = append(line, "null"...)
				} else {
					line = strconv.AppendFloat(line, v, 'g', -1, 64)
				}
			}
		}
		line = append(line, '}')
		bw.Write(line)
	}
	if len(sums) > 0 {
		bw.WriteString("\n")
	}
	bw.WriteString("]\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export summary json: %w", err)
	}
	return nil
}

// formatFloat spells v for a CSV cell: the shortest form that reads back,
// empty for NaN or an infinity.
func formatFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
