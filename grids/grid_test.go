package grids_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A zero step is refused as not positive whatever its type: a bare 0 for a
// duration axis and 0.0 for an integer axis are numbers of the wrong kind
// only when they are not zero (a zero needs no unit and is whole).
func TestZeroStepIsNotPositive(t *testing.T) {
	for _, c := range []struct{ axis, want string }{
		{`ccti_timer = { from = "10us", to = "20us", step = 0 }`, "sweep.ccti_timer: step 0 must be positive"},
		{`marking_rate = { from = 0, to = 8, step = 0.0 }`, "sweep.marking_rate: step 0 must be positive"},
		{`ccti_timer = { from = "10us", to = "20us", step = 5 }`, "sweep.ccti_timer: step 5: want a duration with a unit"},
		{`marking_rate = { from = 0, to = 8, step = 0.5 }`, "sweep.marking_rate: step 0.5: want a whole number"},
	} {
		_, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\n[sweep]\n"+c.axis+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.axis, err, c.want)
		}
	}
}

// A count range's ends are from and to as written: only the values between
// them are rounded (floats to 12 significant digits).
func TestCountRangeEndsAreExact(t *testing.T) {
	g, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\n[sweep]\nhca_msg_rate = { from = 0.1, to = 1.0000000000001, count = 3 }\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(g.Axes()[0].Values, " "); got != "0.1 0.55 1.0000000000001" {
		t.Errorf("values %s, want 0.1 0.55 1.0000000000001", got)
	}
}

// A grid expands to at most MaxPoints points, counting seeds and before
// constraints: exactly MaxPoints is a grid, in one sub-grid or over two, and
// one seed more is refused.
func TestPointsLimitIsInclusive(t *testing.T) {
	const axes = "marking_rate = { from = 0, to = 99, step = 1 }\nmessage_size = { from = 1, to = 100, step = 1 }\n" // 10,000 combinations
	top := func(seeds int) string {
		return fmt.Sprintf("name = \"g\"\nscenario = \"testbed-s1\"\nseeds = %d\n[sweep]\n%s", seeds, axes)
	}
	sub := func(seeds int) string {
		return fmt.Sprintf("[[grid]]\nseeds = %d\n[grid.sweep]\n%s", seeds, axes)
	}
	for _, c := range []struct{ src, err string }{
		{top(1000), ""},
		{top(1001), "g.toml:4: sweep: 10010000 points (10000 combinations × 1001 seeds), more than the limit of 10000000"},
		{top(500) + sub(500), ""},
		{top(500) + sub(501), "the grid reaches 10010000 points here, more than the limit of 10000000"},
	} {
		g, err := grids.Parse("g.toml", []byte(c.src))
		if c.err == "" {
			if err != nil || g.Count() != grids.MaxPoints {
				t.Errorf("%q: %v, want a grid of MaxPoints points", c.src, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want an error saying %s", c.src, err, c.err)
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

// A grid's name has at most MaxNameLen characters: that many is a name,
// one more is refused.
func TestGridNameLengthLimit(t *testing.T) {
	long := strings.Repeat("n", grids.MaxNameLen)
	g, err := grids.Parse("g.toml", []byte("name = \""+long+"\"\nscenario = \"testbed-s1\"\n"))
	if err != nil || g.Name != long {
		t.Errorf("a name of %d characters: %v", grids.MaxNameLen, err)
	}
	_, err = grids.Parse("g.toml", []byte("name = \""+long+"x\"\nscenario = \"testbed-s1\"\n"))
	want := "g.toml:1: name: is 129 characters long; a name has at most 128"
	if err == nil || err.Error() != want {
		t.Errorf("a name of %d characters: %v, want %s", grids.MaxNameLen+1, err, want)
	}
}

// refine.points and refine.per_round take "a whole number from 1 to
// MaxPoints", both ends included.
func TestRefineCountsRange(t *testing.T) {
	parse := func(points, perRound int64) (*grids.Grid, error) {
		src := fmt.Sprintf("name = \"g\"\nscenario = \"testbed-s1\"\n[sweep]\nmarking_rate = [0, 8]\n[refine]\npoints = %d\nper_round = %d\nmetric = \"victim_gbps\"\n", points, perRound)
		return grids.Parse("g.toml", []byte(src))
	}
	for _, c := range [][2]int64{{1, 1}, {grids.MaxPoints, grids.MaxPoints}} {
		g, err := parse(c[0], c[1])
		if err != nil || g.Refine == nil || g.Refine.Points != int(c[0]) || g.Refine.PerRound != int(c[1]) {
			t.Errorf("points = %d, per_round = %d: %v", c[0], c[1], err)
		}
	}
	for _, c := range [][2]int64{{0, 1}, {grids.MaxPoints + 1, 1}, {1, 0}, {1, grids.MaxPoints + 1}} {
		if _, err := parse(c[0], c[1]); err == nil || !strings.Contains(err.Error(), "want a whole number from 1 to 10000000") {
			t.Errorf("points = %d, per_round = %d: %v, want refused", c[0], c[1], err)
		}
	}
}

// A grid without [refine], [calibrate] or a seed target is not adaptive.
func TestPlainGridIsNotAdaptive(t *testing.T) {
	g, err := grids.Parse("plain.toml", []byte("name = \"p\"\nscenario = \"testbed-s1\"\n[sweep]\nccti_timer = [\"50us\", \"100us\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Adaptive() {
		t.Error("Adaptive() = true for a grid without [refine], [calibrate] or a seed target")
	}
}

// TestGridChecksSamplesAtTheLongestPhaseAndShortestSample checks what a
// grid refuses at load for its scenario (grids' checkScenarios): a run
// keeps at most 10 M samples (model.MaxSamples; docs/sweeps.md, "over 10 M
// samples"), checked at the longest phase and the shortest sample the
// sub-grid sets, fixed or swept, and a victim_mask port the topology does
// not have, swept or fixed. testbed-s1 has 5 flows and 5 phases, so a run
// keeps about 25 × phase / sample samples: 5 M at 1 s and 5 us (accepted),
// 15 M at 3 s and 5 us, 12.5 M at 1 s and 2 us (refused, at the line that
// sets the sample, sweep.sample when it is swept).
func TestGridChecksSamplesAtTheLongestPhaseAndShortestSample(t *testing.T) {
	const head = "name = \"g\"\nscenario = \"testbed-s1\"\n"
	for _, tt := range []struct {
		body string
		bad  string // "" when accepted, else the line and words of the problem
	}{
		{"phase = \"1s\"\nsample = \"5us\"\n", ""},
		{"phase = \"3s\"\nsample = \"5us\"\n", "g.toml:4: sample: 5us: 5 flows sampled every 5us for 15s keep"},
		{"sample = \"5us\"\n[sweep]\nphase = [\"100ms\", \"1s\"]\n", ""},
		{"sample = \"5us\"\n[sweep]\nphase = [\"3s\", \"1s\"]\n", "g.toml:3: sample: 5us: 5 flows sampled every 5us for 15s"},
		{"phase = \"1s\"\n[sweep]\nsample = [\"5us\", \"10us\"]\n", ""},
		{"phase = \"1s\"\n[sweep]\nsample = [\"5us\", \"2us\", \"10us\"]\n", "g.toml:5: sweep.sample: 2us: 5 flows sampled every 2us for 5s keep 12500000 samples"},
		{"phase = \"1s\"\n[sweep]\nmarking_rate = [1, 2]\nsample = [\"5us\", \"2us\"]\n", "g.toml:6: sweep.sample: 2us:"},
		{"[sweep]\nmarking_rate = [1, 2]\nvictim_mask = [\"host\", \"S9:1\"]\n", "g.toml:5: sweep.victim_mask: S9:1: "},
		{"victim_mask = \"S9:1\"\n[sweep]\nmarking_rate = [1, 2]\n", "g.toml:3: victim_mask: S9:1: "},
		{"[sweep]\nmarking_rate = [1, 2]\nvictim_mask = [\"host\", \"none\"]\n", ""},
		// Phases all shorter than the default 1 s are checked at their own
		// length: 5 flows every 1us for 5 × 10ms keep 250 000 samples.
		{"phase = \"10ms\"\nsample = \"1us\"\n", ""},
		{"sample = \"1us\"\n[sweep]\nphase = [\"10ms\", \"20ms\"]\n", ""},
		{"sample = \"1us\"\n[sweep]\nphase = [\"10ms\", \"3s\"]\n", "g.toml:3: sample: 1us: 5 flows sampled every 1us for 15s"},
	} {
		_, err := grids.Parse("g.toml", []byte(head+tt.body))
		switch {
		case tt.bad == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.body, err)
		case tt.bad != "" && (err == nil || !strings.Contains(err.Error(), tt.bad)):
			t.Errorf("%s: error %v; want one containing %q", tt.body, err, tt.bad)
		}
	}
}

// TestWhereOfAnUnknownScenarioIsStillChecked checks that a grid naming a
// scenario ccsweep does not have gets its problems listed, its where
// expression compiled against the model's defaults, not a crash: the
// unknown scenario and the where's unknown name are both reported.
func TestWhereOfAnUnknownScenarioIsStillChecked(t *testing.T) {
	const src = "name = \"g\"\nscenario = \"no-such-scenario\"\nwhere = \"marking_rate > 1 && nosuchparam\"\n[sweep]\nmarking_rate = [1, 2]\n"
	_, err := grids.Parse("g.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "no-such-scenario") || !strings.Contains(err.Error(), "g.toml:3: where") {
		t.Errorf("error %v; want the unknown scenario and the where's unknown name at line 3", err)
	}
}

// A grid over a scenario file starts from the file's [params] (here
// host_io_gbps = 16), which its where constraints see.
func TestWhereSeesTheScenarioFilesParams(t *testing.T) {
	p := gridBesideScenario(t, "name = \"g\"\nscenario = \"ft-hotspot.toml\"\nwhere = [\"host_io_gbps == 16\"]\n[sweep]\n\"bg.load\" = [0.1, 0.3]\n")
	g, err := grids.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Points()); n != 2 {
		t.Errorf("%d points where host_io_gbps == 16, want both (the file sets 16)", n)
	}
}

// A seed target (seeds = { min, max, ci, metric }, grids.SeedTarget) takes
// min and max from 2 to MaxSeeds with max >= min, ci strictly between 0
// and 1 (an integer too), and a known metric; anything else is refused with
// the reason, and a sub-grid's first round runs min seeds.
func TestSeedTargetBounds(t *testing.T) {
	parse := func(seeds string) (*grids.Grid, error) {
		return grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\nseeds = "+seeds+"\n"))
	}
	for _, c := range []struct {
		seeds    string
		min, max int
		ci       float64
	}{
		{`{ min = 2, max = 2, ci = 0.05, metric = "victim_gbps" }`, 2, 2, 0.05},
		{`{ min = 3, max = 10000, ci = 0.999, metric = "victim_gbps" }`, 3, 10000, 0.999},
		{`{ min = 10000, max = 10000, ci = 1e-9, metric = "victim_gbps" }`, 10000, 10000, 1e-9},
	} {
		g, err := parse(c.seeds)
		if err != nil {
			t.Errorf("%s: %v", c.seeds, err)
			continue
		}
		tg := g.Subs[0].Target
		if tg == nil || tg.Min != c.min || tg.Max != c.max || tg.CI != c.ci || tg.Metric != "victim_gbps" || g.Subs[0].Seeds != c.min {
			t.Errorf("%s: target %+v, %d seeds; want min %d max %d ci %g, %d seeds", c.seeds, tg, g.Subs[0].Seeds, c.min, c.max, c.ci, c.min)
		}
	}
	for _, c := range []struct{ seeds, want string }{
		{`{ min = 1, max = 5, ci = 0.05, metric = "victim_gbps" }`, "min 1: a confidence interval needs at least 2 seeds"},
		{`{ min = 2, max = 1, ci = 0.05, metric = "victim_gbps" }`, "max 1: a confidence interval needs at least 2 seeds"},
		{`{ min = 2, max = 10001, ci = 0.05, metric = "victim_gbps" }`, "max 10001: more than the limit of 10000 seeds"},
		{`{ min = 10001, max = 10001, ci = 0.05, metric = "victim_gbps" }`, "min 10001: more than the limit of 10000 seeds"},
		{`{ min = 4, max = 3, ci = 0.05, metric = "victim_gbps" }`, "max 3 is less than min 4"},
		{`{ min = 2.5, max = 3, ci = 0.05, metric = "victim_gbps" }`, "min: want a whole number of replications, not 2.5"},
		{`{ max = 3, ci = 0.05, metric = "victim_gbps" }`, "a seeds table needs min"},
		{`{ min = 2, max = 3, ci = 0, metric = "victim_gbps" }`, "ci 0: want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, ci = 1, metric = "victim_gbps" }`, "ci 1: want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, ci = 1.0, metric = "victim_gbps" }`, "want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, ci = -0.1, metric = "victim_gbps" }`, "want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, ci = "x", metric = "victim_gbps" }`, "want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, metric = "victim_gbps" }`, "a seeds table needs ci"},
		{`{ min = 2, max = 3, ci = 0.05 }`, "a seeds table needs metric"},
		{`{ min = 2, max = 3, ci = 0.05, metric = "victim_gbp" }`, `metric "victim_gbp": unknown metric`},
		{`{ min = 2, max = 3, ci = 0.05, metric = "victim_gbps", mx = 4 }`, `unknown key "mx"`},
	} {
		g, err := parse(c.seeds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error saying %q", c.seeds, err, c.want)
		} else if g != nil {
			t.Errorf("%s: a grid as well as %v", c.seeds, err)
		}
	}
}

// A misspelt parameter of a grid over a scenario file is matched against
// the file's own parameters too, not only the model's.
func TestUnknownKeySuggestsAScenarioParameter(t *testing.T) {
	p := gridBesideScenario(t, "name = \"g\"\nscenario = \"ft-hotspot.toml\"\n[sweep]\nhotspot_fractoin = [0.1, 0.2]\n")
	_, err := grids.Load(p)
	if err == nil || !strings.Contains(err.Error(), "(did you mean hotspot_fraction?)") {
		t.Errorf("hotspot_fractoin: %v, want a suggestion of the file's hotspot_fraction", err)
	}
}

// A suggestion is at most one edit for every three bytes of the name, and
// at most two: marking_rxte (one edit) and marking_rxtx (two) suggest
// marking_rate, marking_rxxx (three) nothing.
func TestSuggestionDistance(t *testing.T) {
	for key, want := range map[string]string{
		"marking_rxte": " (did you mean marking_rate?)",
		"marking_rxtx": " (did you mean marking_rate?)",
		"marking_rxxx": "",
	} {
		_, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\n"+key+" = 1\n"))
		if got, w := fmt.Sprint(err), "g.toml:3: "+key+": unknown key"+want; got != w {
			t.Errorf("%s: %s, want %s", key, got, w)
		}
	}
}

// gridBesideScenario writes grid as g.toml in a new folder beside a copy of
// testdata/scenarios/ft-hotspot.toml, and returns the grid's path.
func gridBesideScenario(t *testing.T, grid string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "scenarios", "ft-hotspot.toml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ft-hotspot.toml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "g.toml")
	if err := os.WriteFile(p, []byte(grid), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInlineSweepTableKeepsFileOrder checks that axes written as an inline
// table (sweep = { ... }) are crossed in file order, the last varying
// fastest (grids' package doc, "dimensions are crossed in file order"),
// as they are in a [sweep] table, not in the keys' alphabetical order.
func TestInlineSweepTableKeepsFileOrder(t *testing.T) {
	const src = "name = \"g\"\nscenario = \"testbed-s1\"\nsweep = { marking_rate = [1, 2], host_io_gbps = [8, 16] }\n"
	g, err := grids.Parse("g.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range g.Points() {
		m, _ := p.Value("marking_rate")
		h, _ := p.Value("host_io_gbps")
		got = append(got, m+"/"+h)
	}
	if want := []string{"1/8", "1/16", "2/8", "2/16"}; !slices.Equal(got, want) {
		t.Errorf("points (marking_rate/host_io_gbps) %v, want %v: marking_rate first, host_io_gbps fastest", got, want)
	}
}

// TestArrayElementProblemsNameTheirLine checks that a bad value of an
// array written over several lines is reported at its own line, for each
// element, in [sweep] and in an inline table's array alike.
func TestArrayElementProblemsNameTheirLine(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{"[sweep]\nmarking_rate = [\n  1,\n  2,\n  -5,\n]\n", "g.toml:7: sweep.marking_rate"},
		{"[sweep]\nmarking_rate = [\n  1,\n  -5,\n  2,\n]\n", "g.toml:6: sweep.marking_rate"},
		{"[sweep]\nmarking_rate = [\n  -5,\n  1,\n]\n", "g.toml:5: sweep.marking_rate"},
		{"sweep = { marking_rate = [\n  1,\n  -5,\n] }\n", "g.toml:5: sweep.marking_rate"},
	} {
		_, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\n"+tt.body))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want a problem at %q", tt.body, err, tt.want)
		}
	}
}
