// Package params holds the parameters of a ccsweep run: Config, with the
// reference testbed's values (DefaultConfig) and the nested configurations
// of the transport (TransportConfig), IB CC (CCConfig) and the other
// congestion-control schemes (SantosConfig, NICRateConfig, DRBConfig); the
// table of named parameters that grids, `ccsweep sim --set` and scenario
// files set (Param, Params, LookupParam, ParamNames, Config.Set, Get,
// Canonical), their checks (ParamError, Config.Validate, the scheme
// parameters' SchemeParamError) and the IB CC presets (Presets), which are
// parameter data with their sources; and the extras, the values a Config
// holds of a scenario's own parameters (Extra, Config.Extras).
//
// Where each part lives: params.go (Config, the parameter table, parsing
// and canonical spelling, Validate), schemes.go (the cc parameter and the
// schemes' names), presets.go (the presets and their sources), hostio.go
// (a host's payload rate, PCIe), cct.go (the cct parameter's shapes and
// tables), arbiter.go (the arbitration parameter's words), santos.go,
// nicrate.go and drb.go (each scheme's configuration and parameters) and
// extra.go (scenario parameters' values).
//
// The package sits below both the model, which runs a Config, and
// model/workload, whose scenarios declare parameters of their own and
// derive a run's topology from a Config: with Config in model, a scenario
// could live neither below model (it needs Config) nor above it (a run
// needs the scenario). What a parameter does at run time is model's; what
// it is called, what it accepts and what it defaults to is this package's.
//
// The name is the plural that reads at a call site as what it holds:
// params.Config, params.DefaultConfig, params.LookupParam("mtu"). It is not
// grids/param, whose one type is a point's parameter as text (name and
// canonical value); a local variable called params (a list of such
// values) shadows this package, so code that imports it calls those lists
// something else.
//
// # Imports
//
// Of ccsweep, params imports only engine (durations) and model/fabric (the
// number of data VLs a VL arbitration table may name). It must never import
// model, which runs a Config, nor model/workload, model/fidelity, grids,
// sweep, store, report or report/rank: a parameter does not depend on how
// it is run, described, planned, stored or drawn.
package params
