package grids_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// schemeGrid is a grid comparing IB CC with santos, santos.m swept, under
// the where constraint where.
func schemeGrid(cc, where string) string {
	return "name = \"s\"\nscenario = \"testbed-s1\"\nwhere = [" + where + "]\n[sweep]\ncc = " + cc +
		"\n\"santos.m\" = [2, 4]\nmarking_rate = [1, 2]\n"
}

// pointsOf is each point of g as cc/santos.m/marking_rate.
func pointsOf(g *grids.Grid) []string {
	var out []string
	for _, p := range g.Points() {
		cc, _ := p.Value("cc")
		m, _ := p.Value("santos.m")
		mr, _ := p.Value("marking_rate")
		out = append(out, cc+"/"+m+"/"+mr)
	}
	return out
}

// TestWhereOnASchemesParameterNeedsTheScheme: on a point of IB CC, santos.m
// has no value (the point leaves it out, the export leaves it empty), so a
// where constraint reading it on such points, without reading the scheme,
// is refused at its line with the guard to write, instead of dropping or
// keeping IB's points by santos' default m (santos.m > 2 dropped every IB
// point). Guarded, or in a grid of santos alone, the constraint is
// evaluated as written.
func TestWhereOnASchemesParameterNeedsTheScheme(t *testing.T) {
	for _, where := range []string{`"santos.m > 2"`, `"santos.m < 3"`, `"marking_rate == 1 && santos['m'] >= 2"`, `"marking_rate == 2", "!cc || santos.m > 2"`} {
		_, err := grids.Parse("g.toml", []byte(schemeGrid(`["ib", "santos"]`, where)))
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		for _, want := range []string{"g.toml:3: where: ", "reads santos.m, a parameter of cc santos, on points of cc ib", `guard it: scheme != "santos" || (`} {
			if !strings.Contains(msg, want) {
				t.Errorf("where = [%s] over cc ib and santos: error %q, want it to say %q", where, msg, want)
			}
		}
		if strings.Count(msg, "\n") > 0 {
			t.Errorf("where = [%s]: error of several lines %q, want one", where, msg)
		}
	}
	for _, tc := range []struct {
		cc, where string
		want      []string
	}{
		{`["ib", "santos"]`, `"scheme != 'santos' || santos.m > 2"`, []string{"on//1", "on//2", "santos/4/1", "santos/4/2"}},
		{`["ib", "santos"]`, `"scheme == 'santos' && santos.m > 2"`, []string{"santos/4/1", "santos/4/2"}},
		{`["ib", "santos"]`, `"marking_rate == 1"`, []string{"on//1", "santos/2/1", "santos/4/1"}},
		{`["santos"]`, `"santos.m > 2"`, []string{"santos/4/1", "santos/4/2"}},
	} {
		g, err := grids.Parse("g.toml", []byte(schemeGrid(tc.cc, tc.where)))
		if err != nil {
			t.Errorf("cc = %s, where = [%s]: %v", tc.cc, tc.where, err)
			continue
		}
		if got := pointsOf(g); !slices.Equal(got, tc.want) {
			t.Errorf("cc = %s, where = [%s]: points %v, want %v", tc.cc, tc.where, got, tc.want)
		}
	}
}

// TestStoredGridWithAnUnguardedSchemeParameterExpandsAsBefore: a grid
// stored before such constraints were refused expands from its database
// as it was run (santos' default m on IB's points: santos.m > 2 kept no IB
// point), so its points keep their results.
func TestStoredGridWithAnUnguardedSchemeParameterExpandsAsBefore(t *testing.T) {
	g, err := grids.Parse("g.toml", []byte(schemeGrid(`["ib", "santos"]`, `"scheme != 'santos' || santos.m > 2"`)))
	if err != nil {
		t.Fatal(err)
	}
	c := g.CanonicalForm()
	c.Grids[0].Where = []string{"santos.m > 2"}
	old, err := c.Grid()
	if err != nil {
		t.Fatalf("the stored grid: %v", err)
	}
	if got, want := pointsOf(old), []string{"santos/4/1", "santos/4/2"}; !slices.Equal(got, want) {
		t.Errorf("the stored grid's points %v, want %v", got, want)
	}
}

// TestMetricExprOnASchemesParameterNeedsTheScheme: `best --where` and a
// [refine] where (MetricExprs) read a scheme's parameter as a grid's where
// does: on a point of another scheme, without reading the scheme, it is an
// error that shows the guard, not santos' default m.
func TestMetricExprOnASchemesParameterNeedsTheScheme(t *testing.T) {
	ib := []grids.Param{{Name: "cc", Value: "on"}}
	santos := []grids.Param{{Name: "cc", Value: "santos"}, {Name: "santos.m", Value: "4"}}
	bare, err := grids.CompileMetricExpr("santos.m > 2")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := bare.Eval(santos, nil); err != nil || !ok {
		t.Errorf("santos.m > 2 on santos with m 4: %v, %v; want true", ok, err)
	}
	_, err = bare.Eval(ib, nil)
	if err == nil || !strings.Contains(err.Error(), `"santos.m > 2": reads santos.m, a parameter of cc santos, on points of cc ib`) {
		t.Errorf("santos.m > 2 on an IB point: error %v, want the guard message", err)
	}
	guarded, err := grids.CompileMetricExpr("scheme != 'santos' || santos.m > 2")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][]grids.Param{ib, santos} {
		if ok, err := guarded.Eval(p, nil); err != nil || !ok {
			t.Errorf("guarded on %v: %v, %v; want true", p, ok, err)
		}
	}
}

// TestRefineWhereOnASchemesParameterIsRefusedAtItsLine: a [refine] where
// that would read a scheme's parameter on another scheme's points is
// refused when the grid is parsed, at its line, not after the first round
// ran, on whichever sub-grid's points (a [[grid]] element's); guarded, or
// in a grid whose points all have that scheme (a fixed cc, or one element
// with cc santos), it is kept.
func TestRefineWhereOnASchemesParameterIsRefusedAtItsLine(t *testing.T) {
	grid := func(sweep, where string) string {
		return "name = \"r\"\nscenario = \"testbed-s1\"\n" + sweep + "\n[refine]\npoints = 10\nwhere = [\n  \"marking_rate > 0\",\n  " + where + ",\n]\n"
	}
	two := "[sweep]\ncc = [\"ib\", \"santos\"]\nmarking_rate = [1, 2]"
	_, err := grids.Parse("r.toml", []byte(grid(two, `"santos.m > 1"`)))
	want := `r.toml:10: refine.where: "santos.m > 1": reads santos.m, a parameter of cc santos, on points of cc ib, where it has no value; guard it: scheme != "santos" || (santos.m > 1)`
	if err == nil || err.Error() != want {
		t.Errorf("unguarded over ib and santos: %v\nwant %s", err, want)
	}
	elements := "[[grid]]\ncc = \"santos\"\n[grid.sweep]\nmarking_rate = [1, 2]\n[[grid]]\ncc = \"nicrate\"\n[grid.sweep]\nmarking_rate = [1, 2]"
	_, err = grids.Parse("r.toml", []byte(grid(elements, `"santos.m > 1"`)))
	if err == nil || !strings.Contains(err.Error(), "on points of cc nicrate") {
		t.Errorf("unguarded over [[grid]] elements of santos and nicrate: %v; want it refused on nicrate's points", err)
	}
	for name, g := range map[string]string{
		"guarded":     grid(two, `"scheme != 'santos' || santos.m > 1"`),
		"santos only": grid("cc = \"santos\"\n[sweep]\nmarking_rate = [1, 2]", `"santos.m > 1"`),
		"one element": grid("[[grid]]\ncc = \"santos\"\n[grid.sweep]\nmarking_rate = [1, 2]", `"santos.m > 1"`),
	} {
		parsed, err := grids.Parse("r.toml", []byte(g))
		if err != nil {
			t.Errorf("%s: %v; want it parsed", name, err)
			continue
		}
		if n := len(parsed.Refine.Where); n != 2 {
			t.Errorf("%s: %d refine constraints, want 2", name, n)
		}
	}
}
