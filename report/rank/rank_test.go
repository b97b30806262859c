package rank_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// result is a hand-made done result of one seed.
func result(seed uint64, params map[string]string, metrics map[string]float64) store.Result {
	r := store.Result{ID: fmt.Sprint(params, seed), Point: store.Point{Scenario: "testbed-s1", Seed: seed},
		Status: store.StatusDone, Metrics: metrics}
	for _, k := range []string{"ccti_timer", "marking_rate"} {
		if v, ok := params[k]; ok {
			r.Point.Params = append(r.Point.Params, store.Param{Name: k, Value: v})
		}
	}
	return r
}

// cliff is a row of points along ccti_timer whose victim throughput is
// highest right next to a cliff: 400us is best on its own, but 500us, its
// neighbour, collapses.
func cliff() []*store.Summary {
	victim := map[string]float64{"100us": 9, "200us": 10.5, "300us": 10.8, "400us": 11.5, "500us": 2, "600us": 2}
	var rs []store.Result
	for t, v := range victim {
		for seed := uint64(1); seed <= 3; seed++ {
			rs = append(rs, result(seed, map[string]string{"ccti_timer": t},
				map[string]float64{"victim_gbps": v + 0.01*float64(seed), "var": 0.1}))
		}
	}
	slices.SortFunc(rs, func(a, b store.Result) int { return strings.Compare(a.ID, b.ID) })
	return store.Summarize(rs)
}

func mustObjective(t *testing.T, s string, max bool) rank.Objective {
	t.Helper()
	o, err := rank.ParseObjective(s, max)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestRobustScoringAvoidsTheEdgeOfACliff(t *testing.T) {
	q := rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}}
	plain, err := rank.Rank(cliff(), q)
	if err != nil {
		t.Fatal(err)
	}
	if got := plain.Best.Describe(plain.Axes); got != "ccti_timer=400us" {
		t.Fatalf("best without --robust = %s, want ccti_timer=400us (the highest victim throughput)", got)
	}
	q.Robust = true
	robust, err := rank.Rank(cliff(), q)
	if err != nil {
		t.Fatal(err)
	}
	if got := robust.Best.Describe(robust.Axes); got != "ccti_timer=300us" {
		t.Errorf("best with --robust = %s, want ccti_timer=300us (its worst neighbour, 200us, keeps 10.5 Gbit/s)", got)
	}
	edge := robust.Find([]store.Param{{Name: "ccti_timer", Value: "400us"}})
	if edge == nil || edge.Rank <= 3 {
		t.Fatalf("400us ranks %v with --robust; want it below 100us, 200us and 300us", edge)
	}
	if edge.WorstAt[0] != "ccti_timer=500us" || math.Abs(edge.Values[0]-2.02) > 1e-9 {
		t.Errorf("400us's robust value %g from %q, want the mean 2.02 of its neighbour 500us", edge.Values[0], edge.WorstAt[0])
	}
	if own := edge.Own[0]; math.Abs(own-11.52) > 1e-9 {
		t.Errorf("400us's own mean = %g, want 11.52", own)
	}
	explained := strings.Join(robust.Explain(edge), "\n")
	if !strings.Contains(explained, "worst neighbour, ccti_timer=500us, has 2.02") {
		t.Errorf("Explain does not name the cliff:\n%s", explained)
	}
}

func TestConstraintsParetoAndRegion(t *testing.T) {
	// Two objectives in conflict along the row, and a constraint that
	// leaves out 500us.
	var rs []store.Result
	for i, tm := range []string{"100us", "200us", "300us", "400us", "500us"} {
		rs = append(rs, result(1, map[string]string{"ccti_timer": tm}, map[string]float64{
			"victim_gbps": float64(10 + i), "var": []float64{0, 0.5, 6, 9, 9}[i], "fairness_jain": 1 - 0.02*float64(i),
		}))
	}
	// 350us is dominated: less victim throughput and more var than 300us.
	rs = append(rs, result(1, map[string]string{"ccti_timer": "350us"}, map[string]float64{
		"victim_gbps": 11.5, "var": 7, "fairness_jain": 1,
	}))
	where, err := grids.CompileMetricExpr("fairness_jain >= 0.93")
	if err != nil {
		t.Fatal(err)
	}
	q := rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true), mustObjective(t, "var", false)},
		Where: []*grids.MetricExpr{where}}
	a, err := rank.Rank(store.Summarize(rs), q)
	if err != nil {
		t.Fatal(err)
	}
	if a.Feasible != 5 {
		t.Fatalf("%d feasible points, want 5 (500us fails the constraint)", a.Feasible)
	}
	out := a.Find([]store.Param{{Name: "ccti_timer", Value: "500us"}})
	if out.Feasible || out.Rank != 0 || !strings.Contains(out.Why, "fairness_jain >= 0.93") {
		t.Errorf("500us: feasible %v rank %d why %q; want it left out by the constraint", out.Feasible, out.Rank, out.Why)
	}
	var front []string
	for _, p := range a.Front {
		front = append(front, p.Coords[0])
	}
	slices.Sort(front)
	if want := []string{"100us", "200us", "300us", "400us"}; !slices.Equal(front, want) {
		t.Errorf("Pareto front %v, want %v (350us is dominated by 300us)", front, want)
	}
	// Weighted: victim 10..13 scales to 0..1, var 0..9 to 1..0; 100us
	// scores (0+1)/2, 200us (1/3+17/18)/2, 300us (2/3+1/3)/2, 400us 1/2.
	want := (1.0/3 + 17.0/18) / 2
	if got := a.Best.Coords[0]; got != "200us" {
		t.Errorf("best %s, want 200us (score %.3f)", got, want)
	}
	if math.Abs(a.Best.Score-want) > 1e-12 {
		t.Errorf("best score %g, want %g", a.Best.Score, want)
	}
	for _, p := range a.Points[:a.Feasible] {
		if want := p.Score >= a.Best.Score-rank.DefaultTolerance; p.InRegion != want {
			t.Errorf("%s score %.3f: in region %v, want %v", p.Coords[0], p.Score, p.InRegion, want)
		}
	}
	// Lexicographic: victim first, so 400us wins.
	q.Order = rank.Lexicographic
	lex, err := rank.Rank(store.Summarize(rs), q)
	if err != nil {
		t.Fatal(err)
	}
	if got := lex.Best.Coords[0]; got != "400us" {
		t.Errorf("lexicographic best %s, want 400us", got)
	}
}

func TestNeighbours(t *testing.T) {
	// A 3x3 grid and a refined point between (0,0) and (2,0)... at rank
	// coordinates: rows 0, 2, 4 and columns 0, 2, 4, plus (1, 1), the
	// centre of the cell of (0,0), (0,2), (2,0), (2,2).
	var coords [][]int
	for _, x := range []int{0, 2, 4} {
		for _, y := range []int{0, 2, 4} {
			coords = append(coords, []int{x, y})
		}
	}
	coords = append(coords, []int{1, 1})
	got := rank.Neighbours(coords)
	want := map[int][]int{
		0: {1, 3, 9},       // (0,0): (0,2), (2,0), and the cell centre
		4: {1, 3, 5, 7, 9}, // (2,2), the grid's centre: four axis neighbours and the cell centre
		8: {5, 7},          // (4,4): a corner far from the refinement
		9: {0, 1, 3, 4},    // the cell centre: the cell's four corners
	}
	for p, w := range want {
		if !slices.Equal(got[p], w) {
			t.Errorf("neighbours of %v = %v, want %v", coords[p], got[p], w)
		}
	}
	for p, ns := range got {
		for _, q := range ns {
			if !slices.Contains(got[q], p) {
				t.Errorf("%v neighbours %v but not the other way round", coords[p], coords[q])
			}
		}
	}
}

func TestParseObjective(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
		bad  bool
	}{
		{in: "victim_gbps", want: "maximize victim_gbps"},
		{in: "victim_gbps:2.5", want: "maximize victim_gbps:2.5"},
		{in: "victim", bad: true},
		{in: "victim_gbps:0", bad: true},
		{in: "victim_gbps:x", bad: true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			o, err := rank.ParseObjective(tc.in, true)
			if tc.bad {
				if err == nil {
					t.Fatalf("ParseObjective(%q) = %v, want an error", tc.in, o)
				}
				return
			}
			if err != nil || o.String() != tc.want {
				t.Fatalf("ParseObjective(%q) = %v, %v; want %s", tc.in, o, err, tc.want)
			}
		})
	}
}
