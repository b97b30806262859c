package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	pointparam "github.com/ccsweep/ccsweep/grids/param"
	"github.com/ccsweep/ccsweep/grids/point"
)

// Point statuses. A point with no stored result is missing.
const (
	StatusDone   = "done"   // simulated; metrics are valid
	StatusFailed = "failed" // the simulation failed; a rerun retries it
)

// metricNames are the metric columns of the points table, in export order.
var metricNames = []string{
	"victim_gbps", "contributors_gbps", "fairness_jain", "var",
	"sd_gbps", "fecn", "becn", "mean_ccti",
	// schema 2
	"background_gbps", "victim_jain", "background_jain",
	"latency_mean_us", "latency_p50_us", "latency_p99_us",
	"victim_latency_mean_us", "victim_latency_p50_us", "victim_latency_p99_us",
	"contributors_latency_mean_us", "contributors_latency_p50_us", "contributors_latency_p99_us",
	"background_latency_mean_us", "background_latency_p50_us", "background_latency_p99_us",
	"offered_load", "accepted_load", "max_link_util", "max_buffer_fill", "dropped_messages",
	// schema 3
	"share_error", "refused_flows",
	// schema 4
	"paths_open_mean",
}

// MetricNames returns the names of the stored metrics in export order
// (model.MetricList's). The caller owns the returned slice.
func MetricNames() []string { return slices.Clone(metricNames) }

// Point is one simulation of a grid: a scenario, its parameters and a
// seed. It is point.Point, the type a grid expands into (grids.Point), so
// a point goes from a grid to the database and back without a conversion.
// Its parameters are named as in the grid, names unique, and read back
// sorted by name; its seed is at most math.MaxInt64.
type Point = point.Point

// Param is one parameter of a point. Value is the canonical text form.
// It is param.Param, the type of a grid point's parameters too.
type Param = pointparam.Param

// Result is what the database holds of a simulated point: a row of the
// points table with its parameters, metrics, series and iteration times,
// done or failed. It is not model.Result, what a run produced (every
// flow's series at full precision, counters, the configuration): a stored
// result keeps the metrics computed from that, the series as stored
// (float32), and also a failure, the point's identity and grid and the
// run's provenance, which a run knows nothing of. sweep builds one from a
// model.Result when it stores a point.
type Result struct {
	ID           string // the point's identity, given by the caller: grids.PointID of Point under ModelVersion
	GridID       string // GridRecord.ID of the grid the point belongs to
	Point        Point
	Status       string    // StatusDone or StatusFailed
	Err          string    // why it failed; empty when done
	Started      time.Time // wall-clock start of the simulation; zero if unknown
	Finished     time.Time // wall-clock end of the simulation; zero if unknown
	WallSeconds  float64   // wall-clock seconds the simulation took
	Events       uint64    // simulated events processed, at most math.MaxInt64
	ModelVersion string    // version of the network model that simulated it
	RunID        int64     // ID returned by BeginRun; 0 for none

	// Metrics holds the metrics by name (see MetricNames) and the metrics
	// of the point's closed-loop applications under the names their
	// scenario gives them (IsAppMetricName; kept in their own table). A
	// missing, NaN or infinite value is stored as NULL (e.g. victim_gbps
	// without a victim) and is absent from the map when read back.
	Metrics map[string]float64

	// Series holds the per-flow throughput time series. Results and the
	// export leave it nil; read it with DB.Series.
	Series []Series

	// Iterations holds the per-iteration times of the point's closed-loop
	// applications that iterate (collectives), one entry per app. Results
	// and the export leave it nil; read it with DB.Iterations.
	Iterations []AppIterations
}

// AppIterations are the iteration times of one closed-loop application of
// a point.
type AppIterations struct {
	App string    // the app's metric label (model.AppResult.Label): IsAppMetricName, unique within a result
	Us  []float64 // the time of iteration k+1 in microseconds, finite
}

// Series is the sampled throughput of one flow.
type Series struct {
	Flow          string    // flow name as in the scenario, e.g. "F1"; unique within a result
	Role          string    // victim, contributor or background
	SampleSeconds float64   // sampling interval in seconds
	Gbps          []float64 // throughput per interval in Gbit/s, stored as float32 (see EncodeSamples)
}

// validate reports the mistakes in r that would otherwise fail a whole
// batch transaction.
func (r *Result) validate() error {
	p := &r.Point
	switch {
	case r.ID == "":
		return fmt.Errorf("result: empty point ID")
	case r.GridID == "":
		return fmt.Errorf("result %s: empty grid ID", r.ID)
	case r.Status != StatusDone && r.Status != StatusFailed:
		return fmt.Errorf("result %s: status %q is neither %q nor %q", r.ID, r.Status, StatusDone, StatusFailed)
	case p.Seed > math.MaxInt64:
		return fmt.Errorf("result %s: seed %d exceeds %d", r.ID, p.Seed, int64(math.MaxInt64))
	case r.Events > math.MaxInt64:
		return fmt.Errorf("result %s: event count %d exceeds %d", r.ID, r.Events, int64(math.MaxInt64))
	}
	seen := make(map[string]bool, len(p.Params))
	for _, prm := range p.Params {
		if prm.Name == "" || seen[prm.Name] {
			return fmt.Errorf("result %s: parameter name %q is empty or repeated", r.ID, prm.Name)
		}
		seen[prm.Name] = true
	}
	for name := range r.Metrics {
		if !slices.Contains(metricNames, name) && !IsAppMetricName(name) {
			return fmt.Errorf("result %s: unknown metric %q", r.ID, name)
		}
	}
	clear(seen)
	for _, a := range r.Iterations {
		if !IsAppMetricName(a.App) || seen[a.App] {
			return fmt.Errorf("result %s: app name %q of iteration times is malformed or repeated", r.ID, a.App)
		}
		seen[a.App] = true
		if i := slices.IndexFunc(a.Us, func(v float64) bool { return math.IsInf(v, 0) || math.IsNaN(v) }); i >= 0 {
			return fmt.Errorf("result %s: app %s: iteration %d's time is %v", r.ID, a.App, i+1, a.Us[i])
		}
	}
	clear(seen)
	for _, s := range r.Series {
		if s.Flow == "" || seen[s.Flow] {
			return fmt.Errorf("result %s: flow name %q is empty or repeated", r.ID, s.Flow)
		}
		seen[s.Flow] = true
		if len(s.Gbps) > 0 && !(s.SampleSeconds > 0) {
			return fmt.Errorf("result %s: flow %s: sample interval %g s is not positive", r.ID, s.Flow, s.SampleSeconds)
		}
	}
	return nil
}

// SaveResults stores rs in one transaction: all of them or, on error, none.
// Each stored result also removes the point's claim. A done result replaces
// any stored result of its point; a failed one replaces a failed one but never
// a done one. Results of a point must name a grid saved with SaveGrid and, if
// RunID is set, a run from BeginRun. Most callers use a Writer instead.
func (d *DB) SaveResults(ctx context.Context, rs []Result) error {
	for i := range rs {
		if err := rs[i].validate(); err != nil {
			return fmt.Errorf("save results: %w", d.classify(err))
		}
	}
	// Compress before taking the write lock.
	blobs := make([][][]byte, len(rs))
	for i, r := range rs {
		for _, s := range r.Series {
			blobs[i] = append(blobs[i], EncodeSamples(s.Gbps))
		}
	}
	tx, err := d.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save results: %w", d.classify(err))
	}
	defer tx.Rollback()
	for i := range rs {
		if err := saveResult(ctx, tx, &rs[i], blobs[i]); err != nil {
			return fmt.Errorf("save result %s: %w", rs[i].ID, d.classify(err))
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save results: %w", d.classify(err))
	}
	return nil
}

var insertPoint = `INSERT INTO points (id, grid_id, scenario, seed, status, error, started, finished,
	wall_seconds, events, run_id, model_version, ` + strings.Join(metricNames, ", ") + `)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?` + strings.Repeat(", ?", len(metricNames)) + `)`

// saveResult stores r with its series encoded in blobs.
func saveResult(ctx context.Context, tx *sql.Tx, r *Result, blobs [][]byte) error {
	p := &r.Point
	if _, err := tx.ExecContext(ctx, `DELETE FROM claims WHERE point_id = ?`, r.ID); err != nil {
		return err
	}
	if r.Status == StatusFailed {
		var done bool
		err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM points WHERE id = ? AND status = 'done')`, r.ID).Scan(&done)
		if err != nil || done {
			return err
		}
	}
	// Cascades to the point's params and series.
	if _, err := tx.ExecContext(ctx, `DELETE FROM points WHERE id = ?`, r.ID); err != nil {
		return err
	}
	var runID any
	if r.RunID != 0 {
		runID = r.RunID
	}
	args := []any{r.ID, r.GridID, p.Scenario, int64(p.Seed), r.Status, r.Err, dbTime(r.Started), dbTime(r.Finished),
		r.WallSeconds, int64(r.Events), runID, r.ModelVersion}
	for _, name := range metricNames {
		args = append(args, nullFloat(r.Metrics, name))
	}
	if _, err := tx.ExecContext(ctx, insertPoint, args...); err != nil {
		return err
	}
	for _, prm := range p.Params {
		_, err := tx.ExecContext(ctx, `INSERT INTO point_params (point_id, name, value) VALUES (?, ?, ?)`,
			r.ID, prm.Name, prm.Value)
		if err != nil {
			return err
		}
	}
	for _, name := range appMetricNames(r.Metrics) {
		if v := nullFloat(r.Metrics, name); v != nil {
			if _, err := tx.ExecContext(ctx, `INSERT INTO app_metrics (point_id, name, value) VALUES (?, ?, ?)`, r.ID, name, v); err != nil {
				return err
			}
		}
	}
	for _, a := range r.Iterations {
		for k, v := range a.Us {
			_, err := tx.ExecContext(ctx, `INSERT INTO app_iterations (point_id, app, iteration, us) VALUES (?, ?, ?, ?)`,
				r.ID, a.App, k+1, v)
			if err != nil {
				return err
			}
		}
	}
	for i, s := range r.Series {
		_, err := tx.ExecContext(ctx, `
			INSERT INTO series (point_id, flow, ord, role, sample_seconds, samples, gbps)
			VALUES (?, ?, ?, ?, ?, ?, ?)`,
			r.ID, s.Flow, i, s.Role, s.SampleSeconds, len(s.Gbps), blobs[i])
		if err != nil {
			return err
		}
	}
	return nil
}

// finite reports whether a metric read back is a number: not NULL and
// not an infinity, which Save never stores but a hand-edited database may
// hold (SQLite has no NaN). A metric that is not is absent when read.
func finite(m sql.NullFloat64) bool { return m.Valid && !math.IsInf(m.Float64, 0) }

// finiteOrZero is v, or 0 (unknown) when v is an infinity or NaN.
func finiteOrZero(v float64) float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0
	}
	return v
}

// nullFloat returns m[name], or nil (NULL) if it is missing or not finite.
func nullFloat(m map[string]float64, name string) any {
	v, ok := m[name]
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return v
}

// Done reports which of ids have a done result. Failed points count as not
// done, so that a rerun retries them. Safe for any number of IDs.
func (d *DB) Done(ctx context.Context, ids []string) (map[string]bool, error) {
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, fmt.Errorf("done: %w", err)
	}
	rows, err := d.sql.QueryContext(ctx, `
		SELECT p.id FROM points p
		WHERE p.status = 'done' AND p.id IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("done: %w", err)
	}
	defer rows.Close()
	done := make(map[string]bool)
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("done: %w", err)
		}
		done[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("done: %w", err)
	}
	return done, nil
}

// Counts returns how many points of the grid gridID are done and failed;
// an empty gridID counts every grid.
func (d *DB) Counts(ctx context.Context, gridID string) (done, failed int, err error) {
	err = d.sql.QueryRowContext(ctx, `
		SELECT count(*) FILTER (WHERE status = 'done'), count(*) FILTER (WHERE status = 'failed')
		FROM points WHERE ?1 = '' OR grid_id = ?1`, gridID).Scan(&done, &failed)
	if err != nil {
		return 0, 0, fmt.Errorf("count points: %w", err)
	}
	return done, failed, nil
}

// Filter selects stored results. The zero Filter selects all of them.
type Filter struct {
	GridID string // only this grid's points, if set
	Status string // only points with this status, if set
}

// Results returns the stored results f selects, with parameters and metrics
// but without series, ordered by grid ID, then parameter values (see
// ExportCSV), then seed, then point ID. It reads one consistent snapshot.
func (d *DB) Results(ctx context.Context, f Filter) ([]Result, error) {
	tx, err := d.sql.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	defer tx.Rollback()
	rs, err := queryResults(ctx, tx, f)
	if err != nil {
		return nil, fmt.Errorf("read results: %w", err)
	}
	sortResults(rs, paramNames(rs))
	return rs, nil
}

var selectPoints = `
	SELECT id, grid_id, scenario, seed, status, error, started, finished,
		wall_seconds, events, run_id, model_version, ` + strings.Join(metricNames, ", ") + `
	FROM points p
	WHERE `

// filterWhere is the condition on points p of a Filter's query, whose
// arguments are its GridID and Status.
const filterWhere = `(?1 = '' OR p.grid_id = ?1) AND (?2 = '' OR p.status = ?2)`

func queryResults(ctx context.Context, tx *sql.Tx, f Filter) ([]Result, error) {
	return queryResultsWhere(ctx, tx, filterWhere, f.GridID, f.Status)
}

// queryResultsWhere returns, in no particular order, the results of the
// points p that the SQL condition where, with arguments args, selects.
func queryResultsWhere(ctx context.Context, tx *sql.Tx, where string, args ...any) ([]Result, error) {
	rows, err := tx.QueryContext(ctx, selectPoints+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var rs []Result
	index := make(map[string]int)
	for rows.Next() {
		var r Result
		var seed, events int64
		var started, finished sql.NullString
		var runID sql.NullInt64
		metrics := make([]sql.NullFloat64, len(metricNames))
		dest := []any{&r.ID, &r.GridID, &r.Point.Scenario, &seed, &r.Status, &r.Err,
			&started, &finished, &r.WallSeconds, &events, &runID, &r.ModelVersion}
		for i := range metrics {
			dest = append(dest, &metrics[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		r.Point.Seed, r.Events, r.RunID = uint64(seed), uint64(events), runID.Int64
		r.WallSeconds = finiteOrZero(r.WallSeconds)
		if r.Started, err = parseTime(started); err != nil {
			return nil, fmt.Errorf("point %s: %w", r.ID, err)
		}
		if r.Finished, err = parseTime(finished); err != nil {
			return nil, fmt.Errorf("point %s: %w", r.ID, err)
		}
		r.Metrics = make(map[string]float64, len(metricNames))
		for i, m := range metrics {
			if finite(m) {
				r.Metrics[metricNames[i]] = m.Float64
			}
		}
		index[r.ID] = len(rs)
		rs = append(rs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	rows, err = tx.QueryContext(ctx, `
		SELECT pp.point_id, pp.name, pp.value
		FROM point_params pp JOIN points p ON p.id = pp.point_id
		WHERE `+where+`
		ORDER BY pp.point_id, pp.name`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var prm Param
		if err := rows.Scan(&id, &prm.Name, &prm.Value); err != nil {
			return nil, err
		}
		if i, ok := index[id]; ok {
			rs[i].Point.Params = append(rs[i].Point.Params, prm)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, `
		SELECT am.point_id, am.name, am.value
		FROM app_metrics am JOIN points p ON p.id = am.point_id
		WHERE `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id, name string
		var v sql.NullFloat64
		if err := rows.Scan(&id, &name, &v); err != nil {
			return nil, err
		}
		if i, ok := index[id]; ok && finite(v) {
			rs[i].Metrics[name] = v.Float64
		}
	}
	return rs, rows.Err()
}

// IsAppMetricName reports whether name can name a metric of a closed-loop
// application in a Result: lowercase letters, digits and '_', starting
// with a letter, at most 128 bytes, and not one of MetricNames.
func IsAppMetricName(name string) bool {
	if name == "" || len(name) > 128 || name[0] < 'a' || name[0] > 'z' || slices.Contains(metricNames, name) {
		return false
	}
	for _, c := range []byte(name) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// appMetricNames returns the names in m that are not MetricNames, sorted.
func appMetricNames(m map[string]float64) []string {
	var names []string
	for name := range m {
		if !slices.Contains(metricNames, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Iterations returns the per-iteration times stored for the point, by app
// name, or none if the point has no result or the database predates them
// (schema 5, which a read-only handle opens as it is).
func (d *DB) Iterations(ctx context.Context, pointID string) ([]AppIterations, error) {
	if d.version < iterationsVersion {
		return nil, nil
	}
	rows, err := d.sql.QueryContext(ctx, `
		SELECT app, iteration, us FROM app_iterations WHERE point_id = ? ORDER BY app, iteration`, pointID)
	if err != nil {
		return nil, fmt.Errorf("read iteration times of %s: %w", pointID, err)
	}
	defer rows.Close()
	var out []AppIterations
	for rows.Next() {
		var app string
		var k int64
		var us sql.NullFloat64
		if err := rows.Scan(&app, &k, &us); err != nil {
			return nil, fmt.Errorf("read iteration times of %s: %w", pointID, err)
		}
		if len(out) == 0 || out[len(out)-1].App != app {
			out = append(out, AppIterations{App: app})
		}
		a := &out[len(out)-1]
		if k != int64(len(a.Us))+1 || !finite(us) {
			return nil, fmt.Errorf("read iteration times of %s, app %s: %w: iteration %d (%v) where %d was expected",
				pointID, app, ErrNotDatabase, k, us.Float64, len(a.Us)+1)
		}
		a.Us = append(a.Us, us.Float64)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read iteration times of %s: %w", pointID, err)
	}
	return out, nil
}

// Series returns the time series stored for the point, in the order they were
// written, or none if the point has no result.
func (d *DB) Series(ctx context.Context, pointID string) ([]Series, error) {
	rows, err := d.sql.QueryContext(ctx, `
		SELECT flow, role, sample_seconds, samples, gbps
		FROM series WHERE point_id = ? ORDER BY ord`, pointID)
	if err != nil {
		return nil, fmt.Errorf("read series of %s: %w", pointID, err)
	}
	defer rows.Close()
	var series []Series
	for rows.Next() {
		var s Series
		var n int
		var blob []byte
		if err := rows.Scan(&s.Flow, &s.Role, &s.SampleSeconds, &n, &blob); err != nil {
			return nil, fmt.Errorf("read series of %s: %w", pointID, err)
		}
		if s.Gbps, err = DecodeSamples(blob); err != nil {
			return nil, fmt.Errorf("read series of %s, flow %s: %w: %w", pointID, s.Flow, ErrNotDatabase, err)
		}
		if len(s.Gbps) != n {
			return nil, fmt.Errorf("read series of %s, flow %s: %w: %d samples decoded, %d stored", pointID, s.Flow, ErrNotDatabase, len(s.Gbps), n)
		}
		if i := slices.IndexFunc(s.Gbps, func(v float64) bool { return math.IsInf(v, 0) || math.IsNaN(v) }); i >= 0 {
			return nil, fmt.Errorf("read series of %s, flow %s: %w: sample %d is %v", pointID, s.Flow, ErrNotDatabase, i, s.Gbps[i])
		}
		if !(s.SampleSeconds > 0) || math.IsInf(s.SampleSeconds, 0) {
			return nil, fmt.Errorf("read series of %s, flow %s: %w: sampling interval %v s", pointID, s.Flow, ErrNotDatabase, s.SampleSeconds)
		}
		series = append(series, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read series of %s: %w", pointID, err)
	}
	return series, nil
}
