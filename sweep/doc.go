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
// An adaptive sweep (Rounds) runs a grid in rounds: the grid's points, then
// those a Stepper proposes from the results so far (SeedStepper for seed
// targets, RefineStepper for refinement, CalibrateStepper for a
// calibration), until it proposes none. Rounds are replayed from the
// database rather than remembered, so they resume, shard (RoundState.Plan)
// and run on Slurm like a grid's points.
//
// Running a grid on a Slurm cluster, as job arrays of shards (ShardPlans,
// Plan.Tally), is package sweep/slurm's.
//
// # Imports
//
// Of ccsweep, sweep imports engine, grids, model, model/params (the
// parameters a point sets), model/workload (the scenario a point runs) and
// store. It must never
// import report or report/rank (a sweep runs and stores points; drawing or
// ranking them reads the database afterwards), nor sweep/slurm, which builds
// on it.
package sweep
