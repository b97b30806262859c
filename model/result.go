package model

import (
	"context"
	"fmt"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Result is what a run produced: every flow's throughput series and the
// run's counters.
type Result struct {
	Scenario     string
	ModelVersion string
	Seed         uint64
	Config       params.Config
	// Sample is the sampling interval; sample i covers (i·Sample, (i+1)·Sample].
	Sample engine.Time
	// End is the run's simulated length.
	End      engine.Time
	Flows    []FlowResult
	Counters Counters
	// Events is the number of simulation events run.
	Events uint64
	// MeanCCTI is the time-average CCTI over the default measurement window.
	MeanCCTI float64
	// Stats are the default window's statistics beyond throughput.
	Stats RunStats
	// PathsOpenMean is DRB's time-average open paths per pair over the
	// default window (Metrics.PathsOpenMean); NaN without DRB.
	PathsOpenMean float64
	// Apps are what the scenario's closed-loop applications measured
	// (app.go); nil without apps.
	Apps []AppResult
}

// RunStats are what a run measured over its measurement window besides
// the throughput series (runStats).
type RunStats struct {
	// Latency is message latency per role (Victim, Contributor, Background,
	// in that order) and All over every message: from its arrival at the
	// source (for a greedy flow, the moment its previous message was sent)
	// to its last byte in host memory, for messages completed in the window.
	Latency [3]LatencySummary
	All     LatencySummary
	// OfferedGbps is the payload rate the sources offered: a greedy or
	// saturating source offers its host link's rate, a Poisson or on/off
	// source what arrived in the window.
	OfferedGbps float64
	// SenderGbps is the host link rate times the number of hosts that send.
	SenderGbps float64
	// MaxLinkUtil is the busiest link direction's bytes sent (headers
	// included) over what it could send in the window.
	MaxLinkUtil float64
	// MaxBufferFill is the fullest switch input buffer (one VL) seen in the
	// window, as a fraction of its size.
	MaxBufferFill float64
	// Dropped counts messages that found their source's queue full
	// (maxQueued) over the whole run.
	Dropped int64
}

// FlowResult is one flow's throughput series.
type FlowResult struct {
	Name     string
	Role     workload.Role
	Src, Dst string
	Start    engine.Time
	// Gbps[i] is the payload throughput in Gbit/s over sample interval i.
	Gbps []float64
	// CCTI[i] is the flow's CCTI at the end of sample interval i; nil with
	// CC off.
	CCTI []int32
	// AdmittedGbps is the payload rate nicrate's admission control gave
	// the flow; 0 under other schemes and for a refused flow.
	AdmittedGbps float64
	// Refused is set for a flow nicrate's admission control refused: it
	// never started.
	Refused bool
}

// Run simulates sc under cfg with the given seed from start to end.
func Run(sc *workload.Scenario, cfg params.Config, seed uint64) (*Result, error) {
	return RunContext(context.Background(), sc, cfg, seed)
}

// RunContext is Run that gives up, returning ctx's error, soon after ctx is
// done (it looks every 100 µs of simulated time).
func RunContext(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*Result, error) {
	return RunProgress(ctx, sc, cfg, seed, nil)
}

// progressStep is how much simulated time passes between looks at the
// context and calls of a progress function. Where the run stops between
// events does not change its result.
const progressStep = 100 * engine.Microsecond

// RunProgress is RunContext that also calls progress, if not nil, with the
// simulated time reached and the run's end, every 100 µs of simulated time
// and once at the end, from the calling goroutine.
func RunProgress(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64, progress func(now, end engine.Time)) (*Result, error) {
	n, err := NewNetwork(sc, cfg, seed)
	if err != nil {
		return nil, err
	}
	var watch progressWatch
	for t := engine.Time(0); t < n.End(); {
		t = min(t+progressStep, n.End())
		n.RunUntil(t)
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := n.deadlocked(&watch); err != nil {
			return nil, err
		}
		if progress != nil {
			progress(t, n.End())
		}
	}
	if n.violations > 0 {
		return nil, fmt.Errorf("model: %d credit counters left their range", n.violations)
	}
	if err := n.appErr(); err != nil {
		return nil, err
	}
	return n.Result(), nil
}

// Result returns the series sampled so far.
func (n *Network) Result() *Result {
	n.settleDeliveries()
	r := &Result{
		Scenario: n.scenario.Name, ModelVersion: Version, Seed: n.seed, Config: n.cfg,
		Sample: n.cfg.Sample, End: n.end, Counters: n.counters, Events: n.sim.Handled(),
		MeanCCTI: n.meanCCTI(), Stats: n.runStats(), PathsOpenMean: n.drbPathsOpenMean(),
		Apps: n.appResults(),
	}
	for _, f := range n.flows {
		fr := FlowResult{Name: f.spec.Name, Role: f.spec.Role, Src: f.spec.Src, Dst: f.spec.Dst, Start: f.start,
			Gbps: make([]float64, len(f.samples)), CCTI: f.cctiTrace}
		for i, b := range f.samples {
			fr.Gbps[i] = float64(b*8000) / float64(n.cfg.Sample) // bits per ns, one rounding
		}
		if n.nic != nil {
			fr.AdmittedGbps = n.nic.admittedGbps[len(r.Flows)]
			fr.Refused = fr.AdmittedGbps == 0
		}
		r.Flows = append(r.Flows, fr)
	}
	return r
}

// MeanGbps returns the flow's mean throughput over the samples that lie
// wholly inside [from, to] (WindowSamples), or 0 if none does.
func (r *Result) MeanGbps(flow int, from, to engine.Time) float64 {
	g := r.Flows[flow].Gbps
	first, last := WindowSamples(from, to, r.Sample, len(g))
	if last < first {
		return 0
	}
	var sum float64
	for _, x := range g[first : last+1] {
		sum += x
	}
	return sum / float64(last-first+1)
}
