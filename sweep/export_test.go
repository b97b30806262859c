package sweep

import (
	"context"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// SetSimulate replaces the function that runs a point's simulation for the
// rest of a test, and restores it when the test ends.
func SetSimulate(cleanup func(func()), f func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error)) {
	old := simulateRun
	simulateRun = f
	cleanup(func() { simulateRun = old })
}
