package adaptive_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// smallCalibration writes calibGrid with hostCount values of host_io_gbps
// (8 to 16), two of switch_link_gbps (16 and 40) and the given rounds beside
// a measurement of testbed-s2 with the given host_io_gbps and
// switch_link_gbps, and loads it.
func smallCalibration(t *testing.T, rounds, hostCount, hostIO, switchLink string) *grids.Grid {
	t.Helper()
	dir := t.TempDir()
	measure(t, filepath.Join(dir, "fabric.csv"), "testbed-s2", map[string]string{"host_io_gbps": hostIO, "switch_link_gbps": switchLink})
	host := "host_io_gbps     = { from = 8, to = 16, count = "
	src := strings.NewReplacer(host+"5", host+hostCount, "count = 5", "count = 2", "rounds   = 8", "rounds   = "+rounds).Replace(calibGrid)
	if !strings.Contains(src, host+hostCount) || !strings.Contains(src, "count = 2") || !strings.Contains(src, "rounds   = "+rounds) {
		t.Fatal("calibGrid changed: update smallCalibration")
	}
	path := filepath.Join(dir, "calib.toml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := grids.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A calibration of `rounds = N` runs the grid (round 0) and N search
// rounds, no more: docs/sweeps.md, "rounds search rounds after the grid's
// own points".
func TestCalibrationRunsExactlyItsRounds(t *testing.T) {
	for _, rounds := range []string{"0", "1"} {
		g := smallCalibration(t, rounds, "2", "11.5", "27")
		db := openDB(t, "calib.db")
		sum, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, nil), db, sweep.Options{Workers: 1})
		if err != nil || !sum.State.Finished {
			t.Fatal(sum, err)
		}
		want := map[string]int{"0": 0, "1": 1}[rounds]
		if sum.State.Round != want || sum.Rounds != want+1 {
			t.Errorf("rounds = %s: finished in round %d after running %d rounds; want round %d after %d (the grid and %s search rounds)",
				rounds, sum.State.Round, sum.Rounds, want, want+1, rounds)
		}
	}
}

// Each search round lays as many values per axis as the grid has (three
// of host_io_gbps, two of switch_link_gbps here) over a box Shrink^r times
// the axis's range (Shrink 0.5), around the best point so far and kept
// inside the range: docs/sweeps.md. The measurement is the model's own
// series at host_io_gbps 16 (the top of its range, 8 to 16) and
// switch_link_gbps 16 (the bottom of its, 16 to 40), so that grid point fits
// exactly and stays the best: round 1's box is 4 wide on host_io_gbps (12,
// 14, 16) and 12 on switch_link_gbps (16, 28); round 2's 2 (14, 15, 16) and
// 6 (16, 22).
func TestCalibrationRoundsShrinkAroundTheBest(t *testing.T) {
	g := smallCalibration(t, "2", "3", "16", "16")
	db := openDB(t, "calib.db")
	sum, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, nil), db, sweep.Options{Workers: 1})
	if err != nil || !sum.State.Finished || sum.State.Round != 2 {
		t.Fatal(sum, err)
	}
	var got []string
	for _, p := range sum.State.All {
		if p.Seed != 1 {
			continue
		}
		h, _ := p.Value("host_io_gbps")
		s, _ := p.Value("switch_link_gbps")
		x, _ := grids.AxisNumber("host_io_gbps", h)
		y, _ := grids.AxisNumber("switch_link_gbps", s)
		got = append(got, fmt.Sprintf("%g/%g", x, y))
	}
	// The grid's 6 points, then each round's points the sweep did not
	// have yet (16/16 is in every round's box), in the stepper's order.
	want := []string{"8/16", "8/40", "12/16", "12/40", "16/16", "16/40",
		"12/28", "14/16", "14/28", "16/28",
		"14/22", "15/16", "15/22", "16/22"}
	if !slices.Equal(got, want) {
		t.Errorf("points planned (host_io_gbps/switch_link_gbps):\n got %v\nwant %v", got, want)
	}
	fit, err := adaptive.FitOf(context.Background(), adaptive.NewRounds(g, nil), db)
	if err != nil {
		t.Fatal(err)
	}
	if h, _ := fit.Best.Value("host_io_gbps"); h != "16" || fit.RMSE > 1e-6 {
		t.Errorf("best fit %v, error %g; want the measured point, error 0 (to the measurement file's digits)", fit.Best.Params, fit.RMSE)
	}
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
