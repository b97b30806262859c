// Package fabric is ccsweep's InfiniBand fabric before it runs: topologies
// of switches and hosts (topology.go), generated (topogen.go: fat trees,
// Clos networks, meshes and tori, the reference testbed) or read from
// ibnetdiscover output (ibnetdiscover.go, ibsimnet.go); routing engines
// that fill linear forwarding tables (routing.go and routing_minhop.go,
// routing_updn.go, routing_ftree.go, routing_dor.go), forwarding tables read
// from an OpenSM dump or ibroute output and written back (lftread.go,
// lftdump.go); the check that proves a routing reaches every host and is
// free of deadlock (routing_check.go), the adaptive routing groups and their
// check (routing_adaptive.go), and the routes' balance over the links
// (balance.go, balance_write.go: ccsweep fabric).
//
// Everything here is computed once, before a run: model programs its
// switches from Routes, ARState and DORRouter, and the hot path only reads
// them. A routing depends only on its arguments: a Topology is only read,
// so routings of one topology may run concurrently.
//
// Its errors about a topology or a routing wrap ErrBadScenario, which
// model's errors about the rest of a scenario wrap too.
//
// # Imports
//
// fabric imports no ccsweep package. It must never import model or its
// other subpackages, engine, grids, sweep, store, report or report/rank: a
// fabric is plain data that model builds a network from, and a routing does
// not depend on what runs on it.
package fabric
