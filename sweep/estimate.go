package sweep

import (
	"context"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
)

// calibrationPhase is the phase length of the short copy of a point that
// Estimate runs to measure the simulator's speed on this machine.
const calibrationPhase = 10 * engine.Millisecond

// Estimate returns the core-seconds the points at idx would take: it runs
// the first of them, every phase shortened to 10 ms, and scales by each
// point's simulated time. The figure is rough: parameters change the cost
// per simulated second.
func Estimate(ctx context.Context, plan *Plan, idx []int) (coreSeconds float64, err error) {
	if len(idx) == 0 {
		return 0, nil
	}
	pt := plan.Point(idx[0])
	sc := model.LookupScenario(pt.Scenario)
	cfg, err := pt.Config()
	if err != nil {
		return 0, err
	}
	cfg.Phase = min(cfg.Phase, calibrationPhase)
	cfg.Sample = min(cfg.Sample, cfg.Phase)
	start := time.Now()
	res, err := model.RunContext(ctx, sc, cfg, pt.Seed)
	if err != nil {
		return 0, err
	}
	perSimSecond := time.Since(start).Seconds() / res.End.Seconds()
	var simulated float64
	for _, i := range idx {
		simulated += SimulatedTime(plan.Point(i)).Seconds()
	}
	return simulated * perSimSecond, ctx.Err()
}
