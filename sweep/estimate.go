package sweep

import (
	"context"
	"errors"
	"iter"
	"slices"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
)

// calibrationPhase is the phase length of the short copy of a point that
// Estimate runs to measure the simulator's speed on this machine.
const calibrationPhase = 10 * engine.Millisecond

// Estimate returns the core-seconds the plan's points idx yields would take:
// it runs the first of them, every phase shortened to 10 ms, and scales by
// each point's simulated time. The figure is rough: parameters change the
// cost per simulated second. It holds one point at a time: slices.Values of
// Plan.Missing, or every position 0..Len()-1, suit it.
func Estimate(ctx context.Context, plan *Plan, idx iter.Seq[int]) (coreSeconds float64, err error) {
	perSimSecond := -1.0
	var simulated float64
	for i := range idx {
		pt := plan.Point(i)
		if perSimSecond < 0 {
			if perSimSecond, err = calibrate(ctx, pt); err != nil {
				return 0, err
			}
		}
		simulated += SimulatedTime(pt).Seconds()
	}
	return simulated * max(perSimSecond, 0), ctx.Err()
}

// calibrate returns the wall seconds per simulated second of pt, run with
// every phase shortened to calibrationPhase.
func calibrate(ctx context.Context, pt grids.Point) (float64, error) {
	sc := workload.LookupScenario(pt.Scenario)
	cfg, err := grids.PointConfig(pt)
	if err != nil {
		return 0, err
	}
	cfg.Phase = min(cfg.Phase, calibrationPhase)
	cfg.Sample = min(cfg.Sample, cfg.Phase)
	start := time.Now()
	res, err := model.RunContext(ctx, sc, cfg, pt.Seed)
	switch {
	case err == nil:
		return time.Since(start).Seconds() / res.End.Seconds(), nil
	case errors.Is(err, model.ErrAppUnfinished):
		// An app that the full phases give time to finish need not finish
		// in the short ones: the run went to its end all the same.
		return time.Since(start).Seconds() / (engine.Time(sc.Phases) * cfg.Phase).Seconds(), nil
	}
	return 0, err
}

// EstimateMissing returns how many of the plan's points the database at
// dbPath lacks (all of them when it does not exist) and what running them
// would cost (Estimate). It only reads the database.
func EstimateMissing(ctx context.Context, plan *Plan, dbPath string) (todo int, coreSeconds float64, err error) {
	// Without a database every point is to run: count them without
	// listing them.
	todo, points := plan.Len(), func(yield func(int) bool) {
		for k := range plan.Len() {
			if !yield(k) {
				return
			}
		}
	}
	exists, err := store.Exists(dbPath)
	if err != nil {
		return 0, 0, err
	}
	if exists {
		db, err := store.OpenReadOnly(dbPath)
		if err != nil {
			return 0, 0, err
		}
		missing, err := plan.Missing(ctx, db)
		db.Close()
		if err != nil {
			return 0, 0, err
		}
		todo, points = len(missing), slices.Values(missing)
	}
	cost, err := Estimate(ctx, plan, points)
	return todo, cost, err
}
