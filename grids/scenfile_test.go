package grids_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

func TestLoadScenarioFile(t *testing.T) {
	sc, err := grids.LoadScenario(filepath.Join("testdata", "scenarios", "ft-hotspot.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sc.Name, "ft-hotspot@") || workload.LookupScenario(sc.Name) != sc {
		t.Errorf("scenario %q is not registered under its name", sc.Name)
	}
	var names []string
	for _, p := range sc.ScenarioParams() {
		names = append(names, p.Name)
	}
	for _, want := range []string{"bg.load", "load", "hot.hotspot_fraction", "hotspot_fraction", "k", "levels", "lmc"} {
		if !slices.Contains(names, want) {
			t.Errorf("parameter %s missing from %v", want, names)
		}
	}
	if slices.Contains(names, "burst") {
		t.Error("bare burst offered, but no traffic of the file is on/off")
	}
	c := sc.Config()
	if c.HostIOGbps != 16 || c.SwitchLinkGbps != 16 {
		t.Errorf("the file's [params] are not the defaults: %+v", c)
	}
	if err := sc.Set(&c, "bg.load", 2.0); err == nil {
		t.Error("bg.load 2 accepted; a load is a fraction of the link")
	}
	if err := sc.Set(&c, "nonsense", 1); !errors.Is(err, params.ErrUnknownParam) {
		t.Errorf("unknown parameter: %v", err)
	}
}

// TestGridSweepsScenarioFields: a grid sweeps a scenario file's fields like
// model parameters; each value reaches the run, and the canonical form
// carries the scenario so that it reads back without the file.
func TestGridSweepsScenarioFields(t *testing.T) {
	g, err := grids.Load(filepath.Join("testdata", "scenarios", "load-curve.toml"))
	if err != nil {
		t.Fatal(err)
	}
	points := g.Points()
	if len(points) != 6 {
		t.Fatalf("%d points, want 6", len(points))
	}
	offered := map[string]float64{}
	for _, pt := range points {
		if v, _ := pt.Value("cc"); v != "off" {
			continue
		}
		load, _ := pt.Value("bg.load")
		cfg, err := grids.PointConfig(pt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := model.Run(workload.LookupScenario(pt.Scenario), cfg, pt.Seed)
		if err != nil {
			t.Fatal(err)
		}
		offered[load] = res.Metrics().OfferedLoad
	}
	// The window has the saturating hot-spot senders (offered 1) and the
	// background (offered its load): more background load, more offered.
	if !(offered["0.1"] < offered["0.3"] && offered["0.3"] < offered["0.5"]) {
		t.Errorf("offered load by bg.load: %v", offered)
	}
	text := g.Canonical()
	if !strings.Contains(text, `"format": "ccsweep-grid/2"`) || !strings.Contains(text, "hotspot_fraction = 0.25") {
		t.Fatalf("canonical form does not embed the scenario:\n%s", text)
	}
	back, err := grids.ParseCanonical([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(back.Points(), points, func(a, b grids.Point) bool { return grids.PointID(a, model.Version) == grids.PointID(b, model.Version) }) {
		t.Error("the canonical form reads back as other points")
	}
}

// TestEditedScenarioIsAnotherScenario: changing a scenario file changes the
// scenario's name, so its points are new points, not old results.
func TestEditedScenarioIsAnotherScenario(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join("testdata", "scenarios", "ft-hotspot.toml"))
	path := filepath.Join(dir, "s.toml")
	os.WriteFile(path, src, 0o644)
	a, err := grids.LoadScenario(path)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(strings.Replace(string(src), "load = 0.2", "load = 0.3", 1)), 0o644)
	b, err := grids.LoadScenario(path)
	if err != nil {
		t.Fatal(err)
	}
	if a.Name == b.Name {
		t.Errorf("edited file keeps the name %s", a.Name)
	}
}

func TestScenarioFileProblems(t *testing.T) {
	const topo = "[topology]\nkind = \"fattree\"\nk = 2\n"
	// want is part of the message (the directory left out); "PREFIX|PART"
	// wants a message that starts with PREFIX and holds PART, for one with
	// the scenario's registered name, not known in advance, between them.
	tests := []struct {
		name, text, want string
	}{
		{"unknown key", "colour = 1\n" + topo + "[[traffic]]\npattern = \"uniform\"\n", "s.toml:1: colour: unknown key"},
		{"unknown topology key", topo + "levels = 2\nbogus = 1\n[[traffic]]\npattern = \"uniform\"\n", "s.toml:5: topology.bogus: unknown key"},
		{"unknown routing key", topo + "[routing]\nalgorithm = \"ftree\"\nwhat = 3\n[[traffic]]\npattern = \"uniform\"\n", "s.toml:6: routing.what: unknown key"},
		{"flow starting at the end", "phases = 2\n" + topo + "[[flow]]\nsrc = \"H1\"\ndst = \"H2\"\nstart_phase = 2\n", "s.toml:8: flow[0].start_phase: 2: the scenario has 2 phases (0 to 1); a flow starting at the end never sends"},
		{"roots and compute nodes for minhop", topo + "[routing]\nalgorithm = \"minhop\"\nroots = [\"S1_1\"]\ncompute_nodes = [\"H1\"]\n[[traffic]]\npattern = \"uniform\"\n", "s.toml:4: routing: roots and compute nodes are for updn and ftree, not minhop"},
		{"no topology", "[[traffic]]\npattern = \"uniform\"\n", "s.toml:1: topology: missing"},
		{"bad kind", "[topology]\nkind = \"ring\"\n", `s.toml:2: topology.kind: "ring": want one of fattree, clos, mesh, torus, ibnetdiscover`},
		{"k out of range", "[topology]\nkind = \"fattree\"\nk = 1\n[[traffic]]\npattern = \"uniform\"\n", "s.toml:3: topology.k: 1: want a whole number from 2 to 64"},
		{"bad pattern", topo + "[[traffic]]\npattern = \"zigzag\"\n", `s.toml:5: traffic[0].pattern: "zigzag": want one of`},
		{"load above 1", topo + "[[traffic]]\npattern = \"uniform\"\narrival = \"poisson\"\nload = 1.5\n", "s.toml:7: traffic[0].load: 1.5: want a number from 0 to 1"},
		{"load on saturate", topo + "[[traffic]]\npattern = \"uniform\"\nload = 0.5\n", "s.toml:6: traffic[0].load: a saturating source sends all it can"},
		{"poisson without load", topo + "[[traffic]]\npattern = \"uniform\"\narrival = \"poisson\"\n", "s.toml:4: traffic[0]: arrival poisson needs a load"},
		{"unknown host", topo + "[[flow]]\nsrc = \"H1\"\ndst = \"H9\"\n", `s.toml:6: flow[0].dst: "H9" is not a host of the topology`},
		{"pattern misfit", "[topology]\nkind = \"fattree\"\nk = 3\n[[traffic]]\npattern = \"bitreverse\"\n", "s.toml:5: traffic[0].pattern: bitreverse needs a power of two hosts, not 9"},
		{"nothing sent", topo, "s.toml:1: no [[flow]], [[traffic]] or [[app]]"},
		{"bad param default", "[params]\nmtu = 3\n" + topo + "[[traffic]]\npattern = \"uniform\"\n", "s.toml:2: params.mtu"},
		{"dor on a torus needs VLs", "[topology]\nkind = \"torus\"\ndims = [5, 5]\n[[traffic]]\npattern = \"uniform\"\n", "set vls"},
		{"missing fabric", "[topology]\nkind = \"ibnetdiscover\"\nfile = \"nope.txt\"\n[[traffic]]\npattern = \"uniform\"\n", "s.toml:3: topology.file:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "s.toml")
			os.WriteFile(path, []byte(tt.text), 0o644)
			sc, err := grids.LoadScenario(path)
			if err == nil { // VLs are checked against the final configuration
				err = grids.CheckScenarioConfig(sc, sc.Config())
			}
			var ge *grids.Error
			if !errors.As(err, &ge) {
				t.Fatalf("error %v, want a *grids.Error", err)
			}
			msg := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
			if prefix, part, ok := strings.Cut(tt.want, "|"); ok {
				if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, part) {
					t.Errorf("got  %s\nwant %s...%s", msg, prefix, part)
				}
				return
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("got  %s\nwant %s", msg, tt.want)
			}
		})
	}
}

// TestGridNamesAMissingScenarioFile: the grid's line is named.
func TestGridNamesAMissingScenarioFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.toml")
	os.WriteFile(path, []byte("name = \"g\"\nscenario = \"gone.toml\"\n"), 0o644)
	_, err := grids.Load(path)
	if err == nil || !strings.Contains(err.Error(), "g.toml:2: scenario: read scenario:") {
		t.Errorf("error %v", err)
	}
}

// TestWhereNamesScenarioParameters: a where constraint may name a scenario
// file's parameters whose names are identifiers (load, k).
func TestWhereNamesScenarioParameters(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join("testdata", "scenarios", "ft-hotspot.toml"))
	os.WriteFile(filepath.Join(dir, "ft.toml"), src, 0o644)
	path := filepath.Join(dir, "g.toml")
	os.WriteFile(path, []byte(`name = "w"
scenario = "ft.toml"
where = ["load < 0.4 || cc", "k == 4"]
[sweep]
load = [0.1, 0.3, 0.5, 0.7]
cc = [false, true]
`), 0o644)
	g, err := grids.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(g.Points()); n != 6 { // cc off: 0.1, 0.3; cc on: all four
		t.Errorf("%d points, want 6", n)
	}
	back, err := grids.ParseCanonical([]byte(g.Canonical()))
	if err != nil || len(back.Points()) != 6 {
		t.Fatalf("canonical: %v", err)
	}
	os.WriteFile(path, []byte("name = \"w\"\nscenario = \"ft.toml\"\nwhere = [\"loads < 1\"]\n"), 0o644)
	if _, err := grids.Load(path); err == nil || !strings.Contains(err.Error(), "g.toml:3: where") {
		t.Errorf("unknown name in where: %v", err)
	}
}

// TestScenarioFabricUncapped: a scenario file's fabric may be larger than
// the 4 MiB grid and scenario files may be (here the PuTTY log sample,
// padded with comment lines past it), and the reader's warnings reach the
// scenario, naming the file as the scenario does.
func TestScenarioFabricUncapped(t *testing.T) {
	log, err := os.ReadFile(filepath.Join("..", "model", "fabric", "testdata", "ibnetdiscover", "putty-log.txt"))
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("#"+strings.Repeat(" ", 78)+"\r\n", grids.MaxFileSize/80+1000)
	fabric := append([]byte(pad), log...)
	if len(fabric) <= grids.MaxFileSize {
		t.Fatalf("fabric of %d bytes", len(fabric))
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fabric.txt"), fabric, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.toml")
	text := "[topology]\nkind = \"ibnetdiscover\"\nfile = \"fabric.txt\"\n[[flow]]\nsrc = \"H1\"\ndst = \"H4\"\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := grids.LoadScenario(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Warnings) != 1 || !strings.HasPrefix(sc.Warnings[0], "fabric.txt: skipped 3 lines that are not ibnetdiscover output") {
		t.Fatalf("warnings %q", sc.Warnings)
	}
}

// TestMutDefaultFlowNames: flows without a name are F1, F2, ... in file
// order. Kills scenfile.go's `i+1` turned into `i-1`.
func TestMutDefaultFlowNames(t *testing.T) {
	sc, err := loadScenarioText(t, "[topology]\nkind = \"fattree\"\nk = 4\n"+
		"[[flow]]\nsrc = \"H1\"\ndst = \"H2\"\n[[flow]]\nsrc = \"H3\"\ndst = \"H2\"\n[[flow]]\nname = \"x\"\nsrc = \"H4\"\ndst = \"H2\"\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range sc.Flows {
		got = append(got, f.Name)
	}
	if fmt.Sprint(got) != "[F1 F2 x]" {
		t.Errorf("flow names %v, want [F1 F2 x]", got)
	}
}

// TestMutHotspotTrafficNeedsALoad: hotspot_mode traffic splits a load, so
// it is refused with a saturating arrival and accepted with poisson.
// Kills scenfile.go's `ts.Arrival == "saturate"` negated in that check.
func TestMutHotspotTrafficNeedsALoad(t *testing.T) {
	text := func(arrival, load string) string {
		return "[topology]\nkind = \"fattree\"\nk = 4\n[[traffic]]\npattern = \"hotspot\"\nhotspot_mode = \"traffic\"\n" +
			"hot_nodes = 1\nhotspot_fraction = 0.5\narrival = \"" + arrival + "\"\n" + load
	}
	if _, err := loadScenarioText(t, text("poisson", "load = 0.3\n")); err != nil {
		t.Errorf("hotspot traffic with poisson arrivals: %v", err)
	}
	if _, err := loadScenarioText(t, text("saturate", "")); err == nil || !strings.Contains(err.Error(), "hotspot_mode traffic splits a load") {
		t.Errorf("hotspot traffic with saturating sources: error %v, want the split-load message", err)
	}
}

// TestComputeNodesAreForFtreeOnly: a scenario's compute nodes rank the
// switches for ftree; updn takes roots only (docs/scenarios.md), so
// compute_nodes beside updn is refused at the routing line, and beside
// ftree accepted. Kills scenfile.go's `spec.Routing == "updn"` negated.
func TestComputeNodesAreForFtreeOnly(t *testing.T) {
	var names []string
	for h := 1; h <= 16; h++ {
		names = append(names, fmt.Sprintf("%q", fmt.Sprintf("H%d", h)))
	}
	hosts := strings.Join(names, ", ") // every host of the k = 4 fat tree
	text := func(alg string) string {
		return "[topology]\nkind = \"fattree\"\nk = 4\n[routing]\nalgorithm = \"" + alg + "\"\ncompute_nodes = [" + hosts + "]\n" +
			"[[traffic]]\npattern = \"uniform\"\narrival = \"poisson\"\nload = 0.1\n"
	}
	if _, err := loadScenarioText(t, text("ftree")); err != nil {
		t.Errorf("compute nodes with ftree: %v", err)
	}
	_, err := loadScenarioText(t, text("updn"))
	if err == nil || !strings.Contains(err.Error(), "s.toml:4: routing: compute nodes are for ftree; updn takes roots only") {
		t.Errorf("compute nodes with updn: error %v, want the ftree-only message at the routing line", err)
	}
}

// TestMeshDimsFromTwoTo1024: a mesh's or torus's sizes are whole numbers
// from 2 to 1024 (the scenario file's rule): 2 and 1024 are accepted, 1 and 1025
// refused at the dims line.
func TestMeshDimsFromTwoTo1024(t *testing.T) {
	text := func(dims string) string {
		return "[topology]\nkind = \"mesh\"\ndims = " + dims + "\n" +
			"[[traffic]]\npattern = \"uniform\"\narrival = \"poisson\"\nload = 0.1\n"
	}
	for _, dims := range []string{"[2, 3]", "[1024]"} {
		if _, err := loadScenarioText(t, text(dims)); err != nil {
			t.Errorf("dims = %s: %v", dims, err)
		}
	}
	for _, dims := range []string{"[1, 3]", "[1025]"} {
		_, err := loadScenarioText(t, text(dims))
		if err == nil || !strings.Contains(err.Error(), "s.toml:3: topology.dims: ") || !strings.Contains(err.Error(), "want a whole number from 2 to 1024") {
			t.Errorf("dims = %s: error %v, want the 2-to-1024 message at line 3", dims, err)
		}
	}
}

// A scenario file's defaults: traffics without a name are t1, t2, ... in
// file order, an on-off traffic without a burst has bursts of 10 µs on
// average, and an app's overheads may be 0. A mesh may have three
// dimensions. Kills scenfile.go's default name `i+1` turned into `i-1`,
// the default burst's `10*engine.Microsecond` into `/`, scenfile_app.go's
// durZero `v < 0` into `<=`, and the dims' `len(list) > 3` into `>=`.
func TestScenarioFileDefaultsAtTheirEdges(t *testing.T) {
	const topo = "[topology]\nkind = \"fattree\"\nk = 2\n"
	sc, _, err := grids.ParseScenario("s.toml", []byte(topo+
		"[[traffic]]\npattern = \"uniform\"\narrival = \"onoff\"\nload = 0.5\n"+
		"[[traffic]]\npattern = \"uniform\"\nsources = [\"H1\"]\n"+
		"[[app]]\nprogram = \"ring\"\nsend_overhead = \"0s\"\nrecv_overhead = \"0ns\"\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Config()
	ts, err := sc.TrafficFor(&c)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Name != "t1" || ts[1].Name != "t2" {
		t.Fatalf("traffic names %v, want t1 and t2", ts)
	}
	if ts[0].Burst != 10*engine.Microsecond {
		t.Errorf("an onoff traffic without a burst: burst %v, want 10us", ts[0].Burst)
	}
	if apps := sc.AppsFor(&c); len(apps) != 1 || apps[0].SendOverhead != 0 || apps[0].RecvOverhead != 0 {
		t.Errorf("apps %+v, want one with no send or receive overhead", apps)
	}
	if _, _, err := grids.ParseScenario("m.toml", []byte("[topology]\nkind = \"mesh\"\ndims = [2, 2, 2]\n[[traffic]]\npattern = \"uniform\"\n"), nil); err != nil {
		t.Errorf("a 2x2x2 mesh: %v", err)
	}
}

// TestMutAppRootBound checks an [[app]]'s root against the reader's bound,
// 2^20−1 like ranks: 1048576 is refused by the reader itself, naming the
// range, before any check of the ranks the app has.
func TestMutAppRootBound(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.toml")
	text := "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"bcast\"\nroot = 1048576\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := grids.LoadScenario(path)
	want := "s.toml:6: app[0].root: 1048576: want a whole number from 0 to 1048575"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestMutFloatBoundsAreInclusive checks a number field at the ends of its
// range (an [[app]]'s shm_gbps, from 0.001 to 10000): both ends are
// accepted, a value just outside either is refused with the range.
func TestMutFloatBoundsAreInclusive(t *testing.T) {
	for _, c := range []struct {
		v    string
		want string // "" accepted
	}{
		{"0.001", ""},
		{"10000", ""},
		{"0.0009", "app[0].shm_gbps: 0.0009: want a number from 0.001 to 10000"},
		{"10000.5", "app[0].shm_gbps: 10000.5: want a number from 0.001 to 10000"},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "s.toml")
		text := "[topology]\nkind = \"fattree\"\nk = 2\n[[app]]\nprogram = \"pingpong\"\nshm_gbps = " + c.v + "\n"
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := grids.LoadScenario(path)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("shm_gbps = %s: %v, want it accepted", c.v, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("shm_gbps = %s: error %v, want %q", c.v, err, c.want)
		}
	}
}
