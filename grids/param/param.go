// Package param names the one value that grids, sweep, store, the report
// and ccsweep best all pass around for a point's parameter: its name and
// its canonical value. grids.Param and store.Param are this type, so a
// point's parameters go from a grid to the database and back without a
// conversion.
//
// # Imports
//
// param imports nothing of ccsweep's and must never import any other
// ccsweep package: store, which takes plain values, imports it as well as
// grids.
package param

// Param is a parameter's name and its value in canonical text form (the
// model's spelling, params.Param.Canonical), as a grid point, a stored point
// and a ranking hold it.
type Param struct {
	Name  string
	Value string
}
