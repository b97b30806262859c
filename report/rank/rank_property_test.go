package rank_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// The properties below derive their expectations from the documented rules
// of ranking (package rank's Query and Order, docs/sweeps.md, "Finding the
// answer" section), computed here independently of the code under test:
// each objective scaled to [0, 1] over the feasible points, 1 best; the
// weighted mean of the scaled values; lexicographic order with ties within
// the tolerance; the Pareto front of the points no other feasible point
// dominates; robust values at the worst of the point and its grid
// neighbours (one step along one axis on a regular grid).

var (
	testTimers = []string{"100us", "200us", "300us", "400us", "500us", "600us"}
	testRates  = []string{"0", "1", "2", "4", "8"}
)

// row returns one summary per ccti_timer of testTimers[:len(metrics)], with
// metrics[i] the means of the i-th (one seed each).
func row(metrics ...map[string]float64) []*store.Summary {
	var rs []store.Result
	for i, m := range metrics {
		rs = append(rs, result(1, map[string]string{"ccti_timer": testTimers[i]}, m))
	}
	return store.Summarize(rs)
}

// coordsOf returns the ccti_timer values of points, in their order.
func coordsOf(a *rank.Answer, pts []*rank.Entry) []string {
	var out []string
	for _, p := range pts {
		out = append(out, p.Describe(a.Axes))
	}
	return out
}

func TestWeightsChangeTheRanking(t *testing.T) {
	// victim 10, 13, 12 scales to 0, 1, 2/3; var 0, 9, 3 (minimized) to
	// 1, 0, 2/3. Equal weights score 1/2, 1/2, 2/3; victim:3 scores
	// 1/4, 3/4, 2/3; var:3 scores 3/4, 1/4, 2/3.
	sums := row(
		map[string]float64{"victim_gbps": 10, "var": 0},
		map[string]float64{"victim_gbps": 13, "var": 9},
		map[string]float64{"victim_gbps": 12, "var": 3},
	)
	for _, tc := range []struct {
		victim, variance string
		best             string
		scores           [3]float64 // by ccti_timer
	}{
		{"victim_gbps", "var", "ccti_timer=300us", [3]float64{0.5, 0.5, 2.0 / 3}},
		{"victim_gbps:3", "var", "ccti_timer=200us", [3]float64{0.25, 0.75, 2.0 / 3}},
		{"victim_gbps", "var:3", "ccti_timer=100us", [3]float64{0.75, 0.25, 2.0 / 3}},
		{"victim_gbps:0.5", "var:1.5", "ccti_timer=100us", [3]float64{0.75, 0.25, 2.0 / 3}},
	} {
		t.Run(tc.victim+","+tc.variance, func(t *testing.T) {
			q := rank.Query{Objectives: []rank.Objective{mustObjective(t, tc.victim, true), mustObjective(t, tc.variance, false)}}
			a, err := rank.Rank(sums, q)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.Best.Describe(a.Axes); got != tc.best {
				t.Errorf("best %s, want %s", got, tc.best)
			}
			for i, tm := range testTimers[:3] {
				p := a.Find([]store.Param{{Name: "ccti_timer", Value: tm}})
				if math.Abs(p.Score-tc.scores[i]) > 1e-12 {
					t.Errorf("%s scores %g, want %g", tm, p.Score, tc.scores[i])
				}
			}
		})
	}
}

func TestLexicographicTiesWithinTolerance(t *testing.T) {
	// victim spans 0..100, so its scaled value is victim/100; var spans
	// 0..1, minimized. With the default tolerance (0.05) of victim's range,
	// 99, 97 and 96 are within it of each other and of the best, 100, so
	// the second objective orders them: 100us (var 0) first, then 500us,
	// 300us, 200us by var; 600us, 90.5, is more than the tolerance below
	// every one of them and comes next although its var is the best;
	// 400us, far below on victim, last.
	sums := row(
		map[string]float64{"victim_gbps": 100, "var": 0},
		map[string]float64{"victim_gbps": 99, "var": 1},
		map[string]float64{"victim_gbps": 96, "var": 0.5},
		map[string]float64{"victim_gbps": 0, "var": 0},
		map[string]float64{"victim_gbps": 97, "var": 0.03},
		map[string]float64{"victim_gbps": 90.5, "var": 0},
	)
	q := rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true), mustObjective(t, "var", false)},
		Order: rank.Lexicographic}
	a, err := rank.Rank(sums, q)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ccti_timer=100us", "ccti_timer=500us", "ccti_timer=300us", "ccti_timer=200us", "ccti_timer=600us", "ccti_timer=400us"}
	if got := coordsOf(a, a.Points); !slices.Equal(got, want) {
		t.Errorf("lexicographic order %v, want %v", got, want)
	}
	// The region: within the tolerance of the best on every objective,
	// 100us itself and 500us (97, 0.03); 200us and 300us are too far on
	// var, 600us on victim.
	if got, want := coordsOf(a, a.Region), want[:2]; !slices.Equal(got, want) {
		t.Errorf("lexicographic region %v, want %v", got, want)
	}

	// With a tolerance of 0.005 victim decides alone: 99 before 97 before
	// 96.
	q.Tolerance = 0.005
	if a, err = rank.Rank(sums, q); err != nil {
		t.Fatal(err)
	}
	want = []string{"ccti_timer=100us", "ccti_timer=200us", "ccti_timer=500us", "ccti_timer=300us", "ccti_timer=600us", "ccti_timer=400us"}
	if got := coordsOf(a, a.Points); !slices.Equal(got, want) {
		t.Errorf("lexicographic order with tolerance 0.005: %v, want %v", got, want)
	}
}

// TestLexicographicBestNeedNotStandAlone: the best value on the first
// objective ties with every value within the tolerance below it. Bands
// counted up from 0 (0-0.05, ..., 0.95-1) once left the best alone in
// its band whenever 1/tolerance was whole, so it always ranked first.
func TestLexicographicBestNeedNotStandAlone(t *testing.T) {
	sums := row(
		map[string]float64{"victim_gbps": 100, "var": 1},
		map[string]float64{"victim_gbps": 99, "var": 0},
		map[string]float64{"victim_gbps": 0, "var": 0.5},
	)
	q := rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true), mustObjective(t, "var", false)},
		Order: rank.Lexicographic}
	for _, tol := range []float64{0.05, 0.02, 0.25} {
		q.Tolerance = tol
		a, err := rank.Rank(sums, q)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"ccti_timer=200us", "ccti_timer=100us", "ccti_timer=300us"}
		if got := coordsOf(a, a.Points); !slices.Equal(got, want) {
			t.Errorf("tolerance %g: lexicographic order %v, want %v (99 is within it of 100 and has the better var)", tol, got, want)
		}
	}
	// Below the gap, victim decides alone.
	q.Tolerance = 0.005
	a, err := rank.Rank(sums, q)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Best.Describe(a.Axes); got != "ccti_timer=100us" {
		t.Errorf("tolerance 0.005: best %s, want ccti_timer=100us", got)
	}
}

// randomGrid returns a regular nt x nr grid of ccti_timer x marking_rate
// whose metrics victim_gbps, var and fairness_jain are drawn from few
// values, so that ties are common.
func randomGrid(rng *rand.Rand, nt, nr int) []*store.Summary {
	var rs []store.Result
	for _, tm := range testTimers[:nt] {
		for _, mr := range testRates[:nr] {
			rs = append(rs, result(1, map[string]string{"ccti_timer": tm, "marking_rate": mr}, map[string]float64{
				"victim_gbps":   float64(rng.IntN(5)),
				"var":           float64(rng.IntN(4)) / 2,
				"fairness_jain": float64(rng.IntN(3)) / 2,
			}))
		}
	}
	return store.Summarize(rs)
}

// randomQuery returns one to three objectives on distinct metrics, each
// maximized or minimized with a weight of 1 to 4, and sometimes a
// constraint.
func randomQuery(t *testing.T, rng *rand.Rand) rank.Query {
	var q rank.Query
	metrics := []string{"victim_gbps", "var", "fairness_jain"}
	rng.Shuffle(len(metrics), func(i, j int) { metrics[i], metrics[j] = metrics[j], metrics[i] })
	for _, m := range metrics[:1+rng.IntN(3)] {
		q.Objectives = append(q.Objectives, mustObjective(t, fmt.Sprintf("%s:%d", m, 1+rng.IntN(4)), rng.IntN(2) == 0))
	}
	if rng.IntN(2) == 0 {
		w, err := grids.CompileMetricExpr("fairness_jain >= 0.5")
		if err != nil {
			t.Fatal(err)
		}
		q.Where = []*grids.MetricExpr{w}
	}
	return q
}

// better reports whether x is strictly better than y for o.
func better(o rank.Objective, x, y float64) bool {
	if o.Maximize {
		return x > y
	}
	return x < y
}

// bruteFront returns the feasible points of a that no other feasible
// point dominates on vals (at least as good on every objective, strictly
// better on one).
func bruteFront(q rank.Query, pts []*rank.Entry, vals func(*rank.Entry) []float64) map[*rank.Entry]bool {
	front := map[*rank.Entry]bool{}
	for _, p := range pts {
		dominated := false
		for _, r := range pts {
			strictly, worseOnOne := false, false
			for i, o := range q.Objectives {
				switch {
				case better(o, vals(p)[i], vals(r)[i]):
					worseOnOne = true
				case better(o, vals(r)[i], vals(p)[i]):
					strictly = true
				}
			}
			if r != p && strictly && !worseOnOne {
				dominated = true
			}
		}
		front[p] = !dominated
	}
	return front
}

// TestRankingAgainstBruteForce checks on random grids and queries the
// feasible set, the weighted scores, the order, the region and the Pareto
// front against their definitions, computed here from the points' metric
// means.
func TestRankingAgainstBruteForce(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 22))
		sums := randomGrid(rng, 1+rng.IntN(6), 1+rng.IntN(5))
		q := randomQuery(t, rng)
		if rng.IntN(3) == 0 {
			q.Order = rank.Lexicographic
		}
		a, err := rank.Rank(sums, q)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d, query %v where %d order %d: %s", seed, q.Objectives, len(q.Where), q.Order, fmt.Sprintf(format, args...))
		}
		var feas []*rank.Entry
		for _, p := range a.Points {
			want := len(q.Where) == 0 || p.Metrics["fairness_jain"].Mean >= 0.5
			if p.Feasible != want {
				fail("%s: feasible %v, want %v", p.Describe(a.Axes), p.Feasible, want)
			}
			if want {
				feas = append(feas, p)
			}
		}
		if a.Feasible != len(feas) || len(a.Points) != len(sums) {
			fail("%d of %d points feasible, want %d of %d", a.Feasible, len(a.Points), len(feas), len(sums))
		}
		if len(feas) == 0 {
			if a.Best != nil || len(a.Front) > 0 || len(a.Region) > 0 {
				fail("no feasible point, yet a best, front or region")
			}
			continue
		}
		own := func(p *rank.Entry) []float64 {
			var v []float64
			for _, o := range q.Objectives {
				v = append(v, p.Metrics[o.Metric].Mean)
			}
			return v
		}
		// Each objective scaled to [0, 1] over the feasible points, 1 best
		// (1 for all when they are equal); the weighted score their
		// weighted mean.
		scaled := map[*rank.Entry][]float64{}
		score := map[*rank.Entry]float64{}
		var wsum float64
		for i, o := range q.Objectives {
			wsum += o.Weight
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, p := range feas {
				lo, hi = min(lo, own(p)[i]), max(hi, own(p)[i])
			}
			for _, p := range feas {
				s := 1.0
				if hi > lo && o.Maximize {
					s = (own(p)[i] - lo) / (hi - lo)
				} else if hi > lo {
					s = (hi - own(p)[i]) / (hi - lo)
				}
				scaled[p] = append(scaled[p], s)
				score[p] += o.Weight * s
			}
		}
		best := math.Inf(-1)
		for _, p := range feas {
			score[p] /= wsum
			best = max(best, score[p])
			if math.Abs(p.Score-score[p]) > 1e-9 {
				fail("%s scores %g, want %g", p.Describe(a.Axes), p.Score, score[p])
			}
		}
		for i, p := range a.Points[:len(feas)] {
			if !p.Feasible || p.Rank != i+1 {
				fail("position %d holds %s, feasible %v rank %d", i, p.Describe(a.Axes), p.Feasible, p.Rank)
			}
		}
		tol := rank.DefaultTolerance
		if q.Order == rank.Weighted {
			for i, p := range a.Points[1:len(feas)] {
				if prev := a.Points[i]; p.Score > prev.Score+1e-12 {
					fail("%s (%g) ranks below %s (%g)", p.Describe(a.Axes), p.Score, prev.Describe(a.Axes), prev.Score)
				}
			}
			if math.Abs(a.Best.Score-best) > 1e-9 {
				fail("best scores %g, want the highest score %g", a.Best.Score, best)
			}
		} else {
			// A point ranked after another is not better than it by more
			// than the tolerance on the first objective, nor on the next
			// where the two are equal on all before it.
			for i, x := range a.Points[:len(feas)] {
				for _, y := range a.Points[i+1 : len(feas)] {
					for k := range q.Objectives {
						if scaled[y][k] > scaled[x][k]+tol+1e-9 {
							fail("lexicographic: %s %v ranks before %s %v", x.Describe(a.Axes), own(x), y.Describe(a.Axes), own(y))
						}
						if scaled[y][k] != scaled[x][k] {
							break
						}
					}
				}
			}
		}
		for _, p := range feas {
			// The region: with weights, a score within the tolerance of
			// the best's; lexicographic, within it on every objective.
			margin := score[p] - (best - tol)
			if q.Order == rank.Lexicographic {
				margin = math.Inf(1)
				for k := range q.Objectives {
					margin = min(margin, scaled[p][k]-(scaled[a.Best][k]-tol))
				}
			}
			if math.Abs(margin) > 1e-9 && p.InRegion != (margin > 0) {
				fail("%s (score %g, best %g): in region %v, want %v", p.Describe(a.Axes), score[p], best, p.InRegion, margin > 0)
			}
			if p.InRegion != slices.Contains(a.Region, p) {
				fail("%s: InRegion %v disagrees with Region", p.Describe(a.Axes), p.InRegion)
			}
		}
		front := bruteFront(q, feas, own)
		n := 0
		for _, p := range feas {
			if p.Pareto != front[p] || p.Pareto != slices.Contains(a.Front, p) {
				fail("%s %v: Pareto %v (in Front %v), want %v", p.Describe(a.Axes), own(p), p.Pareto, slices.Contains(a.Front, p), front[p])
			}
			if front[p] {
				n++
			}
		}
		if n != len(a.Front) {
			fail("front of %d points, want %d", len(a.Front), n)
		}
		for _, p := range a.Points[len(feas):] {
			if p.Pareto || p.InRegion || p.Rank != 0 {
				fail("infeasible %s: Pareto %v, region %v, rank %d", p.Describe(a.Axes), p.Pareto, p.InRegion, p.Rank)
			}
		}
	}
}

// TestRobustValuesAreTheWorstNeighbours checks on random regular grids that
// --robust scores each objective at the worst of the point and the points
// one step away along one axis, names where that worst is, and ranks and
// builds the Pareto front by those values.
func TestRobustValuesAreTheWorstNeighbours(t *testing.T) {
	for seed := range uint64(100) {
		rng := rand.New(rand.NewPCG(seed, 2222))
		nt, nr := 2+rng.IntN(5), 2+rng.IntN(4)
		sums := randomGrid(rng, nt, nr)
		q := randomQuery(t, rng)
		q.Where, q.Robust = nil, true
		a, err := rank.Rank(sums, q)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		at := map[[2]int]*rank.Entry{}
		index := func(p *rank.Entry) [2]int {
			tm, _ := p.Value("ccti_timer")
			mr, _ := p.Value("marking_rate")
			return [2]int{slices.Index(testTimers, tm), slices.Index(testRates, mr)}
		}
		for _, p := range a.Points {
			at[index(p)] = p
		}
		robust := func(p *rank.Entry) []float64 { return p.Values }
		for _, p := range a.Points {
			c := index(p)
			for i, o := range q.Objectives {
				own := p.Metrics[o.Metric].Mean
				worst, worstAt := own, map[string]bool{"": true}
				for _, d := range [][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					n := at[[2]int{c[0] + d[0], c[1] + d[1]}]
					if n == nil {
						continue
					}
					switch v := n.Metrics[o.Metric].Mean; {
					case better(o, worst, v):
						worst, worstAt = v, map[string]bool{n.Describe(a.Axes): true}
					case v == worst && worst != own:
						worstAt[n.Describe(a.Axes)] = true
					}
				}
				if p.Own[i] != own || p.Values[i] != worst || !worstAt[p.WorstAt[i]] {
					t.Fatalf("seed %d, %s, %v: own %g robust %g at %q; want own %g, robust %g at one of %v",
						seed, p.Describe(a.Axes), o, p.Own[i], p.Values[i], p.WorstAt[i], own, worst, worstAt)
				}
			}
		}
		front := bruteFront(q, a.Points, robust)
		for i, p := range a.Points {
			if p.Pareto != front[p] {
				t.Fatalf("seed %d: %s robust %v: Pareto %v, want %v", seed, p.Describe(a.Axes), robust(p), p.Pareto, front[p])
			}
			if i > 0 && p.Score > a.Points[i-1].Score+1e-12 {
				t.Fatalf("seed %d: %s (%g) ranks below %s (%g)", seed, p.Describe(a.Axes), p.Score, a.Points[i-1].Describe(a.Axes), a.Points[i-1].Score)
			}
		}
	}
}

// TestNeighboursAgainstBruteForce checks Neighbours on random sets of
// distinct points in two and three dimensions against its definition: q
// neighbours p when no third point lies in the closed box they span.
func TestNeighboursAgainstBruteForce(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 33))
		dims, n := 2+rng.IntN(2), 2+rng.IntN(25)
		var coords [][]int
		seen := map[string]bool{}
		for len(coords) < n {
			c := make([]int, dims)
			for k := range c {
				c[k] = rng.IntN(5)
			}
			if key := fmt.Sprint(c); !seen[key] {
				seen[key] = true
				coords = append(coords, c)
			}
			if len(seen) == 125 || (dims == 2 && len(seen) == 25) {
				break
			}
		}
		got := rank.Neighbours(coords)
		for p := range coords {
			var want []int
			for q := range coords {
				if q == p {
					continue
				}
				blocked := false
				for r := range coords {
					inside := r != p && r != q
					for k := range coords[r] {
						lo, hi := min(coords[p][k], coords[q][k]), max(coords[p][k], coords[q][k])
						inside = inside && coords[r][k] >= lo && coords[r][k] <= hi
					}
					blocked = blocked || inside
				}
				if !blocked {
					want = append(want, q)
				}
			}
			if !slices.Equal(got[p], want) {
				t.Fatalf("seed %d: neighbours of %v = %v, want %v (points %v)", seed, coords[p], got[p], want, coords)
			}
		}
	}
}
