package grids_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
)

// TestCCSpellingsKeepIdentity checks that every spelling of IB CC (on,
// true, ib) and of none (off, false) gives the points of today's cc = "on"
// and cc = "off", so databases keep their points.
func TestCCSpellingsKeepIdentity(t *testing.T) {
	ids := func(cc string) []string {
		g, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\ncc = "+cc+"\n[sweep]\nccti_timer = [\"100us\", \"200us\"]\n"))
		if err != nil {
			t.Fatalf("cc = %s: %v", cc, err)
		}
		var out []string
		for _, p := range g.Points() {
			if v, _ := p.Value("cc"); v != "on" && v != "off" {
				t.Errorf("cc = %s: canonical value %q, want on or off", cc, v)
			}
			out = append(out, grids.PointID(p, model.Version))
		}
		return out
	}
	on := ids(`"on"`)
	for _, cc := range []string{`true`, `"ib"`, `"true"`} {
		if got := ids(cc); got[0] != on[0] || got[1] != on[1] {
			t.Errorf("cc = %s: IDs %v, want those of cc = \"on\" %v", cc, got, on)
		}
	}
	off := ids(`"off"`)
	if got := ids(`false`); got[0] != off[0] || off[0] == on[0] {
		t.Errorf("cc = false: IDs %v, want those of cc = \"off\" %v (and unlike on's)", got, off)
	}
}

// TestSchemeAxis checks a cc axis over schemes with a scheme's parameter
// swept beside it, written as a TOML dotted key, and that where
// expressions see the scheme. santos.m applies only where cc is santos:
// the other schemes' points leave it out and run once, not once per value.
func TestSchemeAxis(t *testing.T) {
	src := `name = "s"
scenario = "testbed-s1"
where = ["scheme != 'nicrate' && (cc || marking_rate == 1)", "scheme != 'off' || santos.m < 3"]
[sweep]
cc = ["off", "ib", "santos", "nicrate"]
santos.m = [2, 4]
`
	g, err := grids.Parse("s.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range g.Points() {
		cc, _ := p.Value("cc")
		m, _ := p.Value("santos.m")
		got = append(got, cc+"/"+m)
	}
	want := []string{"off/", "on/", "santos/2", "santos/4"}
	if len(got) != len(want) {
		t.Fatalf("points %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("points %v, want %v", got, want)
		}
	}
	x := g.Index()
	if g.Count() != len(want) || x.Len() != len(want) {
		t.Errorf("Count %d, Index.Len %d; want %d", g.Count(), x.Len(), len(want))
	}
	for i, p := range g.Points() {
		if grids.PointID(x.Point(i), "m") != grids.PointID(p, "m") {
			t.Errorf("Index.Point(%d) differs from Points()[%d]", i, i)
		}
	}
	for _, p := range g.Points() {
		c, err := grids.PointConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		if cc, _ := p.Value("cc"); c.CC.Scheme != params.SchemeOf(cc) {
			t.Errorf("cc %s gives scheme %q", cc, c.CC.Scheme)
		}
	}
}

// TestScenarioFlowRates checks a scenario file's [[flow]] rate: it reaches
// the flow, nicrate admits it at that rate and refuses what would
// oversubscribe, and a negative rate is a file:line error.
func TestScenarioFlowRates(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rates.toml")
	src := `name = "rates"
phases = 1
[params]
cc = "nicrate"
phase = "5ms"
[topology]
kind = "fattree"
k = 4
levels = 1
[[flow]]
src = "H1"
dst = "H4"
rate = 4.5
[[flow]]
src = "H2"
dst = "H4"
rate = 8
[[flow]]
src = "H3"
dst = "H4"
rate = 9
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := grids.LoadScenario(path)
	if err != nil {
		t.Fatal(err)
	}
	res, err := model.Run(sc, sc.Config(), 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, f := range res.Flows {
		got = append(got, f.AdmittedGbps)
	}
	if want := []float64{4.5, 8, 0}; !slices.Equal(got, want) {
		t.Errorf("admitted %v Gbit/s, want %v (9 more would oversubscribe H4)", got, want)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(src, "rate = 9", "rate = -9", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := grids.LoadScenario(path); err == nil || !strings.Contains(err.Error(), "rates.toml:21: flow[2].rate") {
		t.Errorf("negative rate: %v, want an error at rates.toml:21: flow[2].rate", err)
	}
}
