// Package model is ccsweep's InfiniBand network at run time: full-duplex
// links with credit-based flow control in 64-byte credits per virtual lane,
// input-buffered switches with virtual output queues and virtual
// cut-through, round-robin output arbitration, HCAs whose I/O bandwidth caps
// both injection and absorption; greedy flows and generated traffic
// (destination patterns, arrival processes, message sizes); IB congestion
// control and the other congestion-control schemes (ECN marking variants
// with window-one rate-controlled sources, NIC rate control with admission);
// per-flow throughput samples, message latencies and the metrics computed
// from them. The fabric a run is built on (topologies, the ibnetdiscover
// reader, routing engines, forwarding tables and their deadlock check) is
// package model/fabric; the descriptions of the work a run carries out
// (flows, traffic specs, applications and GOAL traces) and the scenarios,
// built-in or described as data, are package model/workload; a run's
// parameters (Config, the parameter table, the presets) are package
// model/params; the model against the testbed's published measurements
// (ccsweep validate) is package model/fidelity.
//
// Where each part lives: network.go (the Network, its events and their
// dispatch, construction), link.go (transmission and credit flow control,
// with the credit conservation invariant), switch.go (VoQs, arbitration and
// the output wake-up protocol), hca.go (injection, the send and receive
// DMAs, the message rate), routes.go (the switches' forwarding programmed
// from the fabric's routes, the adaptive choice at run time), deadlock.go (a
// run that stops making progress), traffic.go and generator.go (generated
// traffic: a traffic spec expanded over a topology's hosts, its messages
// drawn), cc.go (IB CC: marking, CNPs, CCTI and its timers, the CCT built),
// transport.go (what the RC transport and the adapters add to CC: BECNs in
// ACKs, timer starts, paced reads), schemes.go (the run's scheme set up),
// santos.go (marking variants, per-packet ACKs, AIMD/FIMD/LIPD sources),
// nicrate.go (the NDT dispatcher and admission control), drb.go (distributed
// routing balancing: congestion control by opening LMC paths on BECNs),
// params.go (the model's Version), app.go (applications run: their programs
// built, a GOAL trace's operations translated), work.go (the cost of a run,
// estimated before it runs), stats.go (latency and window statistics),
// sample.go, metrics.go and result.go.
//
// A run is a pure function of its scenario (a workload.Scenario), its
// configuration (a params.Config) and seed: the same inputs give
// bit-identical samples on any machine.
//
// # Imports
//
// Of ccsweep, model imports only engine, model/fabric (the topology and
// routes a run is built on; fabric never imports model), model/params (the
// Config a run is given and its parameters; params never imports model) and
// model/workload (the descriptions of the flows, traffic and apps a run
// carries out; workload never imports model). It must never import
// model/fidelity, which checks it, nor grids, sweep, store, report or
// report/rank: they build on it, and a run must not depend on how it was
// planned, stored or drawn.
package model
