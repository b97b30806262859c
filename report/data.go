package report

import (
	"cmp"
	"context"
	"encoding/hex"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
)

// Grid is one grid of a database as the report draws it: what was planned,
// what is stored, aggregated over seeds, and the figures built from it.
type Grid struct {
	ID           string `json:"id"`
	Name         string `json:"name"`
	Scenario     string `json:"scenario"`
	Description  string `json:"description,omitempty"`
	ModelVersion string `json:"model_version"`
	// Subs are the sub-grids as run, from the grid's canonical form.
	Subs []grids.CanonicalSubGrid `json:"subs"`

	// Planned counts the grid's points with their seeds, as grids expands
	// them: points that where constraints drop are not planned.
	// PlannedExact is false when this ccsweep cannot expand the grid (a
	// parameter its model no longer knows, say; PlanError says why); then
	// Planned counts the stored points only.
	Planned      int    `json:"planned"`
	PlannedExact bool   `json:"planned_exact"`
	PlanError    string `json:"plan_error,omitempty"`
	// Done and Failed count stored points; Missing = Planned - Done -
	// Failed, 0 unless PlannedExact.
	Done    int `json:"done"`
	Failed  int `json:"failed"`
	Missing int `json:"missing"`
	// CPUSeconds sums the stored points' simulation wall times.
	CPUSeconds float64 `json:"cpu_seconds"`

	// Dims are the parameters whose value varies between the grid's points.
	Dims []Dim `json:"dims"`
	// Cells are the grid's distinct parameter combinations, seeds
	// aggregated, ordered by their dimension values.
	Cells []*Cell `json:"cells"`
	// Metrics are the metrics with a value in at least one cell, in
	// model.MetricList order.
	Metrics []string `json:"metrics"`

	// Surfaces has one figure per pair of numeric dimensions.
	Surfaces []*Surface `json:"surfaces,omitempty"`
	// Lines is set when the grid has one numeric dimension, or none but
	// some categorical ones.
	Lines *Lines `json:"lines,omitempty"`
	// Picks are the points whose time series the report shows.
	Picks []*Pick `json:"picks,omitempty"`
	// Answer is the recommendation of Options.Query, if one was asked.
	Answer *Recommendation `json:"answer,omitempty"`
	// Compare is the side-by-side view of the schemes when cc is a
	// dimension with several values.
	Compare *Comparison `json:"compare,omitempty"`

	results []store.Result // as GridResults read them; do not modify
}

// storedResults returns a copy of the results the grid was loaded from,
// which the caller may modify (but not their Params).
func (g *Grid) storedResults() []store.Result { return slices.Clone(g.results) }

// Scale says how a numeric dimension is laid out on a chart axis.
type Scale string

// Scales of a dimension.
const (
	ScaleLinear   Scale = "linear"   // evenly spaced values on a value axis
	ScaleLog      Scale = "log"      // geometric values, positive
	ScaleCategory Scale = "category" // one slot per value, evenly spaced
)

// Dim is a parameter whose value varies between a grid's points.
type Dim struct {
	Name string `json:"name"`
	// Unit is the unit of Nums ("µs" for durations), possibly empty.
	Unit string `json:"unit,omitempty"`
	// Values are the canonical values in display order: ascending for
	// numeric dimensions, first appearance otherwise.
	Values []string `json:"values"`
	// Nums holds Values as numbers in Unit; nil for a categorical dimension.
	Nums  []float64 `json:"nums,omitempty"`
	Scale Scale     `json:"scale,omitempty"`
}

// Numeric reports whether d's values are numbers.
func (d *Dim) Numeric() bool { return d.Nums != nil }

// Label returns the dimension's name with its unit, for axis titles.
func (d *Dim) Label() string {
	if d.Unit == "" {
		return d.Name
	}
	return d.Name + " (" + d.Unit + ")"
}

// index returns the position of value v in d.Values, or -1.
func (d *Dim) index(v string) int { return slices.Index(d.Values, v) }

// Cell statuses.
const (
	CellDone    = "done"    // at least one seed is done
	CellFailed  = "failed"  // every stored seed failed
	CellMissing = "missing" // planned, nothing stored yet
)

// Cell is one parameter combination of a grid with its seeds aggregated.
type Cell struct {
	// Key holds the cell's value of every dimension, in Grid.Dims order;
	// "" where the point does not set the parameter (the model default).
	Key    []string `json:"key,omitempty"`
	Status string   `json:"status"`
	// Seeds counts the planned seeds (0 if unknown); Done and Failed count
	// the stored ones.
	Seeds  int `json:"seeds"`
	Done   int `json:"done"`
	Failed int `json:"failed"`
	// Mean and SD are each metric's mean and population standard deviation
	// over the done seeds; a metric no seed has is absent.
	Mean map[string]float64 `json:"mean,omitempty"`
	SD   map[string]float64 `json:"sd,omitempty"`
	// Points are the IDs of the done points, by ascending seed, then the
	// failed ones.
	Points []string `json:"points,omitempty"`
	// Params are the parameters of the cell's points (all seeds share
	// them), sorted by name.
	Params []store.Param `json:"params,omitempty"`
	// Errors holds the failed seeds' messages.
	Errors []string `json:"errors,omitempty"`
	// Added is set for a cell the grid does not list: a point that
	// refinement or a search added between the grid's points.
	Added bool `json:"added,omitempty"`

	seedOf   map[string]uint64
	scenario string // of the stored points; "" for a missing cell
}

// Overview is the database as a whole.
type Overview struct {
	Path  string      `json:"path"`
	Runs  []store.Run `json:"runs"`
	Grids []*Grid     `json:"grids"`
	// Wall is the time from the first run's start to the last run's end.
	Wall time.Duration `json:"wall"`
}

// maxExpand bounds how many cells a grid has: missing parameter
// combinations beyond it get no cell, though they count as missing.
const maxExpand = 1 << 20

// Load reads every grid of db with its results and builds its figures.
func Load(ctx context.Context, db *store.DB) (*Overview, error) {
	recs, err := db.Grids(ctx)
	if err != nil {
		return nil, err
	}
	runs, err := db.Runs(ctx)
	if err != nil {
		return nil, err
	}
	ov := &Overview{Path: db.Path(), Runs: runs}
	var first, last time.Time
	for _, r := range runs {
		if first.IsZero() || r.Started.Before(first) {
			first = r.Started
		}
		if r.Finished.After(last) {
			last = r.Finished
		}
	}
	if !first.IsZero() && last.After(first) {
		ov.Wall = last.Sub(first)
	}
	for _, rec := range recs {
		g, err := LoadGrid(ctx, db, rec)
		if err != nil {
			return nil, err
		}
		ov.Grids = append(ov.Grids, g)
	}
	return ov, nil
}

// LoadGrid reads the results of one grid and builds its figures.
func LoadGrid(ctx context.Context, db *store.DB, rec store.GridRecord) (*Grid, error) {
	return loadGrid(ctx, db, rec, true)
}

// loadGrid is LoadGrid; without picks it reads no time series.
func loadGrid(ctx context.Context, db *store.DB, rec store.GridRecord, picks bool) (*Grid, error) {
	cg, err := grids.DecodeCanonical([]byte(rec.Canonical))
	if err != nil {
		return nil, fmt.Errorf("grid %s (%s): %w", rec.Name, rec.ID, err)
	}
	pg, planErr := cg.Grid()
	results, err := GridResults(ctx, db, rec, pg, "")
	if err != nil {
		return nil, err
	}
	g := &Grid{ID: rec.ID, Name: rec.Name, Scenario: rec.Scenario, Description: cg.Description,
		ModelVersion: rec.ModelVersion, Subs: cg.Grids, results: results}
	g.Dims = dimsOf(cg.Grids, results)
	g.aggregate(results)
	g.plan(pg, planErr)
	g.Surfaces, g.Lines = layout(g)
	if err := g.compare(ctx, db, nil); err != nil {
		return nil, err
	}
	if picks {
		if err := g.pick(ctx, db); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// GridResults returns the results db holds of the points of grid rec, pg
// as its canonical form expands it (nil if it cannot be expanded), with
// status status ("" for any): every point of the grid in the database,
// whoever ran it and under its identity of before or after parameters at
// their default lost their line, spelt as the grid spells it, each once,
// with the points a refinement added (store.DB.GridResults). Without pg,
// the points stored under the grid's ID.
func GridResults(ctx context.Context, db *store.DB, rec store.GridRecord, pg *grids.Grid, status string) ([]store.Result, error) {
	if pg == nil {
		return db.Results(ctx, store.Filter{GridID: rec.ID, Status: status})
	}
	return db.GridResults(ctx, rec.ID, status, members(rec, pg))
}

// RecordResults is GridResults for the grid rec, expanded from its
// canonical form.
func RecordResults(ctx context.Context, db *store.DB, rec store.GridRecord, status string) ([]store.Result, error) {
	return GridResults(ctx, db, rec, parseRecord(rec), status)
}

// RecordCounts returns how many of the points RecordResults returns are
// done and failed, without reading them.
func RecordCounts(ctx context.Context, db *store.DB, rec store.GridRecord) (done, failed int, err error) {
	pg := parseRecord(rec)
	if pg == nil {
		return db.Counts(ctx, rec.ID)
	}
	return db.GridCounts(ctx, rec.ID, members(rec, pg))
}

// parseRecord returns the grid rec records, or nil if this ccsweep cannot
// expand it (a parameter its model no longer knows, say).
func parseRecord(rec store.GridRecord) *grids.Grid {
	pg, err := grids.ParseCanonical([]byte(rec.Canonical))
	if err != nil {
		return nil
	}
	return pg
}

// members yields the points of pg, the grid rec records, as store members
// under rec's model version.
func members(rec store.GridRecord, pg *grids.Grid) iter.Seq[store.Member] {
	return func(yield func(store.Member) bool) {
		for p := range pg.All() {
			m := store.Member{ID: grids.PointID(p, rec.ModelVersion), LegacyID: grids.LegacyPointID(p, rec.ModelVersion),
				Params: p.Params}
			if !yield(m) {
				return
			}
		}
	}
}

// dimsOf returns the parameters that vary between the sub-grids' points:
// every axis, and every fixed parameter whose value differs between
// sub-grids or that some sub-grids leave unset.
func dimsOf(subs []grids.CanonicalSubGrid, results []store.Result) []Dim {
	var names []string
	values := map[string][]string{}
	add := func(name, v string) {
		if _, ok := values[name]; !ok {
			names = append(names, name)
			values[name] = nil
		}
		if v != "" && !slices.Contains(values[name], v) {
			values[name] = append(values[name], v)
		}
	}
	for _, s := range subs {
		for _, a := range s.Axes {
			for _, v := range a.Values {
				add(a.Name, v)
			}
		}
	}
	var fixed []string
	for _, s := range subs {
		for name := range s.Base {
			if !slices.Contains(fixed, name) {
				fixed = append(fixed, name)
			}
		}
	}
	slices.Sort(fixed)
	for _, name := range fixed {
		if _, swept := values[name]; swept {
			for _, s := range subs {
				if v, ok := s.Base[name]; ok {
					add(name, v)
				}
			}
			continue
		}
		var vals []string
		unset := false
		for _, s := range subs {
			v, ok := s.Base[name]
			if !ok {
				unset = true
			} else if !slices.Contains(vals, v) {
				vals = append(vals, v)
			}
		}
		if len(vals) > 1 || unset {
			for _, v := range vals {
				add(name, v)
			}
		}
	}
	// Values found only in stored points (a grid edited in place is a new
	// grid, so this is defensive).
	for _, r := range results {
		for _, p := range r.Point.Params {
			if _, ok := values[p.Name]; ok {
				add(p.Name, p.Value)
			}
		}
	}
	dims := make([]Dim, len(names))
	for i, name := range names {
		dims[i] = newDim(name, values[name])
	}
	return dims
}

// newDim makes a dimension of a parameter's values, numeric (sorted, with
// a scale) when the parameter is a number or a duration.
func newDim(name string, vals []string) Dim {
	d := Dim{Name: name, Values: vals}
	p := params.LookupParam(name)
	if p == nil { // a scenario file's own parameter (e.g. bg.load)
		p = scenarioParam(name)
	}
	if p == nil || (p.Kind != params.KindInt && p.Kind != params.KindFloat && p.Kind != params.KindDuration) {
		return d
	}
	nums := make([]float64, len(vals))
	for i, v := range vals {
		x, ok := paramNumber(p, v)
		if !ok {
			return d
		}
		nums[i] = x
	}
	idx := make([]int, len(vals))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(nums[a], nums[b]) })
	d.Values, d.Nums = make([]string, len(vals)), make([]float64, len(vals))
	for k, i := range idx {
		d.Values[k], d.Nums[k] = vals[i], nums[i]
	}
	d.Unit = p.Unit
	if p.Kind == params.KindDuration {
		d.Unit = "µs"
	}
	d.Scale = scaleOf(d.Nums)
	return d
}

// paramNumber reads a canonical value of a numeric parameter, durations in
// microseconds.
func paramNumber(p *params.Param, v string) (float64, bool) {
	x, err := p.Parse(v)
	if err != nil {
		return 0, false
	}
	switch x := x.(type) {
	case int:
		return float64(x), true
	case float64:
		return x, true
	case engine.Time:
		return x.Micros(), true
	}
	return 0, false
}

// scaleOf picks how to lay sorted values out: linear when evenly spaced,
// log when geometric, otherwise a slot per value.
func scaleOf(nums []float64) Scale {
	if len(nums) < 3 {
		return ScaleLinear
	}
	even, geometric := true, nums[0] > 0
	step := nums[1] - nums[0]
	for i := 2; i < len(nums); i++ {
		if math.Abs(nums[i]-nums[i-1]-step) > 1e-6*math.Abs(step) {
			even = false
		}
	}
	if geometric {
		ratio := math.Log(nums[1] / nums[0])
		for i := 2; i < len(nums); i++ {
			// Values rounded to whole numbers stray from a geometric series.
			if math.Abs(math.Log(nums[i]/nums[i-1])-ratio) > 0.05*ratio+0.5/nums[i-1] {
				geometric = false
			}
		}
	}
	switch {
	case even:
		return ScaleLinear
	case geometric:
		return ScaleLog
	}
	return ScaleCategory
}

// keyOf returns the dimension values of a set of parameters.
func keyOf(dims []Dim, params func(string) (string, bool)) []string {
	key := make([]string, len(dims))
	for i, d := range dims {
		key[i], _ = params(d.Name)
	}
	return key
}

func joinKey(key []string) string { return strings.Join(key, "\x00") }

// aggregate groups the results into cells and computes each cell's means.
func (g *Grid) aggregate(results []store.Result) {
	byKey := map[string]*Cell{}
	type seedResult struct {
		seed uint64
		r    *store.Result
	}
	members := map[*Cell][]seedResult{}
	for i := range results {
		r := &results[i]
		params := r.Point.Params
		key := keyOf(g.Dims, func(name string) (string, bool) {
			j := slices.IndexFunc(params, func(p store.Param) bool { return p.Name == name })
			if j < 0 {
				return "", false
			}
			return params[j].Value, true
		})
		c := byKey[joinKey(key)]
		if c == nil {
			c = &Cell{Key: key, Params: params, scenario: r.Point.Scenario}
			byKey[joinKey(key)] = c
			g.Cells = append(g.Cells, c)
		}
		members[c] = append(members[c], seedResult{r.Point.Seed, r})
		g.CPUSeconds += r.WallSeconds
	}
	for _, c := range g.Cells {
		ms := members[c]
		slices.SortFunc(ms, func(a, b seedResult) int {
			if (a.r.Status == store.StatusDone) != (b.r.Status == store.StatusDone) {
				if a.r.Status == store.StatusDone {
					return -1
				}
				return 1
			}
			return cmp.Compare(a.seed, b.seed)
		})
		vals := map[string][]float64{}
		c.seedOf = map[string]uint64{}
		for _, m := range ms {
			c.Points = append(c.Points, m.r.ID)
			c.seedOf[m.r.ID] = m.seed
			if m.r.Status != store.StatusDone {
				c.Failed++
				c.Errors = append(c.Errors, fmt.Sprintf("seed %d: %s", m.seed, m.r.Err))
				continue
			}
			c.Done++
			for name, v := range m.r.Metrics {
				vals[name] = append(vals[name], v)
			}
		}
		c.Status = CellDone
		if c.Done == 0 {
			c.Status = CellFailed
		}
		if len(vals) > 0 {
			c.Mean, c.SD = map[string]float64{}, map[string]float64{}
		}
		for name, vs := range vals {
			c.Mean[name], c.SD[name] = meanSD(vs)
		}
		g.Done += c.Done
		g.Failed += c.Failed
	}
	for _, name := range model.MetricNames {
		if slices.ContainsFunc(g.Cells, func(c *Cell) bool { _, ok := c.Mean[name]; return ok }) {
			g.Metrics = append(g.Metrics, name)
		}
	}
	// Then the metrics of the grid's closed-loop apps, by name.
	apps := map[string]bool{}
	for _, c := range g.Cells {
		for name := range c.Mean {
			if metrics[name] == nil && store.IsAppMetricName(name) {
				apps[name] = true
			}
		}
	}
	g.Metrics = append(g.Metrics, slices.Sorted(maps.Keys(apps))...)
}

// meanSD returns the mean and the population standard deviation of xs,
// finite for finite xs (store.MeanDev).
func meanSD(xs []float64) (mean, sd float64) { return store.MeanDev(xs, float64(len(xs))) }

// plan adds a missing cell for each parameter combination of pg (the grid
// rebuilt from its canonical form, or the error that prevented it) that
// nothing is stored for, sets each cell's planned seeds, counts the planned
// and missing points and sorts the cells. It streams pg's points, holding
// only the cells.
func (g *Grid) plan(pg *grids.Grid, err error) {
	if err != nil {
		g.PlanError = err.Error()
		g.Planned = g.Done + g.Failed
	} else {
		g.PlannedExact = true
		byKey := map[string]*Cell{}
		for _, c := range g.Cells {
			byKey[joinKey(c.Key)] = c
			c.Added = true // until the grid lists it
		}
		// A point two sub-grids list is planned once, where it first
		// appears (as a sweep runs it): only points of different
		// sub-grids can be equal.
		var seen map[[16]byte]bool
		if len(pg.Subs) > 1 {
			seen = map[[16]byte]bool{}
		}
		for _, s := range pg.Subs {
			for p := range s.All() {
				if seen != nil {
					var id [16]byte
					hex.Decode(id[:], []byte(grids.PointID(p, g.ModelVersion)))
					if seen[id] {
						continue
					}
					seen[id] = true
				}
				g.Planned++
				if p.Seed != 1 {
					continue // a cell holds every seed of a combination
				}
				key := keyOf(g.Dims, p.Value)
				c := byKey[joinKey(key)]
				if c == nil && len(g.Cells) < maxExpand {
					c = &Cell{Key: key, Status: CellMissing}
					c.Params = append(c.Params, p.Params...)
					byKey[joinKey(key)] = c
					g.Cells = append(g.Cells, c)
				}
				if c != nil {
					c.Seeds, c.Added = s.Seeds, false
				}
			}
		}
		// Points refinement added count as planned: they were.
		for _, c := range g.Cells {
			if c.Added {
				g.Planned += c.Done + c.Failed
			}
		}
		g.Missing = max(g.Planned-g.Done-g.Failed, 0)
	}
	slices.SortStableFunc(g.Cells, func(a, b *Cell) int {
		for i, d := range g.Dims {
			if c := cmp.Compare(d.index(a.Key[i]), d.index(b.Key[i])); c != 0 {
				return c
			}
		}
		return 0
	})
}

// defaultValue returns the testbed's value of a parameter: the model
// default with CC on.
func defaultValue(name string) string {
	c := params.DefaultConfig()
	c.CC.Scheme = params.SchemeIB
	return c.Canonical(name)
}

// numberText spells a value for axis labels and tooltips: at most four
// significant digits, no exponent for everyday magnitudes.
func numberText(x float64) string {
	if x == 0 || (math.Abs(x) >= 1e-3 && math.Abs(x) < 1e6) {
		return strconv.FormatFloat(roundSig(x, 4), 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

// roundSig rounds x to n significant digits.
func roundSig(x float64, n int) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	p := math.Pow(10, float64(n-1)-math.Floor(math.Log10(math.Abs(x))))
	return math.Round(x*p) / p
}

// scenarioParam returns the parameter called name of any registered file
// scenario (workload.NewScenario; reading a grid registers its scenarios) or
// built-in one (clos648-hotspot's bg.load), or nil. Scenario parameters of
// one name have one kind and unit.
func scenarioParam(name string) *params.Param {
	for _, sc := range slices.Concat(workload.FileScenarios(), workload.Scenarios()) {
		if p := sc.Param(name); p != nil {
			return p
		}
	}
	return nil
}
