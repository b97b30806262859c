package adaptive_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// measure writes what `ccsweep sim --format csv` would print for sc under
// the hidden parameters.
func measure(t *testing.T, path, scenario string, set map[string]string) {
	t.Helper()
	cfg := params.DefaultConfig()
	cfg.Phase, cfg.Sample = 5*engine.Millisecond, engine.Millisecond
	for k, v := range set {
		if err := cfg.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	res, err := model.Run(workload.LookupScenario(scenario), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(grids.MeasurementHeader + "\n")
	for i := range res.Flows[0].Gbps {
		for _, f := range res.Flows {
			fmt.Fprintf(&b, "%g,%s,%g\n", (engine.Time(i+1) * res.Sample).Seconds(), f.Name, f.Gbps[i])
		}
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// calibGrid fits host_io_gbps and switch_link_gbps of testbed-s2 with CC
// off, where both set the phases' throughput: one flow runs at the host's
// I/O rate, three share the S1-S2 link.
const calibGrid = `
name     = "calib"
scenario = "testbed-s2"
cc       = "off"
phase    = "5ms"
sample   = "1ms"

[sweep]
host_io_gbps     = { from = 8, to = 16, count = 5 }
switch_link_gbps = { from = 16, to = 40, count = 5 }

[calibrate]
measured = "fabric.csv"
rounds   = 8
`

func TestCalibrationRecoversHiddenParameters(t *testing.T) {
	dir := t.TempDir()
	hidden := map[string]float64{"host_io_gbps": 11.5, "switch_link_gbps": 27}
	measure(t, filepath.Join(dir, "fabric.csv"), "testbed-s2", map[string]string{"host_io_gbps": "11.5", "switch_link_gbps": "27"})
	gridPath := filepath.Join(dir, "calib.toml")
	if err := os.WriteFile(gridPath, []byte(calibGrid), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := grids.Load(gridPath)
	if err != nil {
		t.Fatal(err)
	}
	rounds := adaptive.NewRounds(g, nil)
	db := openDB(t, "calib.db")

	// Interrupted after 60 simulations, then resumed.
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int64
	sim := func(c context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
		if calls.Add(1) > 60 {
			cancel()
			return nil, c.Err()
		}
		return model.RunContext(c, sc, cfg, seed)
	}
	if _, err := adaptive.RunRounds(ctx, rounds, db, sweep.Options{Workers: 2, Simulate: sim}); !errors.Is(err, sweep.ErrInterrupted) {
		t.Fatalf("interrupted calibration: %v", err)
	}
	calls.Store(-1 << 40)
	sum, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, nil), db, sweep.Options{Workers: 2, Simulate: sim})
	if err != nil || !sum.State.Finished {
		t.Fatal(sum, err)
	}
	// The first run stored its first 60 results but those in flight when
	// it was interrupted.
	if kept := sum.Points - sum.Ran; kept < 55 || kept > 60 {
		t.Errorf("resumed calibration ran %d of %d points; want the 55-60 the first run stored kept", sum.Ran, sum.Points)
	}
	fit, err := adaptive.FitOf(context.Background(), adaptive.NewRounds(g, nil), db)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range hidden {
		v, _ := fit.Best.Value(name)
		got, _ := grids.AxisNumber(name, v)
		if math.Abs(got-want) > 0.05*want {
			t.Errorf("%s fitted to %g, hidden %g: more than 5 %% off", name, got, want)
		}
		t.Logf("%s: fitted %g, hidden %g (%.2f %%)", name, got, want, 100*math.Abs(got-want)/want)
	}
	if fit.RMSE > 0.05 {
		t.Errorf("error of the best fit %g Gbit/s; the model can match its own series", fit.RMSE)
	}
	if countActive(fit.Rows) != 3+2+1 {
		t.Errorf("%d phase-flow rows, want 6 (F1 in 3 phases, F2 in 2, F3 in 1) of non-zero throughput", countActive(fit.Rows))
	}
}

func countActive(rows []adaptive.FitRow) int {
	n := 0
	for _, r := range rows {
		if r.Measured > 0 || r.Model > 0 {
			n++
		}
	}
	return n
}

// Among points of equal error the best fit is the earliest planned
// (CalibrateStepper.best): with CC off, marking_rate changes nothing, so
// its two values at the measured host_io_gbps fit equally well.
func TestCalibrationTieGoesToTheEarliestPoint(t *testing.T) {
	dir := t.TempDir()
	measure(t, filepath.Join(dir, "fabric.csv"), "testbed-s2", map[string]string{"host_io_gbps": "16"})
	const src = `
name     = "tie"
scenario = "testbed-s2"
cc       = "off"
phase    = "5ms"
sample   = "1ms"

[sweep]
host_io_gbps = [8, 16]
marking_rate = [1, 2]

[calibrate]
measured = "fabric.csv"
rounds   = 0
`
	path := filepath.Join(dir, "tie.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := grids.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, "tie.db")
	if _, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, nil), db, sweep.Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	fit, err := adaptive.FitOf(context.Background(), adaptive.NewRounds(g, nil), db)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := fit.Best.Value("host_io_gbps")
	m, _ := fit.Best.Value("marking_rate")
	if h != "16" || m != "1" {
		t.Errorf("best fit host_io_gbps %s, marking_rate %s; want 16 and 1, the first of two equal fits", h, m)
	}
}

// A point's calibration error is the root mean square, over the phases and
// flows with throughput in the measurement or the model, of the difference
// of their mean throughputs (docs/sweeps.md): rows where both are 0 (a flow
// not running in a phase) do not count. Checked against the fit's rows on
// a fit that is off (host_io_gbps 8 or 9 against a measurement at 16).
func TestCalibrationErrorLeavesIdleRowsOut(t *testing.T) {
	dir := t.TempDir()
	measure(t, filepath.Join(dir, "fabric.csv"), "testbed-s2", map[string]string{"host_io_gbps": "16"})
	const src = `
name     = "off"
scenario = "testbed-s2"
cc       = "off"
phase    = "5ms"
sample   = "1ms"

[sweep]
host_io_gbps = [8, 9]

[calibrate]
measured = "fabric.csv"
rounds   = 0
`
	path := filepath.Join(dir, "off.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := grids.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, "off.db")
	if _, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, nil), db, sweep.Options{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	fit, err := adaptive.FitOf(context.Background(), adaptive.NewRounds(g, nil), db)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	active := 0
	for _, r := range fit.Rows {
		if r.Measured != 0 || r.Model != 0 {
			sum += (r.Model - r.Measured) * (r.Model - r.Measured)
			active++
		}
	}
	if active == 0 || active == len(fit.Rows) {
		t.Fatalf("%d of %d rows active; the test needs idle rows and active ones", active, len(fit.Rows))
	}
	want := math.Sqrt(sum / float64(active))
	if want < 0.5 || math.Abs(fit.RMSE-want) > 1e-9*want {
		t.Errorf("error %g, want %g: the root mean square over the %d active rows of %d", fit.RMSE, want, active, len(fit.Rows))
	}
}
