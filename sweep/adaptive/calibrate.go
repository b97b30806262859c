package adaptive

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
)

// CalibrateStepper is the Stepper of a calibration (grids.Calibrate): for
// round r ≥ 1 it lays, around the point nearest the measurement so far
// (see Error), a grid of as many values per fitted axis as the grid
// has, over a box Shrink^r times the axis's range (on its scale), kept
// inside the range; it stops after Rounds rounds. Make one with NewCalibrateStepper.
type CalibrateStepper struct {
	Cal *grids.Calibrate

	mu   sync.Mutex
	errs map[string]float64 // by point ID: each point's series is read once
}

// NewCalibrateStepper returns the stepper of c.
func NewCalibrateStepper(c *grids.Calibrate) *CalibrateStepper {
	return &CalibrateStepper{Cal: c, errs: map[string]float64{}}
}

// ErrNoSeries is returned when a point's stored result holds no series to
// compare with the measurement.
var ErrNoSeries = errors.New("no throughput series stored")

// Next proposes the next round's grid around the best fit so far.
func (cs *CalibrateStepper) Next(ctx context.Context, in StepInput) ([]Planned, error) {
	c := cs.Cal
	if in.Round >= c.Rounds {
		return nil, nil
	}
	best, _, err := cs.best(ctx, in.DB, in.Planned)
	if err != nil || best == nil {
		return nil, err
	}
	// The range and value count of every fitted axis, from the grid.
	axes := in.Grid.Axes()
	var values [][]string
	for _, ax := range c.Axes {
		i := slices.IndexFunc(axes, func(a grids.Axis) bool { return a.Name == ax.Name })
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range axes[i].Values {
			x, _ := grids.AxisNumber(ax.Name, v)
			lo, hi = min(lo, scale(ax, x)), max(hi, scale(ax, x))
		}
		n := len(axes[i].Values)
		cur, _ := best.Value(ax.Name)
		x, ok := grids.AxisNumber(ax.Name, cur)
		if !ok || n < 2 {
			values = append(values, []string{cur})
			continue
		}
		w := (hi - lo) * math.Pow(c.Shrink, float64(in.Round+1)) / 2
		from := min(max(scale(ax, x)-w, lo), hi-2*w)
		var vals []string
		for j := range n {
			v, ok := grids.AxisValue(ax.Name, unscale(ax, from+2*w*float64(j)/float64(n-1)))
			if ok && !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
		values = append(values, vals)
	}
	var next []Planned
	idx := make([]int, len(values))
	for {
		params := best.Params
		for k, ax := range c.Axes {
			params = withParam(params, ax.Name, values[k][idx[k]])
		}
		for seed := 1; seed <= in.Grid.Subs[best.Sub].Seeds; seed++ {
			pt := grids.Point{Scenario: best.Scenario, Params: params, Seed: uint64(seed)}
			next = append(next, Planned{Point: pt, Sub: best.Sub, Added: true})
		}
		k := len(idx) - 1
		for ; k >= 0; k-- {
			if idx[k]++; idx[k] < len(values[k]) {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return next, nil
		}
	}
}

// best returns the planned point (its first seed) with the least error,
// mean over its seeds, and that error; ties go to the earliest planned.
func (cs *CalibrateStepper) best(ctx context.Context, db *store.DB, planned []Planned) (*Planned, float64, error) {
	type acc struct {
		p   *Planned
		sum float64
		n   int
	}
	byKey := map[string]*acc{}
	var order []*acc
	for i := range planned {
		p := &planned[i]
		e, err := cs.Error(ctx, db, p.Point)
		if err != nil {
			return nil, 0, err
		}
		key := keyOf(p.Point)
		a := byKey[key]
		if a == nil {
			a = &acc{p: p}
			byKey[key] = a
			order = append(order, a)
		}
		a.sum += e
		a.n++
	}
	var best *acc
	for _, a := range order {
		if best == nil || a.sum/float64(a.n) < best.sum/float64(best.n) {
			best = a
		}
	}
	if best == nil {
		return nil, 0, nil
	}
	return best.p, best.sum / float64(best.n), nil
}

// Error returns how far the stored series of point p is from the
// measurement: the root mean square, over every phase and flow with a
// measured sample (and throughput in the measurement or the model), of the
// difference between the model's and the measurement's mean throughput in
// that phase, in Gbit/s. Means per phase, not samples, are compared: a real
// fabric's oscillations are not in step with the model's.
func (cs *CalibrateStepper) Error(ctx context.Context, db *store.DB, p grids.Point) (float64, error) {
	id := grids.PointID(p, model.Version)
	cs.mu.Lock()
	e, ok := cs.errs[id]
	cs.mu.Unlock()
	if ok {
		return e, nil
	}
	cfg, err := grids.PointConfig(p)
	if err != nil {
		return 0, err
	}
	series, err := seriesOf(ctx, db, p)
	if err != nil {
		return 0, err
	}
	rows, err := compare(cs.Cal.Data, series, cfg.Phase)
	if err != nil {
		return 0, fmt.Errorf("point %s: %w", id, err)
	}
	e = phaseError(rows)
	cs.mu.Lock()
	cs.errs[id] = e
	cs.mu.Unlock()
	return e, nil
}

// seriesOf returns the series db holds of point p: under its ID, or
// under its legacy ID (grids.LegacyPointID) in a database written before
// the two differed.
func seriesOf(ctx context.Context, db *store.DB, p grids.Point) ([]store.Series, error) {
	series, err := db.Series(ctx, grids.PointID(p, model.Version))
	if l := grids.LegacyPointID(p, model.Version); err == nil && len(series) == 0 && l != "" {
		return db.Series(ctx, l)
	}
	return series, err
}

// phaseError is the root mean square of the differences of the rows'
// means, over the rows where either mean is not zero.
func phaseError(rows []FitRow) float64 {
	var sum float64
	n := 0
	for _, r := range rows {
		if r.Measured == 0 && r.Model == 0 {
			continue
		}
		d := r.Model - r.Measured
		sum += d * d
		n++
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(sum / float64(n))
}

// FitRow compares one flow in one phase: the means of the measured and
// the model's samples and the root mean square of their difference.
type FitRow struct {
	Flow string
	// Phase counts from 0; -1 when rows are not split by phase.
	Phase           int
	Measured, Model float64
	RMSE            float64
	N               int
	sq              float64
}

// compare lines the measurement up with a point's series, sample by sample,
// and sums the differences per flow and phase (phase 0: one row per flow).
func compare(m *grids.Measurement, series []store.Series, phase engine.Time) ([]FitRow, error) {
	if len(series) == 0 {
		return nil, ErrNoSeries
	}
	var rows []FitRow
	at := map[[2]int]int{}
	for fi, f := range m.Flows {
		k := slices.IndexFunc(series, func(s store.Series) bool { return s.Flow == f })
		if k < 0 {
			return nil, fmt.Errorf("the model has no flow %s", f)
		}
		s := series[k]
		if math.Abs(s.SampleSeconds-m.Sample.Seconds()) > 1e-9*m.Sample.Seconds() {
			return nil, fmt.Errorf("flow %s sampled every %g s, the measurement every %s", f, s.SampleSeconds, m.Sample)
		}
		idx := make([]int, 0, len(m.Gbps[f]))
		for i := range m.Gbps[f] {
			idx = append(idx, i)
		}
		slices.Sort(idx)
		for _, i := range idx {
			if i >= len(s.Gbps) {
				return nil, fmt.Errorf("flow %s: the measurement goes on after the model's %d samples", f, len(s.Gbps))
			}
			ph := -1
			if phase > 0 {
				ph = int(engine.Time(i) * m.Sample / phase)
			}
			key := [2]int{fi, ph}
			j, ok := at[key]
			if !ok {
				j = len(rows)
				at[key] = j
				rows = append(rows, FitRow{Flow: f, Phase: ph})
			}
			r := &rows[j]
			d := s.Gbps[i] - m.Gbps[f][i]
			r.Measured += m.Gbps[f][i]
			r.Model += s.Gbps[i]
			r.sq += d * d
			r.N++
		}
	}
	for i := range rows {
		r := &rows[i]
		r.Measured /= float64(r.N)
		r.Model /= float64(r.N)
		r.RMSE = math.Sqrt(r.sq / float64(r.N))
	}
	slices.SortStableFunc(rows, func(a, b FitRow) int { return a.Phase - b.Phase })
	return rows, nil
}

// Fit is the outcome of a calibration.
type Fit struct {
	// Best is the point (its first seed) nearest the measurement, RMSE its
	// error in Gbit/s (CalibrateStepper.Error, mean over its seeds).
	Best  grids.Point
	RMSE  float64
	Phase engine.Time
	// Rows compare the best point with the measurement per phase and flow.
	Rows []FitRow
	// Points counts the points whose error was computed.
	Points int
	State  RoundState
}

// FitOf returns the best fit of the calibration rounds in db: among the
// points planned so far that are done.
func FitOf(ctx context.Context, rounds *Rounds, db *store.DB) (*Fit, error) {
	c := rounds.Grid.Calibrate
	if c == nil {
		return nil, fmt.Errorf("grid %s has no [calibrate] table", rounds.Grid.Name)
	}
	st, err := rounds.Current(ctx, db)
	if err != nil {
		return nil, err
	}
	var cs *CalibrateStepper
	if steps, ok := rounds.Stepper.(Steppers); ok {
		for _, s := range steps {
			if x, ok := s.(*CalibrateStepper); ok {
				cs = x
			}
		}
	}
	if cs == nil {
		cs = NewCalibrateStepper(c)
	}
	// The points planned up to the current round that are done.
	planned := st.All
	byID, err := resultsByID(ctx, db, planned)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for id, r := range byID {
		done[id] = r.Status == store.StatusDone
	}
	var ok []Planned
	for _, p := range planned {
		if done[grids.PointID(p.Point, model.Version)] {
			ok = append(ok, p)
		}
	}
	best, rmse, err := cs.best(ctx, db, ok)
	if err != nil || best == nil {
		if err == nil {
			err = errors.New("no point of the calibration is done yet")
		}
		return nil, err
	}
	cfg, err := grids.PointConfig(best.Point)
	if err != nil {
		return nil, err
	}
	series, err := seriesOf(ctx, db, best.Point)
	if err != nil {
		return nil, err
	}
	rows, err := compare(c.Data, series, cfg.Phase)
	if err != nil {
		return nil, err
	}
	return &Fit{Best: best.Point, RMSE: rmse, Phase: cfg.Phase, Rows: rows, Points: len(ok), State: st}, nil
}
