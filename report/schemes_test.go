package report

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// schemeVictim is the made-up victim throughput of a scheme's point: each
// scheme peaks somewhere else, so that a wrong best point shows.
var schemeVictim = map[string]func(timer, rate float64) float64{
	"off":     func(timer, rate float64) float64 { return 2 + timer/1000 },
	"on":      func(timer, rate float64) float64 { return 12 - rate - timer/100 },
	"santos":  func(timer, rate float64) float64 { return 5 + rate },
	"nicrate": func(timer, rate float64) float64 { return 13 - timer/200 + rate/10 },
}

// schemesDB holds a grid sweeping cc over four schemes × ccti_timer ×
// marking_rate with made-up metrics (schemeVictim; var = rate/10 + timer/1000).
func schemesDB(t *testing.T) (*store.DB, store.GridRecord) {
	t.Helper()
	return storeGrid(t, `
name = "schemes"
scenario = "testbed-s1"
[sweep]
cc           = ["off", "ib", "santos", "nicrate"]
ccti_timer   = ["50us", "100us", "200us"]
marking_rate = [1, 2, 4]
`, nil, func(pt grids.Point) map[string]float64 {
		cc, _ := pt.Value("cc")
		timer, rate := num(t, pt, "ccti_timer")/1e6, num(t, pt, "marking_rate")
		return map[string]float64{"victim_gbps": schemeVictim[cc](timer, rate), "contributors_gbps": 3, "var": rate/10 + timer/1000}
	})
}

// TestSchemesSideBySide checks the comparison of a grid with cc as an
// axis: one slice of the surface per scheme at the same other values, each
// scheme's best point by the primary metric or the user's query, and heat
// maps that share one colour scale across the schemes.
func TestSchemesSideBySide(t *testing.T) {
	db, rec := schemesDB(t)
	ctx := context.Background()
	g, err := LoadGrid(ctx, db, rec)
	if err != nil {
		t.Fatal(err)
	}
	c := g.Compare
	if c == nil {
		t.Fatal("no comparison for a grid sweeping cc")
	}
	if want := []string{"off", "on", "santos", "nicrate"}; !slices.Equal(c.Schemes, want) {
		t.Fatalf("schemes %v, want %v", c.Schemes, want)
	}
	if c.Surface < 0 {
		t.Fatal("no surface compared")
	}
	s := g.Surfaces[c.Surface]
	cc := slices.IndexFunc(g.Dims, func(d Dim) bool { return d.Name == "cc" })
	for k, sl := range c.Slices {
		if sl < 0 {
			t.Fatalf("scheme %s has no slice", c.Schemes[k])
		}
		for _, row := range s.Slices[sl].Cells {
			for _, ci := range row {
				if got := g.Cells[ci].Key[cc]; got != c.Schemes[k] {
					t.Errorf("slice of %s holds a cell of cc %s", c.Schemes[k], got)
				}
			}
		}
	}
	// The best of each scheme by victim_gbps, from schemeVictim's peaks.
	wantBest := map[string]string{"off": "200us/1", "on": "50us/1", "santos": "50us/4", "nicrate": "50us/4"}
	checkBest := func(want map[string]string) {
		t.Helper()
		for k, ci := range c.Best {
			if ci < 0 {
				t.Fatalf("scheme %s: no best point", c.Schemes[k])
			}
			p := g.Cells[ci].Params
			v := func(n string) string {
				i := slices.IndexFunc(p, func(q store.Param) bool { return q.Name == n })
				return p[i].Value
			}
			if got := v("ccti_timer") + "/" + v("marking_rate"); got != want[c.Schemes[k]] || v("cc") != c.Schemes[k] {
				t.Errorf("best of %s: cc=%s %s, want %s", c.Schemes[k], v("cc"), got, want[c.Schemes[k]])
			}
		}
	}
	checkBest(wantBest)

	// One colour scale per metric across the schemes' heat maps, spanning
	// every scheme's values.
	rows := comparisonCharts(g, 0)
	for i, row := range rows {
		var ranges [][2]float64
		for _, ch := range row {
			var opt struct {
				VisualMap []struct{ Min, Max float64 } `json:"visualMap"`
			}
			if err := json.Unmarshal(ch.Options[0], &opt); err != nil {
				t.Fatal(err)
			}
			ranges = append(ranges, [2]float64{opt.VisualMap[0].Min, opt.VisualMap[0].Max})
		}
		for _, r := range ranges[1:] {
			if r != ranges[0] {
				t.Errorf("%s: colour scales %v differ between schemes", surfaceMetrics(g)[i], ranges)
			}
		}
		if m := surfaceMetrics(g)[i]; m == "victim_gbps" && (ranges[0][0] > 2.05 || ranges[0][1] < 13) {
			t.Errorf("victim colour scale %v does not span off's 2.05 to nicrate's 13.x", ranges[0])
		}
	}

	// The user's objective: the least var, whatever the victim.
	q := rank.Query{Objectives: []rank.Objective{{Metric: "var", Weight: 1}}}
	if err := g.compare(ctx, db, &q); err != nil {
		t.Fatal(err)
	}
	c = g.Compare
	checkBest(map[string]string{"off": "50us/1", "on": "50us/1", "santos": "50us/1", "nicrate": "50us/1"})
	if !slices.Equal(c.Objectives, []string{"minimize var"}) {
		t.Errorf("objectives %v", c.Objectives)
	}

	// The page: a section with a heat map per scheme and metric and the
	// table of best points, scheme ib named as such.
	var buf bytes.Buffer
	if err := Write(ctx, &buf, db, Options{Now: time.Unix(0, 0), Query: &q}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{"Schemes side by side", "g0-cmp-victim_gbps-3", "cc nicrate", "<td>ib</td>", "best point of each scheme by minimize var"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestNoComparisonWithOneScheme: a grid with one cc value gets no
// side-by-side view.
func TestNoComparisonWithOneScheme(t *testing.T) {
	db, rec := refinedDB(t)
	g, err := LoadGrid(context.Background(), db, rec)
	if err != nil {
		t.Fatal(err)
	}
	if g.Compare != nil {
		t.Errorf("comparison %+v for a grid without a cc axis", g.Compare)
	}
}

// The best-point table of a comparison names each scheme's best cell, also
// when that is the grid's first cell.
func TestSchemeBestAtTheFirstCell(t *testing.T) {
	g := gridOf(t, `
name = "schemes-first"
scenario = "testbed-s1"
[sweep]
cc           = ["off", "ib"]
ccti_timer   = ["50us", "100us"]
marking_rate = [1, 2]
`, nil, func(pt grids.Point) map[string]float64 {
		// Best at the shortest timer and the lowest rate, for each scheme.
		return map[string]float64{"victim_gbps": 20 - num(t, pt, "ccti_timer")/50e6 - num(t, pt, "marking_rate")}
	})
	if g.Compare == nil {
		t.Fatal("no comparison")
	}
	v := compareViewOf(g, 0, func(c *Chart) *Chart { return c })
	if len(v.Best) != 2 {
		t.Fatalf("%d rows of best points", len(v.Best))
	}
	for _, b := range v.Best {
		if b.Where == "no point done" || len(b.Values) == 0 {
			t.Errorf("scheme %v: best %q %v", b.Scheme, b.Where, b.Values)
		}
	}
}
