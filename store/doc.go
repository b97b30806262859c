// Package store keeps the results of ccsweep sweeps in one SQLite file: the
// grids as run, the provenance of every `ccsweep run`, each simulated point
// with its parameters, status, metrics and compressed per-flow time series,
// and the short-lived claims that stop two processes sharing a database from
// running the same point twice.
//
// The database is opened with database/sql and modernc.org/sqlite (no cgo) in
// WAL mode with synchronous=NORMAL, a 5 s busy timeout and foreign keys on;
// the pragmas are read back after opening. The schema is versioned through
// PRAGMA user_version and upgraded by an ordered list of migrations, and
// PRAGMA application_id marks the file as a ccsweep database.
//
// Results reach the file through a Writer, a single goroutine that commits
// them in transactions; Writer.Save returns once a result is committed, and
// results saved at once share a transaction. Queries and exports read
// finished points back; Merge combines the databases of sharded runs.
//
// # Imports
//
// The package takes plain values: of ccsweep it imports only store/atomicfile
// (for exports), grids/point (Point, a point as a grid expands it) and
// grids/param (Param, a point's parameter). It must never import engine, model, grids, sweep, report or
// report/rank; the model's rules reach it as values and functions its
// callers pass in (CheckParamsWith).
package store
