package rank_test

import (
	"fmt"
	"math"
	"slices"
	"strconv"
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

func mustRank(t *testing.T, sums []*store.Summary, q rank.Query) *rank.Answer {
	t.Helper()
	a, err := rank.Rank(sums, q)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustWhere(t *testing.T, src string) *grids.MetricExpr {
	t.Helper()
	w, err := grids.CompileMetricExpr(src)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// Points are "feasible ones first by rank, then the others in their given
// order", and an infeasible point's rank is 0.
func TestInfeasiblePointsComeLastInTheirGivenOrder(t *testing.T) {
	sums := row(
		map[string]float64{"victim_gbps": 1, "fairness_jain": 0.1}, // 100us: infeasible
		map[string]float64{"victim_gbps": 2, "fairness_jain": 0.9}, // 200us
		map[string]float64{"victim_gbps": 3, "fairness_jain": 0.2}, // 300us: infeasible
		map[string]float64{"victim_gbps": 4, "fairness_jain": 0.9}, // 400us
	)
	a := mustRank(t, sums, rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", false)},
		Where: []*grids.MetricExpr{mustWhere(t, "fairness_jain >= 0.5")}})
	want := []string{"ccti_timer=200us", "ccti_timer=400us", "ccti_timer=100us", "ccti_timer=300us"}
	if got := coordsOf(a, a.Points); !slices.Equal(got, want) {
		t.Fatalf("order minimizing victim_gbps where fairness_jain >= 0.5 = %v, want %v", got, want)
	}
	for i, wantRank := range []int{1, 2, 0, 0} {
		if p := a.Points[i]; p.Rank != wantRank || p.Feasible != (wantRank > 0) {
			t.Errorf("%s: rank %d feasible %v, want rank %d", want[i], p.Rank, p.Feasible, wantRank)
		}
	}
	if a.Feasible != 2 || a.Best != a.Points[0] {
		t.Errorf("Feasible = %d, Best = %v; want 2 and the first point", a.Feasible, a.Best)
	}
}

// The weighted region holds the points whose score is within the tolerance
// of the best's, the edge included.
func TestWeightedRegionEdge(t *testing.T) {
	// victim 0, 74, 75, 100 scale to 0, 0.74, 0.75, 1: with tolerance 0.25
	// the region is 100 and 75 (exactly at the edge), not 74.
	sums := row(
		map[string]float64{"victim_gbps": 0},
		map[string]float64{"victim_gbps": 74},
		map[string]float64{"victim_gbps": 75},
		map[string]float64{"victim_gbps": 100},
	)
	a := mustRank(t, sums, rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}, Tolerance: 0.25})
	want := []string{"ccti_timer=400us", "ccti_timer=300us"}
	if got := coordsOf(a, a.Region); !slices.Equal(got, want) {
		t.Errorf("region with tolerance 0.25 = %v, want %v (scores 1 and 0.75)", got, want)
	}
	for _, p := range a.Points {
		if p.InRegion != slices.Contains(a.Region, p) {
			t.Errorf("%s: InRegion %v disagrees with Region", p.Describe(a.Axes), p.InRegion)
		}
	}
}

// In lexicographic order the region is the points tied with the best on
// every objective: each scaled value within the tolerance of the best's
// (the edge included), which the weighted score alone does not decide.
func TestLexicographicRegionIsPerObjective(t *testing.T) {
	// victim and contributors (both maximized) scale to:
	//   100us (0, 0)     200us (1, 0.5): score 0.75
	//   300us (1, 0.75): score 0.875     400us (1, 1): score 1, the best.
	sums := row(
		map[string]float64{"victim_gbps": 0, "contributors_gbps": 0},
		map[string]float64{"victim_gbps": 100, "contributors_gbps": 50},
		map[string]float64{"victim_gbps": 100, "contributors_gbps": 75},
		map[string]float64{"victim_gbps": 100, "contributors_gbps": 100},
	)
	objs := []rank.Objective{mustObjective(t, "victim_gbps", true), mustObjective(t, "contributors_gbps", true)}
	lex := mustRank(t, sums, rank.Query{Objectives: objs, Order: rank.Lexicographic, Tolerance: 0.25})
	if got, want := coordsOf(lex, lex.Region), []string{"ccti_timer=400us", "ccti_timer=300us"}; !slices.Equal(got, want) {
		t.Errorf("lexicographic region = %v, want %v (200us's contributors, 0.5, is not within 0.25 of 1)", got, want)
	}
	weighted := mustRank(t, sums, rank.Query{Objectives: objs, Tolerance: 0.25})
	if got, want := coordsOf(weighted, weighted.Region), []string{"ccti_timer=400us", "ccti_timer=300us", "ccti_timer=200us"}; !slices.Equal(got, want) {
		t.Errorf("weighted region = %v, want %v (scores 1, 0.875, 0.75)", got, want)
	}
}

// Lexicographic order ranks by the first objective's band before the
// second: a point a band lower on the first objective ranks below, whatever
// its weighted score.
func TestLexicographicFirstObjectiveDecides(t *testing.T) {
	// victim scales to 1, 1, 0.5, 0 and var (minimized) to 0, 0.5, 1, 1 for
	// 100us..400us. Weighted: 200us and 300us score 0.75, 100us 0.5, 400us
	// 0.5. Lexicographic with tolerance 0.25: victim's bands are 0, 0, 1
	// (0.5 is two tolerances down: band 1), 3; then var's.
	sums := row(
		map[string]float64{"victim_gbps": 100, "var": 8},
		map[string]float64{"victim_gbps": 100, "var": 4},
		map[string]float64{"victim_gbps": 50, "var": 0},
		map[string]float64{"victim_gbps": 0, "var": 0},
	)
	objs := []rank.Objective{mustObjective(t, "victim_gbps", true), mustObjective(t, "var", false)}
	lex := mustRank(t, sums, rank.Query{Objectives: objs, Order: rank.Lexicographic, Tolerance: 0.25})
	want := []string{"ccti_timer=200us", "ccti_timer=100us", "ccti_timer=300us", "ccti_timer=400us"}
	if got := coordsOf(lex, lex.Points); !slices.Equal(got, want) {
		t.Errorf("lexicographic order = %v, want %v", got, want)
	}
}

// An objective on which every feasible point is equal scales to 1 for all
// (the best), so scores stay in [0, 1] and the other objective decides.
func TestObjectiveEqualEverywhere(t *testing.T) {
	sums := row(
		map[string]float64{"victim_gbps": 5, "var": 2},
		map[string]float64{"victim_gbps": 5, "var": 1},
		map[string]float64{"victim_gbps": 5, "var": 3},
	)
	a := mustRank(t, sums, rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true), mustObjective(t, "var", false)}})
	want := map[string]float64{"ccti_timer=200us": 1, "ccti_timer=100us": 0.75, "ccti_timer=300us": 0.5}
	if got := coordsOf(a, a.Points); !slices.Equal(got, []string{"ccti_timer=200us", "ccti_timer=100us", "ccti_timer=300us"}) {
		t.Errorf("order = %v, want by var alone", got)
	}
	for _, p := range a.Points {
		if d := p.Describe(a.Axes); math.Abs(p.Score-want[d]) > 1e-12 {
			t.Errorf("%s: score %g, want %g (victim scaled to 1, var to 1, 0.5, 0)", d, p.Score, want[d])
		}
	}
}

// A neighbour with the same value is not worse: the robust value stays the
// point's own and WorstAt says so with "".
func TestRobustWorstAmongEqualIsThePointItself(t *testing.T) {
	for _, maximize := range []bool{true, false} {
		sums := row(
			map[string]float64{"victim_gbps": 7},
			map[string]float64{"victim_gbps": 7},
		)
		a := mustRank(t, sums, rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", maximize)}, Robust: true})
		for _, p := range a.Points {
			if p.WorstAt[0] != "" || p.Values[0] != 7 {
				t.Errorf("maximize %v: %s's worst is %g at %q, want its own 7 at \"\"", maximize, p.Describe(a.Axes), p.Values[0], p.WorstAt[0])
			}
			if len(p.Neighbours) != 1 {
				t.Errorf("%s has neighbours %v, want the other point", p.Describe(a.Axes), p.Neighbours)
			}
		}
		if got := strings.Join(a.Explain(a.Points[1]), "\n"); strings.Contains(got, "worst neighbour") {
			t.Errorf("explanation names a worst neighbour equal to the point:\n%s", got)
		}
	}
}

// Only points with a done seed are ranked.
func TestPointsWithoutDoneSeedsAreLeftOut(t *testing.T) {
	failed := result(1, map[string]string{"ccti_timer": "900us"}, nil)
	failed.Status = store.StatusFailed
	rs := []store.Result{
		result(1, map[string]string{"ccti_timer": "100us"}, map[string]float64{"victim_gbps": 1}),
		failed,
		result(1, map[string]string{"ccti_timer": "200us"}, map[string]float64{"victim_gbps": 2}),
	}
	a := mustRank(t, store.Summarize(rs), rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}})
	if got, want := coordsOf(a, a.Points), []string{"ccti_timer=200us", "ccti_timer=100us"}; !slices.Equal(got, want) {
		t.Errorf("points = %v, want %v (900us has no done seed)", got, want)
	}
}

// Scenarios that differ make a "scenario" axis, first; Find matches it.
func TestScenarioAxis(t *testing.T) {
	var rs []store.Result
	for i, sc := range []string{"testbed-s2", "testbed-s1"} {
		for j, timer := range []string{"100us", "200us"} {
			r := result(1, map[string]string{"ccti_timer": timer, "marking_rate": "1"}, map[string]float64{"victim_gbps": float64(10*i + j)})
			r.Point.Scenario = sc
			rs = append(rs, r)
		}
	}
	a := mustRank(t, store.Summarize(rs), rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}})
	if want := []string{"scenario", "ccti_timer"}; !slices.Equal(a.Axes, want) {
		t.Fatalf("axes = %v, want %v (marking_rate does not vary)", a.Axes, want)
	}
	if got, want := a.Best.Describe(a.Axes), "scenario=testbed-s1 ccti_timer=200us"; got != want {
		t.Errorf("best = %s, want %s", got, want)
	}
	p := a.Find([]store.Param{{Name: "scenario", Value: "testbed-s2"}, {Name: "ccti_timer", Value: "200us"}})
	if p == nil || p.Scenario != "testbed-s2" || p.Rank != 3 {
		t.Errorf("Find(scenario=testbed-s2 ccti_timer=200us) = %v, want the point ranked 3", p)
	}
	if p := a.Find([]store.Param{{Name: "scenario", Value: "testbed-s9"}}); p != nil {
		t.Errorf("Find(scenario=testbed-s9) = %s, want nil", p.Describe(a.Axes))
	}
	// A single scenario is no axis.
	one := mustRank(t, store.Summarize(rs[:2]), rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}})
	if want := []string{"ccti_timer"}; !slices.Equal(one.Axes, want) {
		t.Errorf("axes of one scenario = %v, want %v", one.Axes, want)
	}
}

// FormatStat spells "12.98 ± 0.05 (3 seeds)", or "12.98 (1 seed)"; from
// two seeds on the half-width is known.
func TestFormatStatSeeds(t *testing.T) {
	if got, want := rank.FormatStat(store.Stat{N: 1, Mean: 12.98, HalfWidth: math.Inf(1)}), "12.98 (1 seed)"; got != want {
		t.Errorf("one seed: %q, want %q", got, want)
	}
	if got, want := rank.FormatStat(store.Stat{N: 2, Mean: 12.98, HalfWidth: 0.05}), "12.98 ± 0.05 (2 seeds)"; got != want {
		t.Errorf("two seeds: %q, want %q", got, want)
	}
}

// Explain says "no value" for a metric the point lacks.
func TestExplainMissingMetric(t *testing.T) {
	sums := row(
		map[string]float64{"victim_gbps": 3},
		map[string]float64{"var": 1},
	)
	a := mustRank(t, sums, rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}})
	p := a.Find([]store.Param{{Name: "ccti_timer", Value: "200us"}})
	got := strings.Join(a.Explain(p), "\n")
	if !strings.Contains(got, "has no value of victim_gbps") || !strings.Contains(got, "victim_gbps: no value") {
		t.Errorf("explanation of a point without victim_gbps:\n%s", got)
	}
}

// In lexicographic order values within the tolerance of the best, the edge
// included, tie: the next objective decides between them.
func TestLexicographicTieAtTheToleranceEdge(t *testing.T) {
	// victim scales to 1, 0.75, 0 and contributors to 0, 1, 0.5: with
	// tolerance 0.25, 200us's victim (0.75) ties with 100us's (1), and
	// 200us's contributors put it first.
	sums := row(
		map[string]float64{"victim_gbps": 100, "contributors_gbps": 0},
		map[string]float64{"victim_gbps": 75, "contributors_gbps": 100},
		map[string]float64{"victim_gbps": 0, "contributors_gbps": 50},
	)
	objs := []rank.Objective{mustObjective(t, "victim_gbps", true), mustObjective(t, "contributors_gbps", true)}
	a := mustRank(t, sums, rank.Query{Objectives: objs, Order: rank.Lexicographic, Tolerance: 0.25})
	want := []string{"ccti_timer=200us", "ccti_timer=100us", "ccti_timer=300us"}
	if got := coordsOf(a, a.Points); !slices.Equal(got, want) {
		t.Errorf("lexicographic order with tolerance 0.25 = %v, want %v", got, want)
	}
}

// Explain of a feasible point that is not the best gives its rank, its
// score against the best's, and each objective with its unit.
func TestExplainFeasiblePoint(t *testing.T) {
	sums := row(
		map[string]float64{"victim_gbps": 0},
		map[string]float64{"victim_gbps": 100},
		map[string]float64{"victim_gbps": 50},
	)
	a := mustRank(t, sums, rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}, Tolerance: 0.25})
	got := a.Explain(a.Find([]store.Param{{Name: "ccti_timer", Value: "300us"}}))
	want := []string{
		"ccti_timer=300us ranks 2 of 3 feasible points, score 0.500 against the best's 1.000 (region: score within 0.250 of it); it is outside the recommended region and not on the Pareto front.",
		"victim_gbps: 50 (1 seed) Gbit/s against 100 (1 seed) at the best point (ccti_timer=200us).",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Explain = %q\nwant %q", got, want)
	}
}

// Robust scoring refuses more points than rank.MaxRobustPoints before it
// looks for their neighbours.
func TestRobustScoringRefusesTooManyPoints(t *testing.T) {
	rs := make([]store.Result, rank.MaxRobustPoints+1)
	for i := range rs {
		rs[i] = result(1, map[string]string{"ccti_timer": strconv.Itoa(i + 1)}, map[string]float64{"victim_gbps": float64(i % 7)})
	}
	q := rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}}
	if _, err := rank.Rank(store.Summarize(rs), q); err != nil {
		t.Fatalf("%d points ranked without --robust: %v", len(rs), err)
	}
	q.Robust = true
	_, err := rank.Rank(store.Summarize(rs), q)
	if err == nil || !strings.Contains(err.Error(), "20001 points; robust scoring finds the neighbours of at most 20000") {
		t.Errorf("robust scoring of %d points: %v; want it refused", len(rs), err)
	}
}
