// Command ccsweep runs InfiniBand congestion-control simulations and sweeps
// them over parameter grids. See README.md; docs/internals.md says where each
// idea lives.
//
// # Imports
//
// The command wires the packages together and may import every one of them:
// engine, model, model/fabric, model/fidelity, model/params, model/workload, grids, sweep,
// sweep/adaptive, sweep/slurm, store, store/atomicfile, report and report/rank. It must never hold
// what belongs in them: a command parses flags, calls a package and prints.
package main

import (
	"context"
	"os"

	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

func main() { os.Exit(runProcess(os.Args)) }

// Every database is checked at open for parameter values this model
// cannot read, which only a damaged or hand-edited file holds.
func init() { store.CheckParamsWith(sweep.CheckStoredParam) }

// runProcess runs ccsweep as a process does: a network is built only if it
// fits the process's memory (setMemoryBudget), stop signals cancel the
// command, and the exit status says which one stopped it.
func runProcess(args []string) int {
	setMemoryBudget()
	ctx, stop := withSignals(context.Background())
	code := run(ctx, args, os.Stdout, os.Stderr)
	stop()
	return signalStatus(ctx, code, os.Stderr)
}
