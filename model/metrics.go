package model

import (
	"math"

	"github.com/ccsweep/ccsweep/engine"
)

// Metrics summarize a run over its measurement window (SPEC §2). Means are
// of payload throughput in Gbit/s. A metric that does not apply (no victim
// flow, fewer than two contributors) is NaN.
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
	// whole run.
	FECN, CNPs, BECNs int64
	// MeanCCTI is the time-average CCTI over the window, across CCTI slots.
	MeanCCTI float64
}

// MetricNames lists the metric columns in export order.
var MetricNames = []string{"victim_gbps", "contributors_gbps", "fairness_jain", "var", "sd_gbps", "fecn", "becn", "mean_ccti"}

// Values returns the metrics in MetricNames order.
func (m Metrics) Values() []float64 {
	return []float64{m.VictimGbps, m.ContributorsGbps, m.FairnessJain, m.Var, m.SDGbps,
		float64(m.FECN), float64(m.BECNs), m.MeanCCTI}
}

// Window returns the default measurement window: the last phase, when every
// flow of a built-in scenario is active.
func (r *Result) Window() (from, to engine.Time) {
	return r.End - r.Config.Phase, r.End
}

// windowSamples returns the indices of the samples that lie in [from, to].
func (r *Result) windowSamples(from, to engine.Time) (first, last int) {
	first = int((from + r.Sample - 1) / r.Sample)
	last = int(to/r.Sample) - 1
	if len(r.Flows) > 0 {
		last = min(last, len(r.Flows[0].Gbps)-1)
	}
	return first, last
}

// ComputeMetrics computes the metrics over samples wholly inside [from, to].
func (r *Result) ComputeMetrics(from, to engine.Time) Metrics {
	m := Metrics{FECN: r.Counters.FECN, CNPs: r.Counters.CNPs, BECNs: r.Counters.BECNs, MeanCCTI: r.MeanCCTI}
	first, last := r.windowSamples(from, to)
	nan := math.NaN()
	if last < first {
		m.VictimGbps, m.ContributorsGbps, m.FairnessJain, m.Var, m.SDGbps = nan, nan, nan, nan, nan
		return m
	}
	var victims, contrib []float64 // per-flow means
	var contribSeries [][]float64
	var sdSum float64
	for _, f := range r.Flows {
		s := f.Gbps[first : last+1]
		mean, sd := meanSD(s)
		sdSum += sd
		switch f.Role {
		case Victim:
			victims = append(victims, mean)
		case Contributor:
			contrib = append(contrib, mean)
			contribSeries = append(contribSeries, s)
		}
	}
	m.SDGbps = sdSum / float64(len(r.Flows))
	m.VictimGbps = mean(victims)
	m.ContributorsGbps = mean(contrib)
	m.FairnessJain = Jain(contrib)
	m.Var = TreatmentVariation(contribSeries)
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
	_, sd := meanSD(spread)
	return sd * sd
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// meanSD returns the mean and population standard deviation of xs.
func meanSD(xs []float64) (m, sd float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	m = mean(xs)
	var v float64
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)))
}
