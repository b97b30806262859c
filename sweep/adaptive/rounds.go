package adaptive

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// An adaptive sweep runs in rounds: round 0 is the grid's own points; each
// later round holds the points a Stepper proposes from the results of every
// round before it, until it proposes none. The points of later rounds are
// ordinary points of the grid (stored under its grid ID, identified by
// their parameters and seed), so a round is resumable, shardable and
// mergeable like the grid itself. Because every round is a pure function of
// the results before it, and results are a pure function of their points,
// the rounds are replayed from the database rather than remembered: a
// sweep killed in round 3 and run again finds rounds 0 to 2 done, proposes
// round 3 again, identical, and runs what of it is missing.

// Planned is a point of an adaptive sweep and where it came from.
type Planned struct {
	grids.Point
	// Sub is the position in Grid.Subs of the sub-grid the point belongs
	// to, or whose settings (seeds) it follows when a round added it.
	Sub int
	// Added is set for points that refinement (or a search) added between
	// the grid's points, and for the further seeds of such points.
	Added bool
}

// A Stepper proposes the next round of an adaptive sweep: given what the
// rounds so far found, the points of the next round, or none when the
// sweep is finished. It must depend on nothing but its input (and the
// stored results of the planned points), so that replaying the rounds from
// the database proposes the same points.
type Stepper interface {
	Next(ctx context.Context, in StepInput) ([]Planned, error)
}

// StepInput is what a Stepper decides from.
type StepInput struct {
	Grid *grids.Grid
	// Round is the round just done: 0 for the grid's own points.
	Round int
	// Planned are every point planned so far, in order; every one is done.
	Planned []Planned
	// Sums summarize their results by point (store.PointKey of scenario
	// and parameters), seeds aggregated.
	Sums map[string]*store.Summary
	// DB holds their results, for steppers that read series.
	DB *store.DB
}

// Steppers chains steppers: the first that proposes points gives the
// round, so that, e.g., every point has its seeds before refinement looks
// at the means.
type Steppers []Stepper

// Next returns the proposal of the first stepper that makes one.
func (s Steppers) Next(ctx context.Context, in StepInput) ([]Planned, error) {
	for _, st := range s {
		next, err := st.Next(ctx, in)
		if err != nil || len(next) > 0 {
			return next, err
		}
	}
	return nil, nil
}

// MaxRounds bounds the rounds of an adaptive sweep, against a Stepper that
// would never stop.
const MaxRounds = 1000

// MaxAdaptivePoints bounds the points of an adaptive sweep, whose rounds
// are replayed with every point in memory.
const MaxAdaptivePoints = 1_000_000

// ErrFailedRound is wrapped by the errors of adaptive sweeps whose current
// round holds failed points: the next round depends on every result, so the
// sweep stops until a rerun retries them.
var ErrFailedRound = errors.New("points of the round failed")

// RoundState is where an adaptive sweep stands in a database.
type RoundState struct {
	// Round is the current round: the first with points not done, or the
	// last one when Finished. Round 0 is the grid itself.
	Round int
	// Points are the current round's points, all of them, in order; All
	// the points of rounds 0..Round.
	Points, All []Planned
	// Planned counts the points of rounds 0..Round; Added those of them
	// that refinement added (with their seeds).
	Planned, Added int
	// Finished is set when every round is done and the stepper proposes
	// no more.
	Finished bool
	// Failed counts the current round's points whose stored result failed.
	Failed int
}

// Rounds replays the rounds of an adaptive sweep of Grid.
type Rounds struct {
	Grid    *grids.Grid
	Stepper Stepper
}

// basePoints returns the grid's points, each once, with their sub-grids.
func (r *Rounds) basePoints() ([]Planned, error) {
	if r.Grid.Count() > MaxAdaptivePoints {
		return nil, fmt.Errorf("grid %s has %d points; an adaptive sweep takes at most %d", r.Grid.Name, r.Grid.Count(), MaxAdaptivePoints)
	}
	x := r.Grid.Index()
	seen := make(map[string]bool, x.Len())
	var out []Planned
	for i := range x.Len() {
		pt := x.Point(i)
		id := grids.PointID(pt, model.Version)
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, Planned{Point: pt, Sub: x.Sub(i)})
	}
	return out, nil
}

// CurrentIn replays the rounds from the database at path, opened read-only,
// and returns the current round. A database that does not exist is an
// empty one (round 0); a path that cannot be looked at is an error, not an
// empty database, so that a shard never runs round 0 again by mistake.
func (r *Rounds) CurrentIn(ctx context.Context, path string) (RoundState, error) {
	exists, err := store.Exists(path)
	if err != nil {
		return RoundState{}, err
	}
	if !exists {
		return r.Current(ctx, nil)
	}
	db, err := store.OpenReadOnly(path)
	if err != nil {
		return RoundState{}, err
	}
	defer db.Close()
	return r.Current(ctx, db)
}

// Current replays the rounds from what db holds (nil: an empty database)
// and returns the current one.
func (r *Rounds) Current(ctx context.Context, db *store.DB) (RoundState, error) {
	planned, err := r.basePoints()
	if err != nil {
		return RoundState{}, err
	}
	ids := make(map[string]bool, len(planned))
	for _, p := range planned {
		ids[grids.PointID(p.Point, model.Version)] = true
	}
	cur := planned
	for round := 0; ; round++ {
		st := RoundState{Round: round, Points: cur, All: planned, Planned: len(planned)}
		for _, p := range planned {
			if p.Added {
				st.Added++
			}
		}
		if db == nil {
			return st, nil
		}
		byID, err := resultsByID(ctx, db, planned)
		if err != nil {
			return st, err
		}
		open := false
		for _, p := range cur {
			switch r := byID[grids.PointID(p.Point, model.Version)]; {
			case r == nil:
				open = true
			case r.Status != store.StatusDone:
				open = true
				st.Failed++
			}
		}
		if open {
			return st, nil
		}
		if round == MaxRounds {
			st.Finished = true
			return st, nil
		}
		// Summaries in plan order, whatever grid first stored a point and
		// however it spelt it (with a parameter at its default, or
		// without): by this grid's parameters, as keyOf looks them up.
		ordered := make([]store.Result, len(planned))
		for i, p := range planned {
			ordered[i] = *byID[grids.PointID(p.Point, model.Version)]
			ordered[i].GridID = ""
			ordered[i].Point.Params = p.Params
		}
		sums := map[string]*store.Summary{}
		for _, s := range store.Summarize(ordered) {
			sums[s.Key] = s
		}
		next, err := r.Stepper.Next(ctx, StepInput{Grid: r.Grid, Round: round, Planned: planned, Sums: sums, DB: db})
		if err != nil {
			return st, err
		}
		var fresh []Planned
		for _, p := range next {
			if id := grids.PointID(p.Point, model.Version); !ids[id] {
				ids[id] = true
				fresh = append(fresh, p)
			}
		}
		if len(fresh) == 0 {
			st.Finished = true
			return st, nil
		}
		if len(planned)+len(fresh) > MaxAdaptivePoints {
			return st, fmt.Errorf("grid %s: round %d would bring the sweep to %d points; an adaptive sweep takes at most %d",
				r.Grid.Name, round+1, len(planned)+len(fresh), MaxAdaptivePoints)
		}
		planned = append(planned, fresh...)
		cur = fresh
	}
}

// resultsByID returns the results db holds of the points ps, by the
// points' IDs; a point stored under its legacy ID (grids.LegacyPointID)
// is found there, unless it is stored under its ID as well.
func resultsByID(ctx context.Context, db *store.DB, ps []Planned) (map[string]*store.Result, error) {
	ids := pointIDs(ps)
	legacy := map[string]string{}
	for i, p := range ps {
		if l := grids.LegacyPointID(p.Point, model.Version); l != "" {
			legacy[l] = ids[i]
			ids = append(ids, l)
		}
	}
	results, err := db.ResultsOf(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*store.Result, len(results))
	for i := range results {
		byID[results[i].ID] = &results[i]
	}
	for l, id := range legacy {
		if r := byID[l]; r != nil && byID[id] == nil {
			byID[id] = r
		}
	}
	return byID, nil
}

func pointIDs(ps []Planned) []string {
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = grids.PointID(p.Point, model.Version)
	}
	return ids
}

// Plan returns the plan of shard of the state's current round: the grid's
// own plan for round 0 (sweep.NewPlan), else the round's points dealt to
// shards by cost as sweep.NewPlan deals a grid's (sweep.NewListPlan).
func (st RoundState) Plan(g *grids.Grid, shard sweep.Shard) (*sweep.Plan, error) {
	if st.Round == 0 {
		return sweep.NewPlan(g, shard)
	}
	list := make([]grids.Point, len(st.Points))
	for i, p := range st.Points {
		list[i] = p.Point
	}
	return sweep.NewListPlan(g, list, shard)
}

// RoundsOutcome says what an adaptive sweep did: the sum of its rounds'
// Summaries (Points counting every point planned) and where it stands.
type RoundsOutcome struct {
	sweep.Outcome
	State RoundState
	// Rounds counts the rounds this sweep ran points of.
	Rounds int
}

// RunRounds runs the adaptive sweep of rounds in db on this machine, round
// after round, until the stepper proposes no more points. A round with
// failed points stops it with an error wrapping ErrFailedRound (a rerun
// retries them and goes on); an interrupted round returns sweep.Run's error. opt
// must not select a shard: every round needs all results of the one before
// (see RunRound).
func RunRounds(ctx context.Context, rounds *Rounds, db *store.DB, opt sweep.Options) (RoundsOutcome, error) {
	var total RoundsOutcome
	if opt.Shard != (sweep.Shard{}) && opt.Shard.Count > 1 {
		return total, errors.New("an adaptive sweep runs its rounds in one database; run shards of a round with RunRound")
	}
	for {
		st, err := rounds.Current(ctx, db)
		total.State = st
		if err != nil || st.Finished {
			total.Points = st.Planned
			if err == nil {
				// Every planned point is done: those this call did not
				// run were done already, in rounds it never entered too.
				total.AlreadyDone = st.Planned - total.Ran - total.Elsewhere
			}
			return total, err
		}
		if st.Failed > 0 && total.Rounds > 0 {
			// Failed in this sweep already: stop rather than retry forever.
			return total, fmt.Errorf("round %d: %w: %d of %d (rerun to retry them)", st.Round, ErrFailedRound, st.Failed, len(st.Points))
		}
		sum, err := RunRound(ctx, rounds.Grid, st, db, opt)
		total.add(sum)
		total.Rounds++
		total.Points = st.Planned
		if err != nil {
			return total, err
		}
		if sum.Failed > 0 {
			return total, fmt.Errorf("round %d: %w: %d of %d (rerun to retry them)", st.Round, ErrFailedRound, sum.Failed, len(st.Points))
		}
	}
}

// RunRound runs the points of opt.Shard of the round st (see Rounds.Current)
// that db does not hold, as sweep.Run does.
func RunRound(ctx context.Context, g *grids.Grid, st RoundState, db *store.DB, opt sweep.Options) (sweep.Outcome, error) {
	plan, err := st.Plan(g, opt.Shard)
	if err != nil {
		return sweep.Outcome{}, err
	}
	return sweep.Run(ctx, plan, db, opt)
}

// add adds the counts and times of a round's summary.
func (t *RoundsOutcome) add(s sweep.Outcome) {
	t.AlreadyDone += s.AlreadyDone
	t.Elsewhere += s.Elsewhere
	t.Ran += s.Ran
	t.Failed += s.Failed
	t.Undone = s.Undone
	t.Wall += s.Wall
	t.Busy += s.Busy
	t.Workers = s.Workers
}

// withParam returns the parameters ps with name set to value, sorted by
// name, as grids.Point.Params are.
func withParam(ps []grids.Param, name, value string) []grids.Param {
	out := slices.Clone(ps)
	i, found := slices.BinarySearchFunc(out, name, func(p grids.Param, n string) int {
		switch {
		case p.Name < n:
			return -1
		case p.Name > n:
			return 1
		}
		return 0
	})
	if found {
		out[i].Value = value
		return out
	}
	return slices.Insert(out, i, grids.Param{Name: name, Value: value})
}

// keyOf returns the summary key of a point: its scenario and parameters.
func keyOf(pt grids.Point) string { return store.PointKey(pt.Scenario, pt.Params) }

// NewRounds returns the adaptive sweep of g: the seed targets of its
// sub-grids, then refine (the grid's [refine], or what replaces it; nil for
// none), then its calibration search. It returns nil when neither asks for anything: the grid is its
// own single round.
func NewRounds(g *grids.Grid, refine *grids.Refine) *Rounds {
	var steps Steppers
	for _, s := range g.Subs {
		if s.Target != nil {
			steps = append(steps, SeedStepper{})
			break
		}
	}
	if refine != nil {
		steps = append(steps, RefineStepper{Refine: refine})
	}
	if g.Calibrate != nil {
		steps = append(steps, NewCalibrateStepper(g.Calibrate))
	}
	if len(steps) == 0 {
		return nil
	}
	return &Rounds{Grid: g, Stepper: steps}
}
