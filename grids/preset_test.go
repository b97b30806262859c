package grids_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
)

func mustParse(t *testing.T, text string) *grids.Grid {
	t.Helper()
	g, err := grids.Parse("preset.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestPresetAxisExpandsToDistinctPoints: a grid sweeping preset has a
// point per preset, each configured with its preset; the table1 point is
// the grid's default point (same ID as without preset), and a parameter
// fixed by name holds in every point, although grids apply parameters in
// name order (ccti_increase before preset).
func TestPresetAxisExpandsToDistinctPoints(t *testing.T) {
	g := mustParse(t, `
name = "presets"
scenario = "testbed-s1"
cc = "on"
ccti_increase = 2
[sweep]
preset = ["table1", "ccmgr", "opa"]
`)
	plain := mustParse(t, `
name = "plain"
scenario = "testbed-s1"
cc = "on"
ccti_increase = 2
`)
	pts := g.Points()
	if len(pts) != 3 {
		t.Fatalf("%d points, want 3", len(pts))
	}
	ids := map[string]string{}
	want := map[string]map[string]string{ // per preset: fields its documents give
		"table1": {"marking_rate": "1", "ccti_timer": "150us", "cct": "quadratic", "threshold": "15"},
		"ccmgr":  {"marking_rate": "10", "ccti_timer": "150us", "cct": "quadratic", "threshold": "15"},
		"opa":    {"marking_rate": "0", "ccti_timer": "10.24us", "cct": "linear", "threshold": "8"},
	}
	for _, p := range pts {
		name, _ := p.Value("preset")
		ids[grids.PointID(p, model.Version)] = name
		c, err := grids.PointConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		if c.Canonical("ccti_increase") != "2" {
			t.Errorf("%s: ccti_increase %s, want the grid's 2 over the preset's", name, c.Canonical("ccti_increase"))
		}
		for field, v := range want[name] {
			if c.Canonical(field) != v {
				t.Errorf("%s: %s = %s, want %s", name, field, c.Canonical(field), v)
			}
		}
	}
	if len(ids) != 3 {
		t.Errorf("IDs not distinct: %v", ids)
	}
	if base := grids.PointID(plain.Points()[0], model.Version); ids[base] != "table1" {
		t.Errorf("the default point %s is not the table1 point (IDs %v)", base, ids)
	}
	back, err := grids.ParseCanonical([]byte(g.Canonical()))
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range back.Points() {
		if grids.PointID(p, model.Version) != grids.PointID(pts[i], model.Version) {
			t.Errorf("point %d: ID %s from the canonical form, %s from the file", i, grids.PointID(p, model.Version), grids.PointID(pts[i], model.Version))
		}
	}
}

// TestWhereSeesAPresetsFields: a constraint on a field reads the value the
// point's preset gives it.
func TestWhereSeesAPresetsFields(t *testing.T) {
	g := mustParse(t, `
name = "presets"
scenario = "testbed-s1"
cc = "on"
where = ["ccti_timer >= 100"]
[sweep]
preset = ["table1", "ccmgr", "opa"]
`)
	var kept []string
	for _, p := range g.Points() {
		v, _ := p.Value("preset")
		kept = append(kept, v)
	}
	if strings.Join(kept, ",") != "table1,ccmgr" {
		t.Errorf("kept %v, want table1 and ccmgr: opa's CCTI timer is 10.24us", kept)
	}
}

// TestCCTAxisAndBadValues: cct sweeps like any parameter, tables included,
// and bad preset or cct values are reported at their key and line.
func TestCCTAxisAndBadValues(t *testing.T) {
	g := mustParse(t, `
name = "ccts"
scenario = "testbed-s1"
[sweep]
cct = ["quadratic", "linear", "table:0, 1us, 2us"]
`)
	var vals []string
	for _, p := range g.Points() {
		v, _ := p.Value("cct")
		vals = append(vals, v)
	}
	if strings.Join(vals, " ") != "quadratic linear table:0s,1us,2us" {
		t.Errorf("cct values %q", vals)
	}
	for _, tc := range []struct{ text, want string }{
		{"name = \"b\"\nscenario = \"testbed-s1\"\n[sweep]\npreset = [\"table1\", \"mlnx\"]\n",
			"preset.toml:4: sweep.preset: \"mlnx\": want one of table1, ccmgr, opa"},
		{"name = \"b\"\nscenario = \"testbed-s1\"\ncct = \"table:2us,1us\"\n",
			"preset.toml:3: cct:"},
	} {
		_, err := grids.Parse("preset.toml", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// TestScenarioFileDefaultsAndPresets: a scenario file's parameters count
// as set by name, so a grid's preset leaves them alone; and a scenario
// file may choose a preset itself, which then is the point without one.
func TestScenarioFileDefaultsAndPresets(t *testing.T) {
	dir := t.TempDir()
	src, _ := os.ReadFile(filepath.Join("testdata", "scenarios", "ft-hotspot.toml"))
	src = bytes.Replace(src, []byte("[params]\n"), []byte("[params]\ncc = \"on\"\npreset = \"opa\"\nthreshold = 10\n"), 1)
	os.WriteFile(filepath.Join(dir, "ft.toml"), src, 0o644)
	load := func(text string) *grids.Grid {
		t.Helper()
		path := filepath.Join(dir, "g.toml")
		os.WriteFile(path, []byte(text), 0o644)
		g, err := grids.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	swept := load("name = \"g\"\nscenario = \"ft.toml\"\n[sweep]\npreset = [\"table1\", \"opa\"]\n")
	plain := load("name = \"p\"\nscenario = \"ft.toml\"\n")
	want := map[string]map[string]string{
		"table1": {"threshold": "10", "ccti_increase": "1", "cct": "quadratic"},
		"opa":    {"threshold": "10", "ccti_increase": "5", "cct": "linear"},
	}
	ids := map[string]string{}
	for _, p := range swept.Points() {
		name, _ := p.Value("preset")
		ids[name] = grids.PointID(p, model.Version)
		c, err := grids.PointConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		for field, v := range want[name] {
			if c.Canonical(field) != v {
				t.Errorf("%s: %s = %s, want %s", name, field, c.Canonical(field), v)
			}
		}
	}
	c, err := grids.PointConfig(plain.Points()[0])
	if err != nil {
		t.Fatal(err)
	}
	for field, v := range want["opa"] {
		if c.Canonical(field) != v {
			t.Errorf("without a preset: %s = %s, want the scenario's %s", field, c.Canonical(field), v)
		}
	}
	if id := grids.PointID(plain.Points()[0], model.Version); id != ids["opa"] || id == ids["table1"] {
		t.Errorf("the scenario's point %s, opa's %s, table1's %s: want opa's only", id, ids["opa"], ids["table1"])
	}
}
