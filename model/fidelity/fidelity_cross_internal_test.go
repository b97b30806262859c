package fidelity

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// A refit for a held group looks only at the other groups' rows: the
// points where most of them pass, every tied point kept.
func TestRefitHoldsTheGroupOut(t *testing.T) {
	groups := []string{"a", "a", "b", "c"}
	pass := [][]bool{
		{true, true, false, false},  // point 0: best on a alone
		{false, false, true, true},  // point 1: best on b and c
		{false, true, true, false},  // point 2
		{false, false, true, false}, // point 3
	}
	for _, c := range []struct {
		held              string
		fits              []int
		trained, training int
	}{
		{"a", []int{1}, 2, 2},          // rows of b and c: point 1 passes both
		{"b", []int{0}, 2, 3},          // a, a, c: point 0 passes both a
		{"c", []int{0, 2}, 2, 3},       // a, a, b: points 0 and 2 pass two each
		{"none", []int{0, 1, 2}, 2, 4}, // every row: 0, 1 and 2 pass two each
	} {
		fits, trained, training := refit(groups, pass, c.held)
		if !reflect.DeepEqual(fits, c.fits) || trained != c.trained || training != c.training {
			t.Errorf("held %s: fits %v, %d of %d; want %v, %d of %d", c.held, fits, trained, training, c.fits, c.trained, c.training)
		}
	}
}

func TestGridPointsAreTheProduct(t *testing.T) {
	got := gridPoints([]CrossAxis{{"x", []string{"1", "2"}}, {"y", []string{"a", "b", "c"}}})
	want := [][]string{{"1", "a"}, {"1", "b"}, {"1", "c"}, {"2", "a"}, {"2", "b"}, {"2", "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("grid %v, want %v", got, want)
	}
}

// Every row belongs to the group of the published source it checks: the
// SPEC §3 tables, figures 11 (victim: claims 1, 2), 12 (contributors:
// claim 3), 14 (Var: claim 4), all three (claim 5), the OMNeT++ paper's
// reading of the hardware's scenario-1 figure (claim 6; reference/002.md)
// and the hardware paper's per-flow table of scenario 2.
func TestRowsNameTheirGroup(t *testing.T) {
	want := map[string][2]string{
		"SPEC §3, CC off": {"SPEC §3 table, CC off", "table"},
		"SPEC §3, CC on":  {"SPEC §3 table, CC on", "table"},
		"claim 1":         {"fig. 11 (victim)", "figure"},
		"claim 2":         {"fig. 11 (victim)", "figure"},
		"claim 3":         {"fig. 12 (contributors)", "figure"},
		"claim 4":         {"fig. 14 (Var)", "figure"},
		"claim 5":         {"figs. 11, 12, 14 (chosen setting)", "figure"},
		"claim 6":         {"[002] OMNeT++ validation", "figure"},
		"scenario 2":      {"[000] scenario 2 table", "table"},
	}
	for _, r := range judge(goodReport()) {
		g, k := groupOf(r.Source)
		if w, ok := want[r.Source]; !ok || w != [2]string{g, k} {
			t.Errorf("%s %q: group %q, kind %q; want %v", r.Source, r.Item, g, k, w)
		}
	}
}

// The fitted parameters are those issue 27 and the README's defaults table
// name as set from the rows (ack_req_packets = 16 from claim 1's edge,
// paced_read_latency = 2us "set from claim 6"), each with rows that exist;
// the guessed ones are numbers (they are halved and doubled); and
// docs/fidelity.md lists exactly these, with the same provenance.
func TestFittedParamsListEveryFittedParameterWithItsRows(t *testing.T) {
	want := map[string]string{"ack_req_packets": "claim 1", "paced_read_latency": "claim 6"}
	readme, err := os.ReadFile("../../docs/model.md") // the defaults table
	if err != nil {
		t.Fatal(err)
	}
	// Any default whose reason says it was set from or calibrated on a claim is fitted.
	setFrom := regexp.MustCompile("(?m)^\\| `([a-z_]+)`[^|]*\\|[^|]*\\|[^|\\n]*(?:set from|calibrated on|fitted to) (claim \\d)")
	matches := setFrom.FindAllStringSubmatch(string(readme), -1)
	if len(matches) == 0 {
		t.Fatal("docs/model.md: no row of the defaults table says a value was set from a claim; has the table moved?")
	}
	for _, m := range matches {
		if w, ok := want[m[1]]; ok && w != m[2] {
			t.Errorf("docs/model.md: %s set from %s, issue 27: %s", m[1], m[2], w)
		}
		want[m[1]] = m[2]
	}
	rows := judge(goodReport())
	def0 := params.DefaultConfig()
	got := map[string]bool{}
	for _, p := range ParamProvenances {
		param := params.LookupParam(p.Name)
		if param == nil {
			t.Errorf("%s is not a parameter", p.Name)
			continue
		}
		if _, err := scaled(param, def0.Get(p.Name), 2); err != nil {
			t.Errorf("%s cannot be doubled: %v", p.Name, err)
		}
		if p.Kind != Fitted {
			if p.Kind != Guessed || len(p.Bounds) > 0 {
				t.Errorf("%s: kind %q with rows %v", p.Name, p.Kind, p.Rows())
			}
			continue
		}
		got[p.Name] = true
		claim, ok := want[p.Name]
		if !ok {
			t.Errorf("%s is listed as fitted but neither issue 27 nor docs/model.md says so", p.Name)
		}
		def := params.DefaultConfig()
		if !containsCanonical(&def, p.Name, p.Cross) {
			t.Errorf("%s: the refit grid %v leaves out the default %s", p.Name, p.Cross, def.Canonical(p.Name))
		}
		named := false
		for _, key := range p.Rows() {
			n := 0
			for _, r := range rows {
				if strings.HasPrefix(r.Source+": "+r.Item, key) {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s: fitted on %q, which names no row", p.Name, key)
			}
			named = named || strings.HasPrefix(key, claim+": ")
		}
		if !named {
			t.Errorf("%s: rows %v leave out %s", p.Name, p.Rows(), claim)
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("%s is fitted (issue 27 / README) but not listed as fitted", name)
		}
	}

	doc, err := os.ReadFile("../../docs/fidelity.md")
	if err != nil {
		t.Fatal(err)
	}
	docRow := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| [^|]+ \\| (fitted|guessed|published) \\|")
	inDoc := map[string]string{}
	for _, m := range docRow.FindAllStringSubmatch(string(doc), -1) {
		if _, dup := inDoc[m[1]]; !dup {
			inDoc[m[1]] = m[2]
		}
	}
	for _, p := range ParamProvenances {
		if inDoc[p.Name] != p.Kind {
			t.Errorf("docs/fidelity.md: %s is %q, want %q", p.Name, inDoc[p.Name], p.Kind)
		}
		delete(inDoc, p.Name)
	}
	for name, kind := range inDoc {
		t.Errorf("docs/fidelity.md lists %s as %s; the code does not", name, kind)
	}
}

func containsCanonical(c *params.Config, name string, values []string) bool {
	def := c.Canonical(name)
	for _, v := range values {
		d := *c
		if d.Set(name, v) == nil && d.Canonical(name) == def {
			return true
		}
	}
	return false
}

// A held-out row passes only if it passes at every best fit: a fit as good
// as another on the other groups that fails it means the row is not
// predicted.
func TestHeldOutNeedsEveryBestFit(t *testing.T) {
	for _, c := range []struct {
		fitsPassing []int
		want        bool
	}{{[]int{2, 2}, true}, {[]int{2, 1}, false}, {[]int{0, 2}, false}} {
		g := CrossGroup{Fits: []int{3, 5}, FitsPassing: c.fitsPassing}
		if g.HeldOut() != c.want {
			t.Errorf("rows passing at %v of 2 fits: held out %v, want %v", c.fitsPassing, g.HeldOut(), c.want)
		}
	}
}

// Issue 27's done-when: no fitted parameter rests on one claim. Each fitted
// value is bounded from below and from above, on each side by at least two
// distinct published sources: rows that exist (a source is the part of the
// row before ": ") or published physical quantities, which name no row and
// cite where their number comes from. Each bound's failing value (for a
// physical quantity, the quantity itself) lies on its side of the default.
func TestFittedParamsAreBoundedByTwoSources(t *testing.T) {
	rows := judge(goodReport())
	number := func(p *params.Param, v any) float64 {
		switch x := v.(type) {
		case int:
			return float64(x)
		case float64:
			return x
		case engine.Time:
			return float64(x)
		}
		t.Fatalf("%s: %v is not a number", p.Name, v)
		return 0
	}
	fitted := 0
	for _, p := range ParamProvenances {
		if p.Kind != Fitted {
			if len(p.Bounds) > 0 || p.Allows != "" {
				t.Errorf("%s is %s but has bounds %v", p.Name, p.Kind, p.Bounds)
			}
			continue
		}
		fitted++
		param := params.LookupParam(p.Name)
		def := params.DefaultConfig()
		dv := number(param, def.Get(p.Name))
		below, above := map[string]bool{}, map[string]bool{}
		for _, b := range p.Bounds {
			if b.Physical != "" {
				if b.Row != "" || b.FullPlane || len(b.Physical) < 40 {
					t.Errorf("%s: physical bound %q names row %q (full plane %v); want no row and a citation", p.Name, b.Physical, b.Row, b.FullPlane)
				}
			} else {
				named := 0
				for _, r := range rows {
					if strings.HasPrefix(r.Source+": "+r.Item, b.Row) {
						named++
					}
				}
				if !strings.Contains(b.Row, ": ") || named == 0 {
					t.Errorf("%s: bound %q names no row", p.Name, b.Row)
				}
			}
			fv, err := param.Parse(b.Fails)
			if err != nil {
				t.Errorf("%s: bound %q fails at %q: %v", p.Name, b.Source(), b.Fails, err)
				continue
			}
			switch f := number(param, fv); {
			case b.Below && f < dv:
				below[b.Source()] = true
			case !b.Below && f > dv:
				above[b.Source()] = true
			default:
				t.Errorf("%s: bound %q (below %v) fails at %s, on the wrong side of the default %s", p.Name, b.Source(), b.Below, b.Fails, def.Canonical(p.Name))
			}
		}
		if len(below) < 2 || len(above) < 2 {
			t.Errorf("%s: bounded from below by %q, from above by %q; want two published sources on each side", p.Name, keys(below), keys(above))
		}
		if p.Allows == "" {
			t.Errorf("%s: no interval", p.Name)
		}
	}
	if fitted == 0 {
		t.Error("no fitted parameter")
	}
}

func keys(m map[string]bool) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// Sensitivity halves and doubles each parameter, integers rounded down:
// an int, a float and a duration.
func TestMutScaledHalvesAndDoubles(t *testing.T) {
	for _, c := range []struct {
		name   string
		v      any
		factor float64
		want   any
	}{
		{"ack_req_packets", 15, 0.5, 7},
		{"ack_req_packets", 16, 2.0, 32},
		{"host_io_gbps", 13.0, 0.5, 6.5},
		{"host_io_gbps", 13.0, 2.0, 26.0},
		{"paced_read_latency", 2500 * engine.Nanosecond, 0.5, 1250 * engine.Nanosecond},
		{"paced_read_latency", 2500 * engine.Nanosecond, 2.0, 5000 * engine.Nanosecond},
	} {
		got, err := scaled(params.LookupParam(c.name), c.v, c.factor)
		if err != nil || got != c.want {
			t.Errorf("scaled(%s %v × %g) = %v, %v; want %v", c.name, c.v, c.factor, got, err, c.want)
		}
	}
}

// A refit where no point passes any row outside the held group: every
// point ties at 0 rows, and all of them are the best fits.
func TestMutRefitWhereNothingPasses(t *testing.T) {
	groups := []string{"a", "b", "b"}
	pass := [][]bool{{true, false, false}, {false, false, false}, {true, false, false}}
	fits, trained, training := refit(groups, pass, "a")
	if !reflect.DeepEqual(fits, []int{0, 1, 2}) || trained != 0 || training != 2 {
		t.Errorf("fits %v, %d of %d; want [0 1 2], 0 of 2", fits, trained, training)
	}
}
