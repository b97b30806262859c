// Package model is ccsweep's InfiniBand network: topologies of switches and
// host channel adapters (HCAs), full-duplex links with credit-based flow
// control in 64-byte credits per virtual lane, input-buffered switches with
// virtual output queues and virtual cut-through, round-robin output
// arbitration, HCAs whose I/O bandwidth caps both injection and absorption,
// greedy flows of messages split into MTU packets, min-hop routing tables,
// the built-in scenarios of the reference testbed, per-flow throughput
// samples and the metrics computed from them.
//
// A run is a pure function of its Scenario, Config and seed: the same inputs
// give bit-identical samples on any machine. The package imports only engine
// from ccsweep.
package model
