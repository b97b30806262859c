// Package adaptive runs adaptive sweeps: a grid run in rounds, round 0 its
// own points and each later round the points a Stepper proposes from the
// results of the rounds before, until it proposes none. It decides what to
// run next; package sweep runs each round's points, and package grids reads
// what the grid file asks for ([refine], [calibrate], seed targets) into
// the settings the steppers follow.
//
// Rounds replays the rounds from the database rather than remembering
// them (Rounds.Current gives the RoundState), so that they resume, shard
// (RoundState.Plan) and run on Slurm like a grid's points; RunRounds runs
// them all on this machine, RunRound one shard of the current round.
// NewRounds chains the steppers a grid asks for, in this order:
//
//   - SeedStepper: more seeds for the points of a sub-grid with a seed
//     target whose confidence interval is still too wide (SeedsWanted);
//   - RefineStepper: points added midway between neighbours where a metric
//     changes most or a where constraint flips;
//   - CalibrateStepper: a grid of points over a shrinking box around the
//     point nearest a measurement; FitOf reports the best fit (Fit, FitRow).
//
// # Imports
//
// Of ccsweep, adaptive imports engine, grids (the grid and its parsed
// settings), model (the model version, part of a point's identity), store
// (the results a round is decided from) and sweep (which runs a round's
// points). It must never import report or report/rank (a sweep decides
// from summaries, not from a ranking), nor sweep/slurm, which runs rounds as
// job arrays and builds on it. Only sweep/slurm and the ccsweep command
// import it; grids, store and sweep never do.
package adaptive
