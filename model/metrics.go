package model

import (
	"math"
	"slices"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// Metrics summarize a run over its measurement window (SPEC §2). Means are
// of payload throughput in Gbit/s. A metric that does not apply (no victim
// flow, fewer than two contributors) is NaN. Every field but CNPs is a
// metric of MetricList, stored and exported under its name.
type Metrics struct {
	// VictimGbps is the mean throughput of the victim flow(s).
	VictimGbps float64
	// ContributorsGbps is the mean per-flow throughput of the contributors.
	ContributorsGbps float64
	// FairnessJain is Jain's index of the contributors' mean throughputs.
	FairnessJain float64
	// Var is the treatment variation: the variance, in (Gbit/s)², of the
	// per-sample spread (highest minus lowest) of contributor throughput.
	Var float64
	// SDGbps is the mean over flows of each flow's throughput standard
	// deviation across the window's samples.
	SDGbps float64
	// FECN, CNPs and BECNs count marked packets and notifications over the
	// whole run. CNPs, the notifications destinations sent, is not in
	// MetricList: BECNs counts those that reached their sources.
	FECN, CNPs, BECNs int64
	// MeanCCTI is the time-average CCTI over the window, across CCTI slots.
	MeanCCTI float64
	// BackgroundGbps is the mean per-flow throughput of background flows;
	// VictimJain and BackgroundJain are Jain's index of each role's flows.
	BackgroundGbps             float64
	VictimJain, BackgroundJain float64
	// Latency per role and over all messages (RunStats.Latency), in µs.
	Latency [3]LatencySummary
	All     LatencySummary
	// OfferedLoad and AcceptedLoad are the offered and delivered payload
	// rates as fractions of the senders' host links (RunStats.SenderGbps).
	OfferedLoad, AcceptedLoad float64
	// MaxLinkUtil and MaxBufferFill are RunStats'.
	MaxLinkUtil, MaxBufferFill float64
	// Dropped counts messages dropped at full source queues.
	Dropped int64
	// ShareError is the mean over nicrate's admitted flows of
	// |throughput/admitted rate − 1|; NaN under other schemes.
	ShareError float64
	// RefusedFlows counts the flows nicrate's admission control refused.
	RefusedFlows int64
	// PathsOpenMean is DRB's time-average number of open paths per
	// (source, destination) pair over the window; NaN without DRB.
	PathsOpenMean float64
}

// Metric is one metric of a run: the one home of its name, label and unit,
// which the store, the export and the report take from here.
type Metric struct {
	// Name names the metric in the store, as the export's column header and
	// in the report: lowercase words joined by '_', e.g. "victim_gbps".
	Name string
	// Label is a short lowercase title for tables and chart axes, e.g.
	// "victim throughput".
	Label string
	// Unit is the unit of the metric's values, e.g. "Gbit/s"; empty for a
	// pure number.
	Unit string
	// Doc says what the metric measures, in a sentence.
	Doc string

	value func(*Metrics) float64
}

// metricTable lists the metrics in export order.
var metricTable = []Metric{
	{"victim_gbps", "victim throughput", "Gbit/s",
		"Mean throughput of the victim flow(s) over the measurement window.",
		func(m *Metrics) float64 { return m.VictimGbps }},
	{"contributors_gbps", "contributors' mean throughput", "Gbit/s",
		"Mean per-flow throughput of the contributors over the measurement window.",
		func(m *Metrics) float64 { return m.ContributorsGbps }},
	{"fairness_jain", "Jain's fairness index", "",
		"Jain's index of the contributors' mean throughputs: 1 when equal, 1/n when one takes all.",
		func(m *Metrics) float64 { return m.FairnessJain }},
	{"var", "Var, treatment variation", "(Gbit/s)²",
		"Variance of the per-sample spread (highest minus lowest) of contributor throughput.",
		func(m *Metrics) float64 { return m.Var }},
	{"sd_gbps", "per-flow jitter (sd)", "Gbit/s",
		"Mean over flows of each flow's throughput standard deviation across the window's samples.",
		func(m *Metrics) float64 { return m.SDGbps }},
	{"fecn", "FECN-marked packets", "packets",
		"Packets the switches marked with FECN over the whole run.",
		func(m *Metrics) float64 { return float64(m.FECN) }},
	{"becn", "BECNs received", "packets",
		"Congestion notifications (BECNs) that reached their sources over the whole run.",
		func(m *Metrics) float64 { return float64(m.BECNs) }},
	{"mean_ccti", "mean CCTI", "",
		"Time-average CCTI over the measurement window, across CCTI slots.",
		func(m *Metrics) float64 { return m.MeanCCTI }},
	{"background_gbps", "background throughput", "Gbit/s",
		"Mean per-flow throughput of the background flows over the measurement window.",
		func(m *Metrics) float64 { return m.BackgroundGbps }},
	{"victim_jain", "victims' Jain index", "",
		"Jain's index of the victim flows' mean throughputs.",
		func(m *Metrics) float64 { return m.VictimJain }},
	{"background_jain", "background Jain index", "",
		"Jain's index of the background flows' mean throughputs.",
		func(m *Metrics) float64 { return m.BackgroundJain }},
	{"latency_mean_us", "mean message latency", "µs",
		"Mean latency of the messages completed in the window: from arrival at the source to the last byte in host memory.",
		func(m *Metrics) float64 { return m.All.Mean }},
	{"latency_p50_us", "median message latency", "µs",
		"Median latency of the messages completed in the window (within 1.6 %).",
		func(m *Metrics) float64 { return m.All.P50 }},
	{"latency_p99_us", "99th percentile message latency", "µs",
		"99th percentile latency of the messages completed in the window (within 1.6 %).",
		func(m *Metrics) float64 { return m.All.P99 }},
	latencyMetric(workload.Victim, "mean", func(l *LatencySummary) float64 { return l.Mean }),
	latencyMetric(workload.Victim, "p50", func(l *LatencySummary) float64 { return l.P50 }),
	latencyMetric(workload.Victim, "p99", func(l *LatencySummary) float64 { return l.P99 }),
	latencyMetric(workload.Contributor, "mean", func(l *LatencySummary) float64 { return l.Mean }),
	latencyMetric(workload.Contributor, "p50", func(l *LatencySummary) float64 { return l.P50 }),
	latencyMetric(workload.Contributor, "p99", func(l *LatencySummary) float64 { return l.P99 }),
	latencyMetric(workload.Background, "mean", func(l *LatencySummary) float64 { return l.Mean }),
	latencyMetric(workload.Background, "p50", func(l *LatencySummary) float64 { return l.P50 }),
	latencyMetric(workload.Background, "p99", func(l *LatencySummary) float64 { return l.P99 }),
	{"offered_load", "offered load", "",
		"Payload rate the sources offered in the window, as a fraction of the senders' host links.",
		func(m *Metrics) float64 { return m.OfferedLoad }},
	{"accepted_load", "accepted load", "",
		"Payload rate delivered in the window, as a fraction of the senders' host links.",
		func(m *Metrics) float64 { return m.AcceptedLoad }},
	{"max_link_util", "busiest link's utilisation", "",
		"Bytes the busiest link direction sent in the window over what it could send.",
		func(m *Metrics) float64 { return m.MaxLinkUtil }},
	{"max_buffer_fill", "fullest switch buffer", "",
		"Largest fill of a switch input buffer (one VL) in the window, as a fraction of its size.",
		func(m *Metrics) float64 { return m.MaxBufferFill }},
	{"dropped_messages", "messages dropped at sources", "messages",
		"Messages that arrived at a full source queue (4096 waiting) over the whole run.",
		func(m *Metrics) float64 { return float64(m.Dropped) }},
	{"share_error", "share error", "",
		"Mean over the flows nicrate admitted of |throughput / admitted rate - 1| in the window; empty under other schemes.",
		func(m *Metrics) float64 { return m.ShareError }},
	{"refused_flows", "refused flows", "flows",
		"Flows nicrate's admission control refused (they never start); 0 under other schemes.",
		func(m *Metrics) float64 { return float64(m.RefusedFlows) }},
	{"paths_open_mean", "DRB paths open", "paths",
		"DRB: time-average number of open paths per source-destination pair in use over the window (1: minimal paths only); empty without DRB.",
		func(m *Metrics) float64 { return m.PathsOpenMean }},
}

// latencyMetric is the metric of a role's latency statistic stat.
func latencyMetric(r workload.Role, stat string, v func(*LatencySummary) float64) Metric {
	name := map[workload.Role]string{workload.Victim: "victim", workload.Contributor: "contributors", workload.Background: "background"}[r]
	what := map[string]string{"mean": "mean", "p50": "median", "p99": "99th percentile"}[stat]
	i := roleIndex(r)
	return Metric{name + "_latency_" + stat + "_us", name + " " + what + " latency", "µs",
		"The " + what + " latency of the " + string(r) + " flows' messages completed in the window.",
		func(m *Metrics) float64 { return v(&m.Latency[i]) }}
}

// MetricList returns every metric of a run in export order, the order of
// Metrics.Values. The caller owns the slice.
func MetricList() []Metric { return slices.Clone(metricTable) }

// LookupMetric returns the metric called name, or nil.
func LookupMetric(name string) *Metric {
	for i := range metricTable {
		if metricTable[i].Name == name {
			m := metricTable[i]
			return &m
		}
	}
	return nil
}

// MetricNames lists the metric names in export order, those of
// MetricList. Do not modify it.
var MetricNames = func() []string {
	names := make([]string, len(metricTable))
	for i, m := range metricTable {
		names[i] = m.Name
	}
	return names
}()

// Values returns the metrics in MetricList order.
func (m Metrics) Values() []float64 {
	vals := make([]float64, len(metricTable))
	for i, d := range metricTable {
		vals[i] = d.value(&m)
	}
	return vals
}

// MeasurementWindow returns the measurement window of a run that lasts end
// in phases of length phase: the last phase, [end−phase, end], when every
// flow of a built-in scenario is active (SPEC §2).
func MeasurementWindow(end, phase engine.Time) (from, to engine.Time) {
	return end - phase, end
}

// Window returns the measurement window of a run of sc under c: its last
// phase (MeasurementWindow of a run of sc.Phases phases).
func Window(sc *workload.Scenario, c *params.Config) (from, to engine.Time) {
	return MeasurementWindow(engine.Time(sc.Phases)*c.Phase, c.Phase)
}

// Window returns the run's measurement window: its last phase
// (MeasurementWindow).
func (r *Result) Window() (from, to engine.Time) {
	return MeasurementWindow(r.End, r.Config.Phase)
}

// WindowSamples returns the indexes first..last of the samples that lie
// wholly inside [from, to], of n samples where sample i covers
// (i·sample, (i+1)·sample]; first ≥ 0, and last < first when none does.
// sample must be positive.
func WindowSamples(from, to, sample engine.Time, n int) (first, last int) {
	first = int((max(from, 0) + sample - 1) / sample)
	last = min(int(to/sample)-1, n-1)
	return first, last
}

// windowSamples returns the indices of the run's samples that lie in
// [from, to].
func (r *Result) windowSamples(from, to engine.Time) (first, last int) {
	n := math.MaxInt
	if len(r.Flows) > 0 {
		n = len(r.Flows[0].Gbps)
	}
	return WindowSamples(from, to, r.Sample, n)
}

// ComputeMetrics computes the metrics over samples wholly inside [from, to].
func (r *Result) ComputeMetrics(from, to engine.Time) Metrics {
	m := Metrics{FECN: r.Counters.FECN, CNPs: r.Counters.CNPs, BECNs: r.Counters.BECNs, MeanCCTI: r.MeanCCTI,
		Latency: r.Stats.Latency, All: r.Stats.All, MaxLinkUtil: r.Stats.MaxLinkUtil, MaxBufferFill: r.Stats.MaxBufferFill,
		Dropped: r.Stats.Dropped, PathsOpenMean: r.PathsOpenMean, OfferedLoad: r.Stats.OfferedGbps / r.Stats.SenderGbps}
	first, last := r.windowSamples(from, to)
	nan := math.NaN()
	m.ShareError = nan
	for _, f := range r.Flows {
		if f.Refused {
			m.RefusedFlows++
		}
	}
	if last < first {
		m.VictimGbps, m.ContributorsGbps, m.FairnessJain, m.Var, m.SDGbps = nan, nan, nan, nan, nan
		m.BackgroundGbps, m.VictimJain, m.BackgroundJain, m.AcceptedLoad = nan, nan, nan, nan
		return m
	}
	var victims, contrib, background []float64 // per-flow means
	var total float64
	var contribSeries [][]float64
	var sdSum float64
	var shareErrs []float64
	for _, f := range r.Flows {
		s := f.Gbps[first : last+1]
		mean, sd := MeanSD(s)
		if f.AdmittedGbps > 0 {
			shareErrs = append(shareErrs, math.Abs(mean/f.AdmittedGbps-1))
		}
		sdSum += sd
		total += mean
		switch f.Role {
		case workload.Background:
			background = append(background, mean)
		case workload.Victim:
			victims = append(victims, mean)
		case workload.Contributor:
			contrib = append(contrib, mean)
			contribSeries = append(contribSeries, s)
		}
	}
	m.SDGbps = sdSum / float64(len(r.Flows))
	m.VictimGbps = Mean(victims)
	m.ContributorsGbps = Mean(contrib)
	m.FairnessJain = Jain(contrib)
	m.Var = TreatmentVariation(contribSeries)
	m.BackgroundGbps = Mean(background)
	m.VictimJain = Jain(victims)
	m.BackgroundJain = Jain(background)
	m.AcceptedLoad = total / r.Stats.SenderGbps
	m.ShareError = Mean(shareErrs)
	return m
}

// Metrics computes the metrics over the default window.
func (r *Result) Metrics() Metrics { return r.ComputeMetrics(r.Window()) }

// Jain returns Jain's fairness index (Σx)²/(n·Σx²) of xs: 1 when all are
// equal, 1/n when one takes everything. It is NaN for no values and 1 when
// all are zero.
func Jain(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	if sq == 0 {
		return 1
	}
	return sum * sum / (float64(len(xs)) * sq)
}

// TreatmentVariation returns Var: at each sample, the highest minus the
// lowest value across series; then the (population) variance of those
// spreads. It is NaN with fewer than two series.
func TreatmentVariation(series [][]float64) float64 {
	if len(series) < 2 {
		return math.NaN()
	}
	spread := make([]float64, len(series[0]))
	for i := range spread {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range series {
			lo, hi = math.Min(lo, s[i]), math.Max(hi, s[i])
		}
		spread[i] = hi - lo
	}
	_, sd := MeanSD(spread)
	return sd * sd
}

// Mean returns the arithmetic mean of xs, NaN if xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// MeanSD returns the mean and population standard deviation of xs.
func MeanSD(xs []float64) (m, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	m = Mean(xs)
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)))
}
