// Package grids reads grid files: TOML descriptions of parameter sweeps. It
// parses and validates a file, reporting every problem with its file, line
// and key, and expands the grid into points, each a scenario, a set of model
// parameters and a seed, identified by a stable hash.
//
// A grid file looks like this:
//
//	name        = "fig11-14"    # required; a file name stem, used for the default DB name
//	scenario    = "testbed-s1"  # required; a built-in scenario (ccsweep scenarios)
//	description = "..."         # optional free text
//	cc          = "on"          # any model parameter may be set here, as in [base]
//	phase       = "1s"
//	seeds       = 1             # replications: seeds 1..N (default 1)
//	where       = ["ccti_min <= ccti_limit"]   # constraints, see below
//
//	[base]                      # fixed parameters: any model parameter
//	threshold = 15
//
//	[sweep]                     # axes crossed with each other
//	ccti_timer   = { from = "50us", to = "2000us", step = "50us" }
//	marking_rate = [0, 1, 2, 4, 8, 16, 32, 64]
//	message_size = { from = 256, to = 65536, count = 9, scale = "log" }
//
//	[zip]                       # axes that move together, crossed with the rest
//	ccti_increase = [1, 2, 4]
//	ccti_limit    = [127, 64, 32]
//
//	[[grid]]                    # optional sub-grids
//	cc = "off"
//	[grid.sweep]
//	marking_rate = [0]
//
// # Congestion-control schemes
//
// cc names the scheme: "off", "ib" (IB CC; "on" and true are the same, and
// its canonical value, in point identities and exports, stays "on"),
// "santos", "nicrate" or "drb"; false is "off". cc may be an axis like any
// other. A scheme's parameters are named SCHEME.NAME (santos.m); in TOML
// write them quoted ("santos.m" = 4), as a dotted key (santos.m = 4) or in
// a table (santos = { m = 4 }). They act only at points that select their
// scheme, and a grid that sets one while no point selects its scheme is an
// error. Points of other schemes do not carry them: sweeping a scheme's
// parameter beside a cc axis runs the other schemes once, not once per
// value (cc = [off, ib, santos] x santos.m = [2, 4] is 4 points).
//
// # Presets and CCT shapes
//
// preset names a set of IB CC settings ("table1", the default and the
// testbed's; "ccmgr"; "opa"; docs/presets.md gives each value's source).
// It sets the IB CC fields (params.PresetFields) but those the grid, or the
// scenario, sets by name, whatever the order; it may be an axis, and
// where constraints see the fields it sets. preset = "table1" adds nothing
// to a point's identity: it is the point without it (for a scenario file
// that chooses a preset, that one is). So does any model parameter set to
// the value it has anyway (PointID). cct is the CCT's
// shape: "quadratic" (cct_denominator), "linear" (cct_max_delay at
// ccti_limit) or "table:0,1us,2us" (the entries; the last repeats).
//
// TOML puts every key after a [table] header into that table, so name,
// scenario, seeds, where and top-level parameters must come before the first
// header.
//
// Values are spelled as for `ccsweep sim --set`: durations carry a unit
// ("150us", "1ms"; a bare 0 is allowed), on/off parameters take "on", "off",
// true or false, enums take their words. Parameters the grid does not set keep
// params.DefaultConfig's values. A parameter may be set once per (sub-)grid,
// either fixed (at the top, in [base]) or as one axis.
//
// # Axes
//
// An axis is a non-empty list of distinct values, or a range of a numeric
// parameter:
//
//   - {from, to, step}: from, from+step, ... up to to inclusive; step > 0,
//     with a unit for durations. Float values are from + i*step rounded to
//     12 significant digits; to is reached when within a millionth of a step.
//   - {from, to, count, scale}: count ≥ 1 values from from to to inclusive
//     (from alone when count is 1), evenly spaced on a linear (scale = "lin",
//     the default) or logarithmic (scale = "log", from > 0) scale. Values
//     between the ends are rounded to the parameter's kind: integers to the
//     nearest whole number, durations to the nanosecond, floats to 12
//     significant digits; values made equal by rounding appear once.
//
// from must not exceed to, and a range yields at most MaxAxisValues values. A
// range may also be written as a table, [sweep.ccti_timer].
//
// Axes in [sweep] are crossed. Axes in [zip] move together and must have
// equally many values; [[zip]] gives several zip groups. Each [sweep] axis
// and each zip group is a dimension; dimensions are crossed in file order,
// the last varying fastest, and seeds vary fastest of all.
//
// # Constraints
//
// where is an expr-lang (github.com/expr-lang/expr) boolean expression, or a
// list of them that must all hold; points failing one are left out. An
// expression may use every model parameter by name, with its value at the
// point (from the grid or the model default): integers as int, floats as
// float, durations as float microseconds (ccti_timer <= 500 means 500us),
// enums as strings (cc_level == "qp") and on/off parameters as bool. cc
// is a bool too, true for every scheme but off, as it was when it meant IB
// CC on or off; scheme is the scheme's name ("off", "ib", "santos",
// "nicrate", "drb"). A scheme's parameters are named as written
// (scheme != "santos" || santos.m > 2); a scenario file's dotted fields
// (bg.load) are not.
// Every point is then checked with params.Config.Validate; a grid with an
// invalid point is rejected, naming the parameter at fault, so constraints
// are how to leave out combinations such as ccti_min > ccti_limit.
//
// # Sub-grids
//
// Without [[grid]] the file is one grid. Each [[grid]] is a sub-grid whose
// points follow those of the previous ones; the top level is a sub-grid too
// when it has [sweep] or [zip]. A sub-grid takes scenario, seeds, where,
// [grid.base], [grid.sweep], [grid.zip] and model parameters. It inherits the
// top level's scenario, seeds, fixed parameters (its own replace them, and
// its axes override them) and where constraints (its own are added), but not
// the top level's axes.
//
// A grid expands to at most MaxPoints points, counting seeds and before
// constraints.
//
// # Rounds
//
// Three tables make a grid adaptive: after its own points, rounds of
// further points follow, each decided from the results of the rounds
// before (package sweep/adaptive decides and runs them):
//
//	seeds = { min = 3, max = 30, ci = 0.05, metric = "victim_gbps" }   # replications to a precision (SeedTarget)
//	[refine]      # points added between neighbours where a metric changes or a constraint flips (Refine)
//	[calibrate]   # a search fitting the numeric axes to measured throughput (Calibrate)
//
// A seed target expands to seeds 1..min (SubGrid.Seeds is min); [refine]
// and [calibrate] belong at the top level and must come after the keys
// before the first table, like every table. None of them enters the
// canonical form: the points they add are points of the same grid.
//
// grids reads what a file asks for; deciding what each round runs is
// package sweep/adaptive's. grids keeps the rules its own parsing applies
// too: which kinds are numeric (NumericKind), the default round size
// (DefaultPerRound), an axis value as a number and back (AxisNumber, which
// the log-scale check uses, and AxisValue, rounded as float ranges are),
// and the settings a command line's refinement asks for (RefineWith,
// validated and defaulted as [refine] is).
//
// # Canonical form
//
// Grid.Canonical spells a grid as run, in JSON of format CanonicalFormat:
// sub-grids with inherited settings resolved and axes expanded to their
// values. Grid identities hash it and databases keep it; ParseCanonical
// (DecodeCanonical, then CanonicalGrid.Grid) rebuilds the grid from it,
// where constraints and all, so that readers of a database expand exactly
// the points that were planned. Text of a later format version is refused
// with ErrFormatTooNew.
//
// # Imports
//
// Of ccsweep, grids imports only engine (durations), model (the
// scenarios and metrics a grid names), model/params (the parameters it
// sets), model/fabric (the
// topology and routing keys of a scenario file), model/workload (the
// flows, traffic and apps a scenario file describes), grids/param (a point's
// parameter) and grids/point (a point), which store keeps as they are. It
// must never import sweep, sweep/adaptive, store, report or report/rank: a
// grid is plain values that those consume.
package grids
