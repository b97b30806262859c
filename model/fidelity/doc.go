// Package fidelity checks the model against the reference testbed's
// published measurements (ccsweep validate): the reference experiments and
// the rows they are judged by (fidelity.go, fidelity_reference.go), the
// report in Markdown (fidelity_markdown.go), held-out validation and
// sensitivity (validate --cross and --sensitivity, fidelity_cross.go), and
// where each row and each fitted parameter comes from
// (fidelity_provenance.go).
//
// A check is deterministic: the same options give the same report on every
// machine and with any number of jobs.
//
// # Imports
//
// Of ccsweep, fidelity imports only engine, model, model/params (the
// configuration it varies) and model/workload (the scenarios it runs): it
// runs the model's built-in scenarios as any caller would. model never
// imports fidelity, and fidelity must never import grids, sweep, store,
// report or report/rank: a check of the model does not depend on how
// sweeps are planned, stored or drawn.
package fidelity
