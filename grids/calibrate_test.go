package grids_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
)

// calibrateGrid writes a valid measurement and a calibrating grid whose
// [calibrate] table ends with extra, and loads it.
func calibrateGrid(t *testing.T, extra string) (*grids.Grid, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "m.csv"), []byte("time_s,flow,throughput_gbps\n0.002,F1,13\n0.004,F1,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	grid := "name = \"c\"\nscenario = \"testbed-s2\"\nphase = \"2ms\"\nsample = \"2ms\"\n[sweep]\nhost_io_gbps = [10, 12]\n[calibrate]\nmeasured = \"m.csv\"\n" + extra
	p := filepath.Join(dir, "c.toml")
	if err := os.WriteFile(p, []byte(grid), 0o644); err != nil {
		t.Fatal(err)
	}
	return grids.Load(p)
}

// rounds is "a whole number of rounds from 0 to 1000" (its error says so),
// both ends included; shrink "a fraction between 0 and 1", both excluded;
// by default 8 rounds at 0.5.
func TestCalibrateRoundsAndShrinkRange(t *testing.T) {
	g, err := calibrateGrid(t, "")
	if err != nil || g.Calibrate.Rounds != 8 || g.Calibrate.Shrink != 0.5 {
		t.Fatalf("defaults: %+v, %v; want 8 rounds, shrink 0.5", g, err)
	}
	for _, c := range []struct {
		extra  string
		rounds int
		shrink float64
		bad    string // "" when valid
	}{
		{"rounds = 0\n", 0, 0.5, ""},
		{"rounds = 1000\n", 1000, 0.5, ""},
		{"rounds = -1\n", 0, 0, "want a whole number of rounds from 0 to 1000, not -1"},
		{"rounds = 1001\n", 0, 0, "want a whole number of rounds from 0 to 1000, not 1001"},
		{"rounds = 2.5\n", 0, 0, "want a whole number of rounds from 0 to 1000"},
		{"shrink = 0.25\n", 8, 0.25, ""},
		{"shrink = 0.999\n", 8, 0.999, ""},
		{"shrink = 1.0\n", 0, 0, "want a fraction between 0 and 1"},
		{"shrink = 0.0\n", 0, 0, "want a fraction between 0 and 1"},
		{"shrink = 1.5\n", 0, 0, "want a fraction between 0 and 1"},
		{"shrink = -0.5\n", 0, 0, "want a fraction between 0 and 1"},
	} {
		g, err := calibrateGrid(t, c.extra)
		if c.bad != "" {
			if err == nil || !strings.Contains(err.Error(), c.bad) {
				t.Errorf("%q: error %v, want one saying %q", c.extra, err, c.bad)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.extra, err)
			continue
		}
		if g.Calibrate.Rounds != c.rounds || g.Calibrate.Shrink != c.shrink {
			t.Errorf("%q: rounds %d shrink %g, want %d and %g", c.extra, g.Calibrate.Rounds, g.Calibrate.Shrink, c.rounds, c.shrink)
		}
	}
}

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
