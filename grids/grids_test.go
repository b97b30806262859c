package grids_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// parseFile parses a fixture, naming it by its base name in problems.
func parseFile(t testing.TB, path string) (*grids.Grid, error) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return grids.Parse(filepath.Base(path), data)
}

// expansion renders what a grid expands to: its canonical form, its merged
// axes and one line per point.
func expansion(g *grids.Grid) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %d points\n", g.Count())
	b.WriteString(g.Canonical())
	for _, a := range g.Axes() {
		fmt.Fprintf(&b, "axis %s (unit %q, zip %d): %s\n", a.Name, a.Unit, a.Zip, strings.Join(a.Values, " "))
	}
	for _, s := range g.Subs {
		var axes []string
		for _, a := range s.Axes {
			axes = append(axes, a.Name)
		}
		for p := range s.All() {
			fmt.Fprintf(&b, "%s seed=%d", p.Scenario, p.Seed)
			for _, q := range p.Params {
				fmt.Fprintf(&b, " %s=%s", q.Name, q.Value)
			}
			fmt.Fprintf(&b, " [%s]\n", strings.Join(axes, ","))
		}
	}
	return b.String()
}

func fixtures(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/%s: %v", dir, err)
	}
	return files
}

// checkGolden compares got with the golden file, or rewrites it with -update.
func checkGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./grids -update)", err)
	}
	if got != string(want) {
		t.Errorf("mismatch with %s (run go test ./grids -update and review the diff)\ngot:\n%s\nwant:\n%s", golden, got, want)
	}
}

func TestExpansionGolden(t *testing.T) {
	eachGoodGrid(t, func(t *testing.T, file string, g *grids.Grid) {
		if n := len(g.Points()); n != g.Count() {
			t.Errorf("Count() = %d, len(Points()) = %d", g.Count(), n)
		}
		checkGolden(t, strings.TrimSuffix(file, ".toml")+".golden", expansion(g))
	})
}

func TestBadGrids(t *testing.T) {
	files := fixtures(t, "bad")
	if len(files) < 20 {
		t.Errorf("only %d malformed grid cases, want at least 20", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".toml")
		t.Run(name, func(t *testing.T) {
			g, err := parseFile(t, file)
			if err == nil {
				t.Fatalf("Parse accepted the grid (%d points)", g.Count())
			}
			var ge *grids.Error
			if !errors.As(err, &ge) {
				t.Fatalf("error %T is not a *grids.Error: %v", err, err)
			}
			for _, p := range ge.Problems {
				if p.File != filepath.Base(file) || p.Line < 1 || strings.Contains(p.Msg, "\n") {
					t.Errorf("malformed problem %#v", p)
				}
			}
			checkGolden(t, strings.TrimSuffix(file, ".toml")+".want", err.Error()+"\n")
		})
	}
}

func TestPointsDeterministic(t *testing.T) {
	eachGoodGrid(t, func(t *testing.T, file string, g *grids.Grid) {
		again, err := parseFile(t, file)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g.Points(), g.Points()) || !reflect.DeepEqual(g.Points(), again.Points()) {
			t.Error("Points differ between calls")
		}
		if g.Canonical() != again.Canonical() {
			t.Error("Canonical differs between parses")
		}
	})
}

// TestPointConfig checks that every point's canonical values give back a
// valid configuration holding exactly those values, and that two points
// share an ID only if they are one simulation (two sub-grids listing it,
// spelt with and without a parameter at its default): same seed, same
// configuration.
func TestPointConfig(t *testing.T) {
	eachGoodGrid(t, func(t *testing.T, file string, g *grids.Grid) {
		ids := make(map[string]grids.Point)
		for _, p := range g.Points() {
			c, err := grids.PointConfig(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range p.Params {
				if got := c.Canonical(q.Name); got != q.Value {
					t.Errorf("%s = %q, but the config holds %q", q.Name, q.Value, got)
				}
			}
			id := grids.PointID(p, model.Version)
			if first, ok := ids[id]; ok {
				fc, err := grids.PointConfig(first)
				if err != nil {
					t.Fatal(err)
				}
				for _, name := range params.ParamNames() {
					if fc.Canonical(name) != c.Canonical(name) || first.Seed != p.Seed || first.Scenario != p.Scenario {
						t.Errorf("two different points share ID %s: %+v and %+v differ in %s", id, first, p, name)
						break
					}
				}
			}
			ids[id] = p
		}
	})
}

// TestIDStable pins the point identity: if this fails, every stored result
// would be run again. Never update the expected hashes. They were checked
// against the documented encoding with sha256sum, e.g.
//
//	printf 'ccsweep-point/1\nmodel=ib-1\nscenario=testbed-s2\nseed=7\n' | sha256sum | cut -c1-32
//
// ccti_timer = 150us is the testbed's default, so it has no line in ID
// (03b28cbc... is the text above without it) and LegacyID keeps the
// identity such points had before (f0faf4ad..., with it).
func TestIDStable(t *testing.T) {
	p := grids.Point{
		Scenario: "testbed-s1",
		Params: []grids.Param{
			{Name: "cc", Value: "on"},
			{Name: "ccti_timer", Value: "150us"},
			{Name: "marking_rate", Value: "4"},
		},
		Seed: 1,
	}
	tests := []struct {
		name    string
		p       grids.Point
		version string
		want    string
		legacy  string // "": the same as want
	}{
		{"base", p, "ib-1", "03b28cbc24eb2ceb65808d129437e79b", "f0faf4ad4c565736bc6b7a1b4fc070f3"},
		{"seed", withSeed(p, 2), "ib-1", "905e90605edb262521ac8e86c1470c3a", "901d7fac80393a56583940fd524c921b"},
		{"version", p, "ib-2", "25ac835cf3d9386a6276981a738f10a3", "725c51312d98f4198f3e6b50812a29ef"},
		{"no params", grids.Point{Scenario: "testbed-s2", Seed: 7}, "ib-1", "c99c11e3bc81dd18ce993db4c9038183", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := grids.PointID(tt.p, tt.version); got != tt.want {
				t.Errorf("ID = %s, want %s", got, tt.want)
			}
			if got := grids.LegacyPointID(tt.p, tt.version); got != tt.legacy {
				t.Errorf("LegacyID = %q, want %q", got, tt.legacy)
			}
		})
	}
}

func withSeed(p grids.Point, seed uint64) grids.Point {
	p.Seed = seed
	return p
}

func TestPointValue(t *testing.T) {
	p := grids.Point{Params: []grids.Param{{Name: "cc", Value: "on"}, {Name: "threshold", Value: "15"}}}
	if v, ok := p.Value("threshold"); !ok || v != "15" {
		t.Errorf("Value(threshold) = %q, %v", v, ok)
	}
	if _, ok := p.Value("mtu"); ok {
		t.Error("Value(mtu) found a parameter the point does not set")
	}
}

func TestLoad(t *testing.T) {
	g, err := grids.Load("testdata/good/list.toml")
	if err != nil {
		t.Fatal(err)
	}
	if g.Path != "testdata/good/list.toml" || g.Name == "" || g.Scenario != "testbed-s1" {
		t.Errorf("Load gave Path %q, Name %q, Scenario %q", g.Path, g.Name, g.Scenario)
	}
	_, err = grids.Load("testdata/missing.toml")
	var ge *grids.Error
	if !errors.Is(err, os.ErrNotExist) || errors.As(err, &ge) {
		t.Errorf("Load of a missing file: %v, want an os.ErrNotExist that is not a *grids.Error", err)
	}
	_, err = grids.Load("testdata/bad/threshold_16.toml")
	if !errors.As(err, &ge) || len(ge.Problems) != 1 {
		t.Fatalf("Load of a bad file: %v", err)
	}
	want := grids.Problem{File: "testdata/bad/threshold_16.toml", Line: 5, Key: "base.threshold", Msg: "16: out of range 0..15"}
	if ge.Problems[0] != want {
		t.Errorf("problem = %#v, want %#v", ge.Problems[0], want)
	}
}

// FuzzParse checks that Parse never panics and that whatever it accepts
// expands consistently, and whatever it rejects is reported properly.
func FuzzParse(f *testing.F) {
	for _, dir := range []string{"good", "bad"} {
		for _, file := range fixtures(f, dir) {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := grids.Parse("fuzz.toml", data)
		if err != nil {
			var ge *grids.Error
			if !errors.As(err, &ge) || len(ge.Problems) == 0 {
				t.Fatalf("error %T without problems: %v", err, err)
			}
			for _, p := range ge.Problems {
				if p.Line < 1 || strings.Contains(p.Msg, "\n") || p.Msg == "" {
					t.Fatalf("malformed problem %#v", p)
				}
			}
			return
		}
		if g.Count() > 10000 {
			return
		}
		points := g.Points()
		if len(points) != g.Count() {
			t.Fatalf("Count() = %d, len(Points()) = %d", g.Count(), len(points))
		}
		for _, p := range points {
			if _, err := grids.PointConfig(p); err != nil {
				t.Fatalf("accepted point %+v: %v", p, err)
			}
		}
		back, err := grids.ParseCanonical([]byte(g.Canonical()))
		if err != nil {
			t.Fatalf("its canonical text does not parse: %v", err)
		}
		if !reflect.DeepEqual(back.Points(), points) {
			t.Fatalf("the grid rebuilt from its canonical text has other points")
		}
	})
}

func TestRangeValues(t *testing.T) {
	tests := []struct {
		name, axis, want string
	}{
		{"float step no drift", `host_io_gbps = { from = 0.1, to = 0.3, step = 0.1 }`, "0.1 0.2 0.3"},
		{"float step to 1", `host_io_gbps = { from = 0.1, to = 1, step = 0.1 }`, "0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1"},
		{"float step short of to", `host_io_gbps = { from = 1, to = 2, step = 0.3 }`, "1 1.3 1.6 1.9"},
		{"float step tiny", `host_io_gbps = { from = 0.1, to = 0.10000001, step = 0.000000001 }`, "0.1 0.100000001 0.100000002 0.100000003 0.100000004 0.100000005 0.100000006 0.100000007 0.100000008 0.100000009 0.10000001"},
		{"int step", `threshold = { from = 0, to = 15, step = 5 }`, "0 5 10 15"},
		{"int single", `threshold = { from = 3, to = 3, step = 1 }`, "3"},
		{"duration step", `ccti_timer = { from = "1ms", to = "2ms", step = "250us" }`, "1ms 1.25ms 1.5ms 1.75ms 2ms"},
		{"duration step mixed units", `ccti_timer = { from = "1.024us", to = "5.12us", step = "1024ns" }`, "1.024us 2.048us 3.072us 4.096us 5.12us"},
		{"int log", `message_size = { from = 256, to = 65536, count = 9, scale = "log" }`, "256 512 1024 2048 4096 8192 16384 32768 65536"},
		{"int log duplicates", `marking_rate = { from = 1, to = 4, count = 8, scale = "log" }`, "1 2 3 4"},
		{"int lin", `marking_rate = { from = 0, to = 10, count = 3 }`, "0 5 10"},
		{"duration log", `ccti_timer = { from = "1us", to = "1ms", count = 4, scale = "log" }`, "1us 10us 100us 1ms"},
		{"duration lin rounds to ns", `ccti_timer = { from = "1us", to = "2us", count = 4 }`, "1us 1.333us 1.667us 2us"},
		{"float log", `host_io_gbps = { from = 0.1, to = 1000, count = 5, scale = "log" }`, "0.1 1 10 100 1000"},
		{"count 1", `host_io_gbps = { from = 2, to = 5, count = 1 }`, "2"},
		{"list", `prop_delay = ["0.5ms", 0, "1ns"]`, "500us 0s 1ns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := "name = \"r\"\nscenario = \"testbed-s1\"\nphase = \"2s\"\n[sweep]\n" + tt.axis + "\n"
			g, err := grids.Parse("r.toml", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(g.Axes()[0].Values, " "); got != tt.want {
				t.Errorf("values %s, want %s", got, tt.want)
			}
		})
	}
}

// eachGoodGrid runs fn as a subtest, named by file, for every grid of
// testdata/good, parsed.
func eachGoodGrid(t *testing.T, fn func(t *testing.T, file string, g *grids.Grid)) {
	for _, file := range fixtures(t, "good") {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".toml"), func(t *testing.T) {
			g, err := parseFile(t, file)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			fn(t, file, g)
		})
	}
}
