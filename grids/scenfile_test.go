package grids_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

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
