// Package fidelity checks the model against the published measurements of
// the reference testbed: it runs the reference experiments and sets the
// model's numbers beside the published ones, row by row, each with the
// measure it is judged by and a verdict.
//
// The rows are the CC-off and CC-on tables of SPEC §3 (testbed-s1, one row
// per phase) and the claims the hardware paper makes about its parameter
// surfaces (figures 11, 12 and 14: victim throughput, contributors'
// throughput and Var over CCTI_Timer × Marking_Rate) and that the OMNeT++
// model's validation makes about the hardware (two contributors with CC on
// reach about 11 Gbit/s of H5's 13). The surfaces come from a small grid run
// in process, on as many simulations at once as Options.Jobs allows.
//
// The published numbers were read off the papers' text (their figures were
// not available), so each row states the measure that turns a sentence into
// a check; Rows documents them. Run is deterministic: the same Options give
// the same Report on every machine and with any number of jobs.
package fidelity
