package workload

import "github.com/ccsweep/ccsweep/engine"

// AppPrograms are the programs of AppSpec.Program.
var AppPrograms = []string{"pingpong", "ring", "allreduce", "alltoall", "bcast", "barrier", "trace"}

// AppSpec is one closed-loop application of a scenario.
type AppSpec struct {
	// Name names the app in errors, results and grid axes (NAME.field).
	Name string
	// Label prefixes the app's metric names (LABEL_latency_us, ...);
	// empty: Name. Two apps may share a label if they report different
	// metrics (Report).
	Label string
	// Program is what every rank runs (AppPrograms).
	Program string
	// Hosts are the hosts the ranks run on, RanksPerHost each, rank r on
	// Hosts[r/RanksPerHost]; empty: the topology's hosts in order.
	Hosts []string
	// Ranks is the number of ranks; 0: len(Hosts)·RanksPerHost.
	Ranks int
	// RanksPerHost is how many consecutive ranks share a host (≥ 1).
	RanksPerHost int
	// Order is a ring's rank order: "natural" or "random" (Patterns
	// random rings drawn from the run's seed).
	Order string
	// Patterns is how many random rings a random ring measures (HPC
	// Challenge: 30 for latency, 10 for bandwidth); the latency is their
	// geometric mean.
	Patterns int
	// Algorithm is allreduce's: "ring" or "rd" (recursive doubling, a
	// power of two ranks).
	Algorithm string
	// Size is the message size in bytes: pingpong's and ring's messages,
	// allreduce's and bcast's buffer, alltoall's block per pair.
	Size int
	// Iterations is pingpong's and ring's loop length (after one warm-up
	// iteration that is not measured) and the collectives' repetitions.
	Iterations int
	// Compute is the computation before each collective (bulk-synchronous
	// iterations).
	Compute engine.Time
	// Root is bcast's root rank.
	Root int
	// StartPhase is when the app starts, unless After names another app:
	// then it starts when that one has finished.
	StartPhase int
	After      string
	// Report selects the metrics: "latency", "bandwidth" or "" (all).
	Report string
	// SendOverhead and RecvOverhead are the host's per-message messaging
	// software overheads (LogGP's o at sender and receiver).
	SendOverhead, RecvOverhead engine.Time
	// SHMLatency and SHMGbps are how ranks on one host reach each other:
	// a message takes SHMLatency plus its size at SHMGbps.
	SHMLatency engine.Time
	SHMGbps    float64
	// Trace holds per-rank programs for Program "trace" (ParseGOAL).
	Trace *Trace
}

// Default software overheads and shared-memory figures (docs/apps.md gives
// the sources and how they were chosen).
const (
	DefaultSendOverhead = 300 * engine.Nanosecond
	DefaultRecvOverhead = 300 * engine.Nanosecond
	DefaultSHMLatency   = 200 * engine.Nanosecond
	DefaultSHMGbps      = 40.0
)

// DefaultApp returns an app spec with every field's default: one rank per
// host, 8-byte messages, 8 iterations, the default overheads.
func DefaultApp(name, program string) AppSpec {
	return AppSpec{Name: name, Program: program, RanksPerHost: 1, Order: "natural", Patterns: 1, Algorithm: "ring",
		Size: 8, Iterations: 8, SendOverhead: DefaultSendOverhead, RecvOverhead: DefaultRecvOverhead,
		SHMLatency: DefaultSHMLatency, SHMGbps: DefaultSHMGbps}
}
