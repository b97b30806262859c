// Package workload describes the work a ccsweep run carries out, as plain
// data: greedy flows and their roles (flow.go: FlowSpec, Role), generated
// traffic (traffic.go: TrafficSpec with its destination patterns, arrival
// processes and message size distributions, PatternDest), closed-loop
// applications (app.go: AppSpec, DefaultApp and the default overheads) and
// GOAL traces (goal.go: ParseGOAL and the Trace of per-rank operations it
// returns); and the scenarios that put them on a fabric.
//
// A Scenario (scenario.go) is a topology built for a configuration's link
// rates, its flows, traffic and apps, its routing and its length in phases.
// The built-in ones are registered at init and found by LookupScenario:
// the reference testbed's (scenario.go), the HPC Challenge tests on it
// (app_hpcc.go) and the director switches' Clos scenarios (clos648.go,
// clos10368.go). A scenario described as data, as a scenario file gives it,
// is a ScenarioSpec (scenfile.go); NewScenario makes and registers its
// Scenario, with its own parameters (the topology's, the routing's, each
// traffic's and app's numeric fields: app_params.go), whose values a
// params.Config carries as extras. A Scenario's accessors (RoutingFor,
// LMCFor, FlowsFor, TrafficFor, AppsFor, LFTsFile, RoutingOptions,
// Adaptive, Resolve) give what it is under a configuration; ScenarioReason
// (scenerror.go) tells a scenario's errors from the others.
//
// A description says what to run, not what it becomes: package model
// binds a Scenario to a configuration, expands traffic over the hosts,
// builds the apps' rank programs (translating a Trace's operations once per
// run) and runs the state machines that carry them out.
//
// # Imports
//
// Of ccsweep, workload imports only engine (durations), model/fabric (the
// topologies and routing options a scenario builds) and model/params (the
// Config a scenario is built for and the parameters it declares). It must
// never import model, which runs its scenarios, nor model/fidelity, grids,
// sweep, store, report or report/rank: a description does not depend on
// how it is run, planned, stored or drawn.
package workload
