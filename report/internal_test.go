package report

import (
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
)

func TestScaleOf(t *testing.T) {
	tests := []struct {
		name string
		nums []float64
		want Scale
	}{
		{"two values", []float64{1, 2}, ScaleLinear},
		{"even", []float64{50, 100, 150, 200}, ScaleLinear},
		{"even fractions", []float64{0.1, 0.2, 0.3}, ScaleLinear},
		{"powers of two", []float64{256, 512, 1024, 2048}, ScaleLog},
		{"log range rounded to µs", []float64{50, 79, 126, 200, 317, 502, 796, 1262, 2000}, ScaleLog},
		{"zero then powers", []float64{0, 1, 2, 4, 8, 16}, ScaleCategory},
		{"uneven", []float64{50, 100, 150, 300, 600}, ScaleCategory},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scaleOf(tt.nums); got != tt.want {
				t.Errorf("scaleOf(%v) = %s, want %s", tt.nums, got, tt.want)
			}
		})
	}
}

func TestNumberText(t *testing.T) {
	tests := []struct {
		x    float64
		want string
	}{
		{0, "0"}, {12.98, "12.98"}, {12.987, "12.99"}, {0.07213, "0.07213"}, {150, "150"},
		{1234567, "1.235e+06"}, {0.0001234, "0.0001234"}, {-3.25, "-3.25"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.x), func(t *testing.T) {
			if got := numberText(tt.x); got != tt.want {
				t.Errorf("numberText(%v) = %q, want %q", tt.x, got, tt.want)
			}
		})
	}
}

func TestNiceRange(t *testing.T) {
	tests := []struct{ lo, hi, wlo, whi float64 }{
		{2.167, 13.0, 2, 14},
		{9.589, 13.0, 9, 13},
		{0.005637, 1.155, 0, 1.2},
		{0.01, 0.02, 0.01, 0.02},
		{0.9874432, 0.9874432, 0.88, 1.1}, // one value everywhere
		{0, 0, 0, 1},
		// A span beyond the largest float: the range as it is.
		{-math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64},
		{math.Inf(-1), 3, 0, 1},
		// One value so large that a tenth more is beyond the floats: as it is.
		{-math.MaxFloat64, -math.MaxFloat64, -math.MaxFloat64, -math.MaxFloat64},
		{math.MaxFloat64, math.MaxFloat64, math.MaxFloat64, math.MaxFloat64},
		// A span of exactly three steps keeps the step.
		{0.5, 3.5, 0, 4},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.lo, "..", tt.hi), func(t *testing.T) {
			if lo, hi := niceRange(tt.lo, tt.hi); lo != tt.wlo || hi != tt.whi {
				t.Errorf("niceRange(%v, %v) = %v, %v, want %v, %v", tt.lo, tt.hi, lo, hi, tt.wlo, tt.whi)
			}
		})
	}
}

// TestFlowStatsWindow checks that a picked point's flow means are taken
// over the model's measurement window, so that they match what the model
// computes from the same series, also when the phase is not a whole
// number of samples.
func TestFlowStatsWindow(t *testing.T) {
	ms := engine.Millisecond
	tests := []struct {
		name          string
		scenario      string
		phase, sample engine.Time
	}{
		{"whole samples", "testbed-s1", 4 * ms, ms},
		{"phase not a whole number of samples", "testbed-s1", 3 * ms, 2 * ms},
		{"three phases", "testbed-s2", 5 * ms, 2 * ms},
		{"unknown scenario", "", 4 * ms, ms},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := params.DefaultConfig()
			cfg.Phase, cfg.Sample = tt.phase, tt.sample
			end := 20 * ms
			if sc := workload.LookupScenario(tt.scenario); sc != nil {
				n, err := model.NewNetwork(sc, cfg, 1)
				if err != nil {
					t.Fatal(err)
				}
				end = n.End()
			}
			n := int(end / tt.sample)
			r := &model.Result{End: end, Sample: tt.sample, Config: cfg}
			var series []store.Series
			for f := range 3 {
				gbps := make([]float64, n)
				for i := range gbps {
					gbps[i] = float64(f+1) + float64(i*i%7)
				}
				r.Flows = append(r.Flows, model.FlowResult{Gbps: gbps})
				series = append(series, store.Series{Flow: fmt.Sprint("F", f+1), Role: "contributor",
					SampleSeconds: tt.sample.Seconds(), Gbps: gbps})
			}
			c := &Cell{scenario: tt.scenario, Params: []store.Param{
				{Name: "phase", Value: cfg.Canonical("phase")}, {Name: "sample", Value: cfg.Canonical("sample")}}}
			flows, from, to := flowStats(series, window(c))
			wf, wt := r.Window()
			first, last := model.WindowSamples(wf, wt, tt.sample, n)
			if math.Abs(from-float64(first)*tt.sample.Seconds()) > 1e-12 || math.Abs(to-float64(last+1)*tt.sample.Seconds()) > 1e-12 {
				t.Errorf("window %v..%v s, want samples %d..%d", from, to, first, last)
			}
			for i, f := range flows {
				if want := r.MeanGbps(i, wf, wt); math.Abs(f.MeanGbps-want) > 1e-12 {
					t.Errorf("%s: mean %v, the model's %v", f.Name, f.MeanGbps, want)
				}
			}
		})
	}
}

// TestServerBoundsConcurrentRequests sends many requests at once to a
// server whose handler blocks until released, and checks that at most
// MaxConcurrentRequests are inside it at any time (each of those may hold a
// database connection and its file handles) and that the rest are answered
// once slots free up.
func TestServerBoundsConcurrentRequests(t *testing.T) {
	s := NewServer(nil, ServerOptions{})
	var inside, peak atomic.Int32
	release := make(chan struct{})
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /api/slow", func(w http.ResponseWriter, r *http.Request) {
		n := inside.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		<-release
		inside.Add(-1)
	})
	const requests = 200
	var wg sync.WaitGroup
	codes := make(chan int, requests)
	for range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/slow", nil))
			codes <- rec.Code
		}()
	}
	for deadline := time.Now().Add(10 * time.Second); inside.Load() < MaxConcurrentRequests; { // the first requests are in
		if time.Now().After(deadline) {
			close(release)
			t.Fatalf("only %d requests got in within 10 s, want %d", inside.Load(), MaxConcurrentRequests)
		}
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // give the others every chance to crowd in
	if got := peak.Load(); got != MaxConcurrentRequests {
		t.Errorf("%d requests inside at once, want %d", got, MaxConcurrentRequests)
	}
	close(release)
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != http.StatusOK {
			t.Fatalf("a request got %d", c)
		}
	}
	if got := peak.Load(); got > MaxConcurrentRequests {
		t.Errorf("peak %d requests inside, want at most %d", got, MaxConcurrentRequests)
	}
}
