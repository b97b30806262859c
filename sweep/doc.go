// Package sweep runs a grid's points: it expands the grid, skips the points
// the database already holds, claims the rest so that several processes can
// share one database, simulates them on a pool of workers and writes each
// result as it finishes. Killing a sweep loses at most the points in flight;
// running it again finishes the rest. Results depend only on each point's
// parameters and seed, never on the number of workers or their order.
package sweep
