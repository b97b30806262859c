// Package workload describes the work a ccsweep run carries out, as plain
// data: greedy flows and their roles (flow.go: FlowSpec, Role), generated
// traffic (traffic.go: TrafficSpec with its destination patterns, arrival
// processes and message size distributions, PatternDest), closed-loop
// applications (app.go: AppSpec, DefaultApp and the default overheads) and
// GOAL traces (goal.go: ParseGOAL and the Trace of per-rank operations it
// returns).
//
// A description says what to run, not what it becomes: package model
// binds descriptions to a scenario's topology and a configuration (a
// Scenario and its Config), expands traffic over the hosts, builds the
// apps' rank programs (translating a Trace's operations once per run) and
// runs the state machines that carry them out.
//
// # Imports
//
// Of ccsweep, workload imports only engine (durations). It must never
// import model, which runs its descriptions, nor model/fabric, model/fidelity,
// grids, sweep, store, report or report/rank: a description does not depend
// on the fabric it will run on, nor on how it is planned, run, stored or
// drawn.
package workload
