package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
)

// Options control a sweep.
type Options struct {
	// Workers is the number of simulations run at once; 0 means every core.
	Workers int
	// FailFast stops the sweep at the first failed point instead of
	// recording it and going on.
	FailFast bool
	// Shard selects one of Shard.Count slices of the points; the zero value
	// selects them all.
	Shard Shard
	// Progress, if not nil, hears about every finished point.
	Progress Progress
	// Lease is how long claims last unless renewed; 0 means DefaultLease.
	Lease time.Duration
	// Version, Commit and Args are recorded as the run's provenance.
	Version, Commit string
	Args            []string
	// MaxEvents, when above 0, refuses to simulate a point whose estimated
	// work (model.CheckWork) exceeds it: the point is recorded as
	// failed with the reason, and a later sweep with a higher limit runs it.
	MaxEvents float64
	// Simulate, if not nil, runs each point's simulation instead of
	// model.RunContext: tests of the packages built on sweep give it a fake
	// model. It is called from several workers at once.
	Simulate func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error)
}

// Progress hears how a sweep advances. Its methods are called from one
// goroutine at a time.
type Progress interface {
	// Start is called once with the number of points to run.
	Start(todo int)
	// Done is called after every point, failed or not.
	Done(p grids.Point, failed bool)
	// Finish is called once at the end.
	Finish()
}

// Outcome says what a sweep did (not store.Summary, which aggregates a
// point's seeds). Every point of the plan is counted once,
// however many sub-grids list it, and only results that reached the database
// count as run.
type Outcome struct {
	Points      int           // distinct points of the grid (of the shard)
	AlreadyDone int           // found done in the database
	Elsewhere   int           // done meanwhile by other processes sharing the database
	Ran         int           // simulated by this sweep and stored
	Failed      int           // of Ran, how many failed
	Undone      int           // at the end neither done nor failed here: interrupted, or never stored
	Wall        time.Duration // from start to end
	Busy        time.Duration // sum of the simulations' wall times
	Workers     int
}

// Efficiency returns the fraction of the workers' time spent simulating.
func (s Outcome) Efficiency() float64 {
	if s.Wall <= 0 || s.Workers == 0 {
		return 0
	}
	return s.Busy.Seconds() / (s.Wall.Seconds() * float64(s.Workers))
}

var (
	// ErrInterrupted is returned when the sweep's context ended before every
	// point ran; what finished is kept.
	ErrInterrupted = errors.New("sweep interrupted")
	// ErrIncomplete is wrapped by Run's error when the sweep stopped with
	// points that have no result, which running it again finishes
	// (Outcome.Undone says how many).
	ErrIncomplete = errors.New("points remain undone")
)

// DefaultLease is how long a sweep's claim on a point lasts unless renewed;
// a sweep renews the claims of its unfinished points every third of it, so a
// process that vanished without a trace (a node that died) blocks its points
// for at most this long. Dead processes on the same host release theirs at
// once.
const DefaultLease = 3 * time.Minute

// Run simulates every point of plan that db does not hold as done. Points
// that other processes sharing db have claimed are waited for: when their
// owner finishes them they count as done elsewhere, and when it is gone (a
// dead process on this host, an expired lease from another) this sweep takes
// them over, so Run returns only once every point is done or has failed here.
// Each result is committed before the sweep counts it, so a sweep killed
// loses at most the points in flight.
//
// It returns ErrInterrupted if ctx ends first, and an error wrapping
// ErrIncomplete whenever points remain undone (with what was done counted in
// the Outcome).
func Run(ctx context.Context, plan *Plan, db *store.DB, opt Options) (Outcome, error) {
	start := time.Now()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	sum := Outcome{Points: plan.Len(), Workers: workers}
	lease := opt.Lease
	if lease <= 0 {
		lease = DefaultLease
	}
	g := plan.Grid
	if err := db.SaveGrid(ctx, store.GridRecord{ID: plan.GridID, Name: g.Name, Scenario: g.Scenario,
		ModelVersion: model.Version, Canonical: g.Canonical()}); err != nil {
		return sum, err
	}
	missing, err := plan.Missing(ctx, db)
	if err != nil {
		return sum, err
	}
	sum.AlreadyDone = sum.Points - len(missing)
	runID, err := db.BeginRun(ctx, store.Run{Version: opt.Version, Commit: opt.Commit, ModelVersion: model.Version,
		Args: opt.Args, Workers: workers})
	if err != nil {
		return sum, err
	}
	owner := fmt.Sprintf("%d-%d-%d", os.Getpid(), runID, start.UnixNano())
	writer := db.NewWriter(64, time.Second)
	if opt.Progress != nil {
		opt.Progress.Start(len(missing))
	}

	var mu sync.Mutex // guards sum, failedHere and Progress
	failedHere := make(map[string]bool)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	eg, egCtx := errgroup.WithContext(runCtx)
	sim := opt.Simulate
	if sim == nil {
		sim = simulateRun
	}
	jobs := make(chan int)
	leases := &leases{ids: map[string]bool{}, ttl: lease}
	eg.Go(func() error {
		defer close(jobs)
		return dispatch(egCtx, plan, db, missing, owner, 2*workers, jobs, leases, func(n int) {
			mu.Lock()
			sum.Elsewhere += n
			mu.Unlock()
		})
	})
	renewDone := make(chan struct{})
	go func() {
		defer close(renewDone)
		leases.renew(egCtx, db, owner)
	}()
	for w := 0; w < workers; w++ {
		eg.Go(func() error {
			for i := range jobs {
				pt := plan.Point(i)
				r := simulate(egCtx, sim, plan.GridID, pt, grids.PointID(pt, model.Version), runID, opt.MaxEvents)
				if r == nil { // interrupted
					continue
				}
				// Save returns once the result is committed (several
				// workers' results share a commit).
				if err := writer.Save(*r); err != nil {
					return err
				}
				failed := r.Status == store.StatusFailed
				mu.Lock()
				sum.Ran++
				sum.Busy += time.Duration(r.WallSeconds * float64(time.Second))
				if failed {
					sum.Failed++
					failedHere[r.ID] = true
				}
				if opt.Progress != nil {
					opt.Progress.Done(pt, failed)
				}
				mu.Unlock()
				if failed && opt.FailFast {
					return fmt.Errorf("point %s failed: %s", describe(pt), r.Err)
				}
			}
			return nil
		})
	}
	runErr := eg.Wait()
	cancel() // stops the lease renewal
	<-renewDone
	closeErr := writer.Close()
	// Release claims and record the end even when interrupted.
	bg := context.WithoutCancel(ctx)
	relErr := db.Release(bg, owner)
	endErr := db.EndRun(bg, runID, time.Now())
	var leftErr error
	if ctx.Err() != nil {
		// Stopped: count at once, not by reading every point back (seconds
		// on a 10^6-point grid). A missing point that did not run here and
		// was not seen done elsewhere is undone, unless another process
		// finished it unseen: then the count is high, never low.
		sum.Undone = max(len(missing)-sum.Ran-sum.Elsewhere, 0)
	} else {
		var left []int
		left, leftErr = plan.Missing(bg, db)
		for _, i := range left {
			if !failedHere[plan.ID(i)] {
				sum.Undone++
			}
		}
	}
	if opt.Progress != nil {
		opt.Progress.Finish()
	}
	sum.Wall = time.Since(start)
	if runErr == nil {
		runErr = closeErr // the error a failed commit returned to a worker
	}
	if err := errors.Join(runErr, relErr, endErr, leftErr); err != nil {
		return sum, err
	}
	switch {
	case ctx.Err() != nil && sum.Undone > 0:
		return sum, fmt.Errorf("%w: %w (%d of %d)", ErrInterrupted, ErrIncomplete, sum.Undone, sum.Points)
	case ctx.Err() != nil:
		return sum, ErrInterrupted
	case sum.Undone > 0:
		return sum, fmt.Errorf("%w (%d of %d)", ErrIncomplete, sum.Undone, sum.Points)
	}
	return sum, nil
}

// dispatch claims the missing points a batch at a time and hands the
// claimed ones to the workers, in plan order. The points other processes
// hold it waits for, polling every pollEvery: those done meanwhile are
// reported to elsewhere, those whose claims lapsed (their owner died) it
// claims and hands out.
func dispatch(ctx context.Context, plan *Plan, db *store.DB, missing []int, owner string, batch int,
	jobs chan<- int, leases *leases, elsewhere func(int)) error {
	// take claims the points at idx, hands out those it got and returns
	// the others.
	take := func(idx []int) ([]int, error) {
		ids := make([]string, len(idx))
		for k, i := range idx {
			ids[k] = plan.ID(i)
		}
		claimed, err := db.Claim(ctx, ids, owner, leases.ttl)
		if err != nil {
			return nil, err
		}
		got := make(map[string]bool, len(claimed))
		for _, id := range claimed {
			got[id] = true
		}
		leases.add(claimed)
		var others []int
		for k, i := range idx {
			if !got[ids[k]] {
				others = append(others, i)
				continue
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return others, nil
	}
	// takeAll claims idx batch at a time and returns the points others hold.
	takeAll := func(idx []int) ([]int, error) {
		var others []int
		for len(idx) > 0 {
			n := min(batch, len(idx))
			o, err := take(idx[:n])
			if err != nil {
				return nil, err
			}
			others = append(others, o...)
			idx = idx[n:]
		}
		return others, nil
	}
	waiting, err := takeAll(missing)
	if err != nil {
		return quietIfDone(ctx, err)
	}
	poll := time.NewTicker(min(leases.ttl/3, pollEvery))
	defer poll.Stop()
	for len(waiting) > 0 {
		select {
		case <-ctx.Done():
			return nil
		case <-poll.C:
		}
		open, err := plan.notDone(ctx, db, slices.Values(waiting))
		if err != nil {
			return quietIfDone(ctx, err)
		}
		elsewhere(len(waiting) - len(open))
		if waiting, err = takeAll(open); err != nil {
			return quietIfDone(ctx, err)
		}
	}
	return nil
}

// pollEvery is how often a sweep looks at the points other processes hold.
const pollEvery = time.Second

// quietIfDone returns nil if ctx has ended (the error is its consequence),
// else err.
func quietIfDone(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// leases are the claimed points not yet written, whose claims a sweep renews.
type leases struct {
	mu  sync.Mutex
	ids map[string]bool
	ttl time.Duration
}

func (l *leases) add(ids []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		l.ids[id] = true
	}
}

// renew extends the leases every third of their length until ctx ends,
// forgetting the points whose results have been committed since.
func (l *leases) renew(ctx context.Context, db *store.DB, owner string) {
	t := time.NewTicker(l.ttl / 3)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		l.mu.Lock()
		ids := make([]string, 0, len(l.ids))
		for id := range l.ids {
			ids = append(ids, id)
		}
		l.mu.Unlock()
		sort.Strings(ids)
		done, err := db.Done(ctx, ids)
		if err != nil {
			continue // a failure only shortens the leases
		}
		var open []string
		l.mu.Lock()
		for _, id := range ids {
			if done[id] {
				delete(l.ids, id)
			} else {
				open = append(open, id)
			}
		}
		l.mu.Unlock()
		if len(open) > 0 {
			db.Claim(ctx, open, owner, l.ttl)
		}
	}
}

// simulate runs the point pt of grid gridID, whose ID is id, and returns
// its result (whose Point is pt, sharing its parameters; neither is
// modified), or nil if ctx ended first.
func simulate(ctx context.Context, sim simulator, gridID string, pt grids.Point, id string, runID int64, maxEvents float64) *store.Result {
	r := &store.Result{ID: id, GridID: gridID, Point: pt, ModelVersion: model.Version, RunID: runID, Started: time.Now()}
	res, err := runPoint(ctx, sim, pt, maxEvents)
	r.Finished = time.Now()
	r.WallSeconds = r.Finished.Sub(r.Started).Seconds()
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		r.Status, r.Err = store.StatusFailed, err.Error()
		return r
	}
	r.Status = store.StatusDone
	r.Events = res.Events
	r.Metrics = map[string]float64{}
	for k, v := range res.Metrics().Values() {
		if !math.IsNaN(v) {
			r.Metrics[model.MetricNames[k]] = v
		}
	}
	for _, a := range res.Apps {
		for _, m := range a.Metrics {
			if !math.IsNaN(m.Value) {
				r.Metrics[m.Name] = m.Value
			}
		}
		if len(a.IterationUs) > 0 {
			r.Iterations = append(r.Iterations, store.AppIterations{App: a.Label, Us: a.IterationUs})
		}
	}
	for _, f := range res.Flows {
		r.Series = append(r.Series, store.Series{Flow: f.Name, Role: string(f.Role),
			SampleSeconds: res.Sample.Seconds(), Gbps: f.Gbps})
	}
	return r
}

// runPoint simulates one point, turning a panic into an error (with the
// stack, so that the stored error says where) so that one bad point cannot
// take the sweep down.
func runPoint(ctx context.Context, sim simulator, pt grids.Point, maxEvents float64) (*model.Result, error) {
	return catchPanic(func() (*model.Result, error) {
		sc := workload.LookupScenario(pt.Scenario)
		if sc == nil {
			return nil, fmt.Errorf("unknown scenario %q", pt.Scenario)
		}
		cfg, err := grids.PointConfig(pt)
		if err != nil {
			return nil, err
		}
		if _, err := model.CheckWork(sc, cfg, maxEvents); err != nil {
			return nil, err
		}
		return sim(ctx, sc, cfg, pt.Seed)
	})
}

// simulator runs one simulation, as model.RunContext does.
type simulator = func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error)

// simulateRun runs a simulation when Options.Simulate is nil; sweep's own
// tests replace it to make points fail.
var simulateRun simulator = model.RunContext

// catchPanic returns what f returns, or an error holding the value and
// stack of a panic in f.
func catchPanic[T any](f func() (T, error)) (res T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("simulation panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return f()
}

// EffectiveParams returns the value every model parameter had when a point
// with these parameters ran in scenario, by name: its own value or the
// model's default, in canonical text; a parameter of a congestion-control
// scheme the point does not run is left out, since it does not apply there.
// It returns nil for a model version
// other than this build's, whose defaults it does not know, or parameters
// this model rejects. It suits store.ExportOptions.Effective.
func EffectiveParams(scenario, modelVersion string, given []store.Param) map[string]string {
	if modelVersion != model.Version {
		return nil
	}
	cfg, err := grids.PointConfig(grids.Point{Scenario: scenario, Params: given})
	if err != nil {
		return nil
	}
	values := make(map[string]string)
	for _, name := range params.ParamNames() {
		if params.LookupParam(name).AppliesTo(cfg.CC.Scheme) { // another scheme's does not apply
			values[name] = cfg.Canonical(name)
		}
	}
	return values
}

// CheckStoredParam reports why value is not a valid value of model
// parameter name under this build's model version, or nil if it is or if
// it cannot tell: for another model version, or a parameter the model
// does not know (a scenario file's own, or one an older model had). It
// suits store.CheckParamsWith.
func CheckStoredParam(modelVersion, name, value string) error {
	p := params.LookupParam(name)
	if modelVersion != model.Version || p == nil {
		return nil
	}
	_, err := p.Parse(value)
	return err
}

// describe spells a point for messages: its parameters and seed.
func describe(pt grids.Point) string {
	s := pt.Scenario
	for _, p := range pt.Params {
		s += " " + p.Name + "=" + p.Value
	}
	return fmt.Sprintf("%s seed=%d", s, pt.Seed)
}

// SimulatedTime returns how much simulated time a point covers.
func SimulatedTime(pt grids.Point) engine.Time {
	sc := workload.LookupScenario(pt.Scenario)
	cfg, err := grids.PointConfig(pt)
	if sc == nil || err != nil {
		return 0
	}
	return engine.Time(sc.Phases) * cfg.Phase
}
