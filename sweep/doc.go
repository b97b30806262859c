// Package sweep runs a grid's points: it expands the grid, skips the points
// the database already holds, claims the rest so that several processes can
// share one database, simulates them on a pool of workers and writes each
// result as it finishes. Killing a sweep loses at most the points in flight;
// running it again finishes the rest. Results depend only on each point's
// parameters and seed, never on the number of workers or their order.
//
// A Plan indexes a grid's points (or one shard's) without expanding them, so
// planning and running a grid of millions of points takes memory that does
// not grow with the point count, beyond four bytes a point for a shard.
//
// Deciding what an adaptive sweep runs next (rounds of refinement, seed
// targets, a calibration) is package sweep/adaptive's: it runs each round
// with Run, a round's added points planned by NewListPlan. Running a grid
// on a Slurm cluster, as job arrays of shards (ShardPlans, Plan.Tally), is
// package sweep/slurm's. Options.Simulate lets the tests of both run a
// fake model.
//
// # Imports
//
// Of ccsweep, sweep imports engine, grids, model, model/params (the
// parameters a point sets), model/workload (the scenario a point runs) and
// store. It must never
// import report or report/rank (a sweep runs and stores points; drawing or
// ranking them reads the database afterwards), nor sweep/adaptive or
// sweep/slurm, which build on it.
package sweep
