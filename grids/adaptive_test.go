package grids_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
)

func TestSeedTargetsAndRefineParse(t *testing.T) {
	g, err := grids.Load("testdata/good/adaptive.toml")
	if err != nil {
		t.Fatal(err)
	}
	s := g.Subs[0]
	if s.Target == nil || *s.Target != (grids.SeedTarget{Min: 2, Max: 8, CI: 0.1, Metric: "victim_gbps"}) || s.Seeds != 2 {
		t.Errorf("seed target %+v, seeds %d; want min 2 max 8 ci 0.1 on victim_gbps, and seeds 1..2 expanded", s.Target, s.Seeds)
	}
	r := g.Refine
	if r == nil || r.Points != 5 || r.PerRound != 2 || r.Metric != "victim_gbps" || len(r.Where) != 1 || len(r.Axes) != 2 ||
		r.Axes[0] != (grids.RefineAxis{Name: "ccti_timer", Kind: r.Axes[0].Kind, Log: true}) || r.Axes[1].Log {
		t.Errorf("refine %+v", r)
	}
	if !g.Adaptive() {
		t.Error("Adaptive() = false for a grid with a seed target and [refine]")
	}
	// --refine 12 on a grid without [refine] refines every numeric axis.
	plain, err := grids.Parse("plain.toml", []byte("name = \"p\"\nscenario = \"testbed-s1\"\n[sweep]\nccti_timer = [\"50us\", \"100us\"]\ncc_level = [\"qp\", \"sl\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	pr, err := plain.RefineWith(12, "")
	if err != nil || pr.Points != 12 || pr.PerRound != 3 || len(pr.Axes) != 1 || pr.Axes[0].Name != "ccti_timer" || pr.Metric != "victim_gbps" {
		t.Errorf("RefineWith(12) = %+v, %v", pr, err)
	}
	if _, err := plain.RefineWith(12, "victim"); err == nil {
		t.Error("RefineWith accepted an unknown metric")
	}
}

func TestAxisValueRoundsToTheParameterKind(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    float64
		want string
	}{
		{"ccti_timer", 1.5e8 + 123, "150us"}, // picoseconds to the nanosecond
		{"ccti_timer", 2.2360679e8, "223.607us"},
		{"marking_rate", 5.6, "6"},
		{"host_io_gbps", 11.062500000001, "11.0625"},
	} {
		got, ok := grids.AxisValue(tc.name, tc.x)
		if !ok || got != tc.want {
			t.Errorf("AxisValue(%s, %g) = %q, %v; want %q", tc.name, tc.x, got, ok, tc.want)
		}
		back, ok := grids.AxisNumber(tc.name, got)
		if again, _ := grids.AxisValue(tc.name, back); !ok || again != got {
			t.Errorf("%s %s does not read back: %g, %q", tc.name, got, back, again)
		}
	}
}

func TestMeasurementParse(t *testing.T) {
	m, err := grids.ParseMeasurement("m.csv", []byte("time_s,flow,throughput_gbps\n0.001,F1,13\n0.002,F1,12.5\n0.001,F2,0\n0.002,F2,1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Sample != engine.Millisecond || len(m.Flows) != 2 || m.Gbps["F1"][1] != 12.5 || m.Gbps["F2"][0] != 0 {
		t.Errorf("measurement %+v", m)
	}
	for _, tc := range []struct{ name, data, want string }{
		{"header", "time,flow,gbps\n", "m.csv:1: the header must be time_s,flow,throughput_gbps"},
		{"short header", "a,b\n", `m.csv:1: the header must be time_s,flow,throughput_gbps, as ccsweep sim --format csv prints it, not "a,b"`},
		{"no header", "", "m.csv:1: the header must be time_s,flow,throughput_gbps, as ccsweep sim --format csv prints it, not nothing"},
		{"empty", "time_s,flow,throughput_gbps\n", "m.csv:1: no samples after the header"},
		{"time", "time_s,flow,throughput_gbps\n0.001,F1,1\n-1,F1,2\n", `m.csv:3: time_s: "-1": want a positive time in seconds`},
		{"value", "time_s,flow,throughput_gbps\n0.001,F1,fast\n", `m.csv:2: throughput_gbps: "fast": want a throughput of 0 or more Gbit/s`},
		{"fields", "time_s,flow,throughput_gbps\n0.001,F1\n", "m.csv:2: wrong number of fields"},
		{"offgrid", "time_s,flow,throughput_gbps\n0.001,F1,1\n0.0025,F1,1\n", "m.csv:3: time_s: 0.0025 is not a multiple of the sample interval"},
		{"twice", "time_s,flow,throughput_gbps\n0.001,F1,1\n0.001,F1,2\n", "m.csv:3: time_s: flow F1 has two samples at 0.001 s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := grids.ParseMeasurement("m.csv", []byte(tc.data))
			var ge *grids.Error
			if !errors.As(err, &ge) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
		})
	}
}

func TestCalibrateChecksTheMeasurementAgainstTheGrid(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("m.csv", "time_s,flow,throughput_gbps\n0.002,F1,13\n0.004,F9,1\n")
	grid := "name = \"c\"\nscenario = \"testbed-s2\"\nphase = \"1ms\"\nsample = \"1ms\"\n[sweep]\nhost_io_gbps = [10, 12]\n[calibrate]\nmeasured = \"m.csv\"\n"
	_, err := grids.Load(write("c.toml", grid))
	if err == nil || !strings.Contains(err.Error(), `c.toml:4: sample: 1ms: the measurements in `+filepath.Join(dir, "m.csv")+` are sampled every 2ms; set sample = "2ms"`) {
		t.Errorf("sample mismatch: %v", err)
	}
	_, err = grids.Load(write("c.toml", strings.Replace(grid, `sample = "1ms"`, `sample = "2ms"`, 1)))
	if err == nil || !strings.Contains(err.Error(), "c.toml:8: calibrate.measured: "+filepath.Join(dir, "m.csv")+": flow F9 is not a flow of scenario testbed-s2 (F1, F2, F3)") {
		t.Errorf("unknown flow: %v", err)
	}
	write("m.csv", "time_s,flow,throughput_gbps\n0.002,F1,13\n0.004,F1,1\n")
	_, err = grids.Load(write("c.toml", strings.Replace(grid, `sample = "1ms"`, `sample = "2ms"`, 1)))
	if err == nil || !strings.Contains(err.Error(), "c.toml:3: phase: 1ms: runs of 3 phases end at 3ms, before the measurements in") {
		t.Errorf("measurement longer than the runs: %v", err)
	}
	g, err := grids.Load(write("c.toml", strings.Replace(strings.Replace(grid, `sample = "1ms"`, `sample = "2ms"`, 1), `phase = "1ms"`, `phase = "2ms"`, 1)))
	if err != nil || g.Calibrate == nil || g.Calibrate.Data.Sample != 2*engine.Millisecond || len(g.Calibrate.Axes) != 1 {
		t.Fatalf("grid %+v, %v", g, err)
	}
	// The grid base a calibration writes reads back with its values.
	base := grids.BaseGrid("c-fit", "testbed-s2", []grids.Param{{Name: "cc", Value: "on"}, {Name: "ccti_timer", Value: "226.239us"},
		{Name: "host_io_gbps", Value: "11.0625"}}, "fitted\nby a test")
	back, err := grids.Parse("fit.toml", base)
	if err != nil {
		t.Fatalf("%v\n%s", err, base)
	}
	pts := back.Points()
	if len(pts) != 1 || back.Name != "c-fit" {
		t.Fatalf("base grid: %d points\n%s", len(pts), base)
	}
	for name, want := range map[string]string{"cc": "on", "ccti_timer": "226.239us", "host_io_gbps": "11.0625"} {
		if v, _ := pts[0].Value(name); v != want {
			t.Errorf("base grid: %s = %q, want %q", name, v, want)
		}
	}
}
