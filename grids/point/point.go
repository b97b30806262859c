// Package point names the one value that grids, sweep, store, the report
// and ccsweep best all pass around for a point: one simulation of a grid,
// a scenario with the parameters the grid sets and a seed. grids.Point and
// store.Point are this type, so a point goes from a grid expansion to the
// database and back without a conversion.
//
// What a point means to the model lives in grids, which may import it:
// its identity (grids.PointID, a hash that also covers the model version)
// and its configuration (grids.PointConfig). A stored point's identity and
// grid are the stored result's (store.Result.ID and GridID), not the
// point's.
//
// # Imports
//
// point imports only grids/param (Param, a point's parameter) and must
// never import any other ccsweep package: store, which takes plain values,
// imports it as well as grids.
package point

import (
	"github.com/ccsweep/ccsweep/grids/param"
)

// Point is one simulation of a grid: a scenario, the parameters the grid
// sets and a seed.
type Point struct {
	// Scenario is the name of the scenario to run (built in, or the name a
	// scenario file gives it).
	Scenario string
	// Params are the parameters the point sets, names unique, each value
	// canonically spelled (params.Param.Format). A grid's points and the
	// points read from a database hold them sorted by name; a parameter the
	// point does not set keeps its scenario's value.
	Params []param.Param
	// Seed is the replication, 1..the sub-grid's seeds for a grid's point;
	// at most math.MaxInt64 for a stored one.
	Seed uint64
}

// Value returns the value of parameter name in p, if p sets it, whatever
// the order of p.Params (a point has a few parameters: a scan is as fast as
// a search).
func (p Point) Value(name string) (string, bool) {
	for _, q := range p.Params {
		if q.Name == name {
			return q.Value, true
		}
	}
	return "", false
}
