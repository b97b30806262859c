// Command ccsweep runs InfiniBand congestion-control simulations and sweeps
// them over parameter grids. See README.md.
package main

import (
	"context"
	"os"
)

func main() { os.Exit(runProcess(os.Args)) }

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
