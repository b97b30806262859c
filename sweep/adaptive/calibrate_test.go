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
