package report

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// randomGridDB stores a 4x3 grid over ccti_timer and marking_rate whose
// victim and contributor throughput and fairness are drawn from few values
// (ties are common), one seed each.
func randomGridDB(t *testing.T, rng *rand.Rand) (*store.DB, store.GridRecord) {
	t.Helper()
	g, err := grids.Parse("g.toml", []byte(`
name = "random"
scenario = "testbed-s1"
[sweep]
ccti_timer   = ["100us", "200us", "300us", "400us"]
marking_rate = [1, 2, 4]
`))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ctx := context.Background()
	rec := store.GridRecord{ID: "random-grid", Name: g.Name, Scenario: g.Scenario, ModelVersion: "test", Canonical: g.Canonical()}
	if err := db.SaveGrid(ctx, rec); err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	for _, pt := range g.Points() {
		tm, _ := pt.Value("ccti_timer")
		mr, _ := pt.Value("marking_rate")
		rs = append(rs, store.Result{ID: tm + "/" + mr, GridID: rec.ID, Point: store.Point{Scenario: "testbed-s1", Seed: 1,
			Params: []store.Param{{Name: "ccti_timer", Value: tm}, {Name: "marking_rate", Value: mr}}},
			Status: store.StatusDone, ModelVersion: "test",
			Metrics: map[string]float64{
				"victim_gbps":       float64(8 + rng.IntN(5)),
				"contributors_gbps": float64(rng.IntN(4)),
				"fairness_jain":     float64(rng.IntN(3)) / 2,
			}})
	}
	if err := db.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	return db, rec
}

// TestParetoFrontAgainstBruteForce ranks random grids by two objectives
// (each maximized or minimized, sometimes under a constraint) and checks
// the report's front cells, and the Pareto chart's series, against the
// front found by brute force over the cells' means: the feasible cells no
// other feasible cell matches or beats on both objectives while beating on
// one.
func TestParetoFrontAgainstBruteForce(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 11))
		db, rec := randomGridDB(t, rng)
		g, err := LoadGrid(ctx, db, rec)
		if err != nil {
			t.Fatal(err)
		}
		x, _ := rank.ParseObjective("victim_gbps", seed%2 == 0)
		y, _ := rank.ParseObjective("contributors_gbps", seed < 2)
		q := rank.Query{Objectives: []rank.Objective{x, y}}
		if seed%3 != 0 {
			w, err := grids.CompileMetricExpr("fairness_jain >= 0.5")
			if err != nil {
				t.Fatal(err)
			}
			q.Where = []*grids.MetricExpr{w}
		}
		if err := g.recommend(ctx, db, q); err != nil {
			t.Fatal(err)
		}
		r := g.Answer
		feasible := func(c *Cell) bool { return len(q.Where) == 0 || c.Mean["fairness_jain"] >= 0.5 }
		// better is +1 when a beats b on o, -1 when b beats a, 0 on a tie.
		better := func(o rank.Objective, a, b *Cell) int {
			d := a.Mean[o.Metric] - b.Mean[o.Metric]
			if !o.Maximize {
				d = -d
			}
			switch {
			case d > 0:
				return 1
			case d < 0:
				return -1
			}
			return 0
		}
		var want, infeasible []int
		for i := range g.Cells {
			c := g.Cells[i]
			if !feasible(c) {
				infeasible = append(infeasible, i)
				continue
			}
			dominated := false
			for j := range g.Cells {
				d := g.Cells[j]
				if j == i || !feasible(d) {
					continue
				}
				bx, by := better(x, d, c), better(y, d, c)
				if bx >= 0 && by >= 0 && bx+by > 0 {
					dominated = true
				}
			}
			if !dominated {
				want = append(want, i)
			}
		}
		got := slices.Clone(r.Front)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d, %v %v where %d: front cells %v, want %v", seed, x, y, len(q.Where), got, want)
		}
		if len(want) > 0 && !slices.Contains(want, r.Best) {
			t.Errorf("seed %d: recommended cell %d is not on the front %v", seed, r.Best, want)
		}
		if len(want) == 0 && r.Best != -1 {
			t.Errorf("seed %d: no feasible cell, yet cell %d recommended", seed, r.Best)
		}

		// The chart: the front joined in order of the first objective, the
		// recommendation among it, and the cells failing the constraint
		// apart.
		c := paretoChart(g, 0)
		var opt struct {
			Series []struct {
				Name string `json:"name"`
				Data []struct {
					Value []any `json:"value"`
				} `json:"data"`
			} `json:"series"`
		}
		if err := json.Unmarshal(c.Options[0], &opt); err != nil {
			t.Fatal(err)
		}
		series := map[string][]int{}
		for _, s := range opt.Series {
			var prev float64
			for k, item := range s.Data {
				d := item.Value
				v, ci := d[0].(float64), int(d[2].(float64))
				if s.Name == "Pareto front" && k > 0 && v < prev {
					t.Errorf("seed %d: the front's line goes back from %g to %g", seed, prev, v)
				}
				prev = v
				if cell := g.Cells[ci]; v != cell.Mean[x.Metric] || d[1].(float64) != cell.Mean[y.Metric] {
					t.Errorf("seed %d: %s point %v does not plot cell %d's means", seed, s.Name, d, ci)
				}
				series[s.Name] = append(series[s.Name], ci)
			}
			slices.Sort(series[s.Name])
		}
		if !slices.Equal(series["Pareto front"], want) {
			t.Errorf("seed %d: chart's front %v, want %v", seed, series["Pareto front"], want)
		}
		if wantBest := []int{r.Best}; r.Best >= 0 && !slices.Equal(series["recommended"], wantBest) {
			t.Errorf("seed %d: chart's recommendation %v, want %v", seed, series["recommended"], wantBest)
		}
		if !slices.Equal(series["fails a constraint"], infeasible) {
			t.Errorf("seed %d: chart's infeasible cells %v, want %v", seed, series["fails a constraint"], infeasible)
		}
		if n := len(series["other points"]) + len(want) + len(infeasible); n != len(g.Cells) {
			t.Errorf("seed %d: the chart plots %d cells of %d", seed, n, len(g.Cells))
		}
	}
}
