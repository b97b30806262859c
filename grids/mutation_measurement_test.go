package grids_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
)

// The sample interval is the smallest step between a flow's times, each
// time the end of its sample: a measurement that starts late still samples
// at its step, and sample i covers (i·Sample, (i+1)·Sample].
func TestMeasurementStartingLate(t *testing.T) {
	m, err := grids.ParseMeasurement("m.csv", []byte("time_s,flow,throughput_gbps\n0.004,F1,1\n0.006,F1,2\n0.010,F1,3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Sample != 2*engine.Millisecond {
		t.Errorf("Sample = %s, want 2ms (the step between 4 and 6 ms)", m.Sample)
	}
	want := map[int]float64{1: 1, 2: 2, 4: 3}
	if len(m.Gbps["F1"]) != len(want) {
		t.Errorf("F1's samples = %v, want %v", m.Gbps["F1"], want)
	}
	for k, v := range want {
		if got, ok := m.Gbps["F1"][k]; !ok || got != v {
			t.Errorf("F1's sample %d = %v (%v), want %v", k, got, ok, v)
		}
	}
}

// Times on the sample grid are accepted however they are spelled; times
// off it by more than a millionth of the interval, or closer than a
// nanosecond apart, are not.
func TestMeasurementTimesOnTheSampleGrid(t *testing.T) {
	m, err := grids.ParseMeasurement("m.csv", []byte("time_s,flow,throughput_gbps\n0.001,F1,1\n0.002,F1,2\n0.003,F1,3\n0.0040000000001,F1,4\n"))
	if err != nil {
		t.Fatalf("times on a 1 ms grid: %v", err)
	}
	if m.Sample != engine.Millisecond || len(m.Gbps["F1"]) != 4 || m.Gbps["F1"][3] != 4 {
		t.Errorf("sample %s, F1 %v; want 1ms and four samples", m.Sample, m.Gbps["F1"])
	}
	_, err = grids.ParseMeasurement("m.csv", []byte("time_s,flow,throughput_gbps\n0.001,F1,1\n0.0020001,F1,2\n"))
	if err == nil || !strings.Contains(err.Error(), "m.csv:3: time_s: 0.0020001 is not a multiple of the sample interval") {
		t.Errorf("a time off the grid: %v", err)
	}
	_, err = grids.ParseMeasurement("m.csv", []byte("time_s,flow,throughput_gbps\n1e-10,F1,1\n2e-10,F1,2\n"))
	if err == nil || !strings.Contains(err.Error(), "samples closer than a nanosecond apart") {
		t.Errorf("samples 0.1 ns apart: %v", err)
	}
}

// Reading stops at MaxProblems problems, whether the lines are not CSV of
// three fields or bad values: an Error lists them and counts none more.
func TestMeasurementStopsAtMaxProblems(t *testing.T) {
	for name, bad := range map[string]string{"fields": "1,2\n", "time": "x,F1,1\n"} {
		text := "time_s,flow,throughput_gbps\n" + strings.Repeat(bad, grids.MaxProblems+5)
		_, err := grids.ParseMeasurement("m.csv", []byte(text))
		var e *grids.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v, want an *Error", name, err)
		}
		if len(e.Problems) != grids.MaxProblems || e.More != 0 {
			t.Errorf("%s: %d problems and %d more, want %d and none more (reading stops there)", name, len(e.Problems), e.More, grids.MaxProblems)
		}
		if last := e.Problems[len(e.Problems)-1]; last.Line != grids.MaxProblems+1 {
			t.Errorf("%s: the last problem is on line %d, want %d", name, last.Line, grids.MaxProblems+1)
		}
	}
}

// A calibration's runs must last as long as the measurement: runs that end
// exactly with its last sample are fine, one phase too short is not, and
// the error says when each ends.
func TestCalibrateRunsAsLongAsTheMeasurement(t *testing.T) {
	dir := t.TempDir()
	// testbed-s2 has 3 phases; six 1 ms samples end at 6 ms.
	var b strings.Builder
	b.WriteString("time_s,flow,throughput_gbps\n")
	for i := 1; i <= 6; i++ {
		fmt.Fprintf(&b, "0.00%d,F1,%d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "m.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(phase string) error {
		grid := "name = \"c\"\nscenario = \"testbed-s2\"\nphase = \"" + phase + "\"\nsample = \"1ms\"\n[sweep]\nhost_io_gbps = [10, 12]\n[calibrate]\nmeasured = \"m.csv\"\n"
		p := filepath.Join(dir, "c.toml")
		if err := os.WriteFile(p, []byte(grid), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := grids.Load(p)
		return err
	}
	if err := load("2ms"); err != nil {
		t.Errorf("runs of 3 × 2 ms against 6 ms of measurements: %v", err)
	}
	err := load("1ms")
	want := filepath.Join(dir, "c.toml") + ":3: phase: 1ms: runs of 3 phases end at 3ms, before the measurements in " + filepath.Join(dir, "m.csv") + " do (6ms)"
	if err == nil || err.Error() != want {
		t.Errorf("runs of 3 × 1 ms: %v\nwant %s", err, want)
	}
}
