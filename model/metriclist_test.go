package model_test

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// metricOfField says which metric of MetricList holds each field of
// model.Metrics, written out independently of the list so that a field
// without a metric, or a metric reading the wrong field, fails the test.
var metricOfField = map[string]string{
	"VictimGbps":       "victim_gbps",
	"ContributorsGbps": "contributors_gbps",
	"FairnessJain":     "fairness_jain",
	"Var":              "var",
	"SDGbps":           "sd_gbps",
	"FECN":             "fecn",
	"BECNs":            "becn",
	"MeanCCTI":         "mean_ccti",
	"CNPs":             "", // not stored: becn counts the CNPs that arrived
	"BackgroundGbps":   "background_gbps",
	"VictimJain":       "victim_jain",
	"BackgroundJain":   "background_jain",
	"All.Mean":         "latency_mean_us",
	"All.P50":          "latency_p50_us",
	"All.P99":          "latency_p99_us",
	"All.Count":        "", // messages measured: the latencies' weight, not a metric
	"Latency[0].Mean":  "victim_latency_mean_us",
	"Latency[0].P50":   "victim_latency_p50_us",
	"Latency[0].P99":   "victim_latency_p99_us",
	"Latency[0].Count": "",
	"Latency[1].Mean":  "contributors_latency_mean_us",
	"Latency[1].P50":   "contributors_latency_p50_us",
	"Latency[1].P99":   "contributors_latency_p99_us",
	"Latency[1].Count": "",
	"Latency[2].Mean":  "background_latency_mean_us",
	"Latency[2].P50":   "background_latency_p50_us",
	"Latency[2].P99":   "background_latency_p99_us",
	"Latency[2].Count": "",
	"OfferedLoad":      "offered_load",
	"AcceptedLoad":     "accepted_load",
	"MaxLinkUtil":      "max_link_util",
	"MaxBufferFill":    "max_buffer_fill",
	"Dropped":          "dropped_messages",
	"ShareError":       "share_error",
	"RefusedFlows":     "refused_flows",
	"PathsOpenMean":    "paths_open_mean",
}

// leaves lists the numeric leaves of v (a struct, array or number) by
// their Go path, e.g. "Latency[0].Mean".
func leaves(v reflect.Value, path string) map[string]reflect.Value {
	out := map[string]reflect.Value{}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			p := v.Type().Field(i).Name
			if path != "" {
				p = path + "." + p
			}
			maps.Copy(out, leaves(v.Field(i), p))
		}
	case reflect.Array:
		for i := range v.Len() {
			maps.Copy(out, leaves(v.Index(i), fmt.Sprintf("%s[%d]", path, i)))
		}
	default:
		out[path] = v
	}
	return out
}

// TestMetricList checks that every metric the model computes is in
// MetricList under its name, that Values follows the list, and that each
// metric has what the store, export and report need.
func TestMetricList(t *testing.T) {
	list := model.MetricList()
	var names []string
	for _, m := range list {
		names = append(names, m.Name)
	}
	if !slices.Equal(model.MetricNames, names) {
		t.Errorf("MetricNames = %v, want the names of MetricList %v", model.MetricNames, names)
	}
	// Give every field a distinct value and find it among Values.
	var m model.Metrics
	fields := leaves(reflect.ValueOf(&m).Elem(), "")
	paths := slices.Sorted(maps.Keys(fields))
	for i, path := range paths {
		switch f := fields[path]; f.Kind() {
		case reflect.Float64:
			f.SetFloat(float64(i) + 0.5)
		case reflect.Int64:
			f.SetInt(int64(i) + 1000)
		default:
			t.Fatalf("field %s has kind %s; metrics are numbers", path, f.Kind())
		}
	}
	values := m.Values()
	if len(values) != len(list) {
		t.Fatalf("Values() has %d values, MetricList %d metrics", len(values), len(list))
	}
	for _, field := range paths {
		t.Run(field, func(t *testing.T) {
			want, ok := metricOfField[field]
			if !ok {
				t.Fatalf("Metrics.%s is not in this test's table: add it to MetricList (or say here why it is not a metric)", field)
			}
			x := fields[field].Convert(reflect.TypeFor[float64]()).Float()
			at := slices.Index(values, x)
			switch {
			case want == "" && at >= 0:
				t.Errorf("Values() holds Metrics.%s as %s, but it is not a listed metric", field, names[at])
			case want == "":
			case at < 0:
				t.Errorf("Values() does not hold Metrics.%s; want it as %s", field, want)
			case names[at] != want:
				t.Errorf("Values() holds Metrics.%s as %s, want %s", field, names[at], want)
			}
		})
	}
	name := regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	for _, d := range list {
		t.Run(d.Name, func(t *testing.T) {
			if !name.MatchString(d.Name) || d.Label == "" || d.Doc == "" {
				t.Errorf("metric %+v needs a lowercase name, a label and a doc", d)
			}
			if got := model.LookupMetric(d.Name); got == nil || got.Label != d.Label || got.Unit != d.Unit {
				t.Errorf("LookupMetric(%q) = %+v", d.Name, got)
			}
			if n := len(slices.DeleteFunc(slices.Clone(names), func(s string) bool { return s != d.Name })); n != 1 {
				t.Errorf("%s is listed twice", d.Name)
			}
		})
	}
	if model.LookupMetric("cnps") != nil {
		t.Error("LookupMetric found a metric that is not listed")
	}
}

func TestWindowSamples(t *testing.T) {
	ms := engine.Millisecond
	tests := []struct {
		name              string
		from, to, sample  engine.Time
		n                 int
		wantFirst, wantTo int
	}{
		{"last phase", 4 * ms, 5 * ms, ms / 4, 20, 16, 19},
		{"phase not a multiple of the sample", 4000 * ms, 5000 * ms, 3 * ms, 1666, 1334, 1665},
		{"to beyond the samples", 4 * ms, 6 * ms, ms, 5, 4, 4},
		{"partial samples left out", 4*ms + 1, 6*ms - 1, ms, 10, 5, 4},
		{"from before the start", -2 * ms, 2 * ms, ms, 10, 0, 1},
		{"empty", 3 * ms, 3 * ms, ms, 10, 3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first, last := model.WindowSamples(tt.from, tt.to, tt.sample, tt.n)
			if first != tt.wantFirst || last != tt.wantTo {
				t.Errorf("WindowSamples = %d..%d, want %d..%d", first, last, tt.wantFirst, tt.wantTo)
			}
		})
	}
}

// TestWindow checks that a scenario's window is the last phase of the run
// the network simulates, which Result.Window also gives.
func TestWindow(t *testing.T) {
	for _, sc := range workload.Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase, cfg.Sample = 3*engine.Millisecond, engine.Millisecond
			n, err := model.NewNetwork(sc, cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			from, to := model.Window(sc, &cfg)
			if to != n.End() || from != n.End()-cfg.Phase {
				t.Errorf("Window = [%v, %v], want the last phase of a run ending at %v", from, to, n.End())
			}
			r := &model.Result{End: n.End(), Config: cfg, Sample: cfg.Sample}
			if f, e := r.Window(); f != from || e != to {
				t.Errorf("Result.Window = [%v, %v], model.Window [%v, %v]", f, e, from, to)
			}
		})
	}
}

func TestMeanGbps(t *testing.T) {
	ms := engine.Millisecond
	r := &model.Result{Sample: ms, Flows: []model.FlowResult{{Gbps: []float64{1, 2, 3, 4, 5}}}}
	tests := []struct {
		name     string
		from, to engine.Time
		want     float64
	}{
		{"all", 0, 5 * ms, 3},
		{"last two", 3 * ms, 5 * ms, 4.5},
		{"partial sample left out", 3*ms + 1, 5 * ms, 5},
		{"none", 2*ms + 1, 3 * ms, 0},
		{"beyond the end", 4 * ms, 9 * ms, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.MeanGbps(0, tt.from, tt.to); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("MeanGbps = %v, want %v", got, tt.want)
			}
		})
	}
}
