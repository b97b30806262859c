package adaptive_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// The tests below call RefineStepper.Next on hand-made rounds (points with
// their victim throughput means) and check what it proposes against the
// documented rules of refinement (RefineStepper's and MinSplit's doc, the
// docs/sweeps.md, "Adaptive refinement"): a pair of neighbours along an axis is
// split midway on the axis's scale; pairs across a where boundary first,
// the longest first, then by how much the metric differs, the longest
// first among equal ones; PerRound points a round, Points in all; no pair
// shorter than 1/MinSplit of the axis's span, nor one whose midpoint rounds
// onto an end, nor one that scores 0.

// refinePoint is a point of a hand-made round: its parameters (name,
// value pairs) and its mean victim throughput.
type refinePoint struct {
	params []string
	victim float64
	added  bool
}

// refineGrid is the grid whose sub-grid gives the added points their
// seeds.
func refineGrid(t *testing.T, seeds int) *grids.Grid {
	t.Helper()
	g, err := grids.Parse("r.toml", fmt.Appendf(nil, "name = \"r\"\nscenario = \"testbed-s1\"\nseeds = %d\n[sweep]\nmarking_rate = [1, 2]\n", seeds))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// propose runs one round of r over pts and returns the values of axis of
// the points it proposes, one per parameter combination, checking that
// each comes with every seed of the sub-grid and equals a point of pts
// but on axis.
func propose(t *testing.T, g *grids.Grid, r *grids.Refine, pts []refinePoint, axis string) []string {
	t.Helper()
	var planned []adaptive.Planned
	sums := map[string]*store.Summary{}
	for _, p := range pts {
		var params []grids.Param
		var sp []store.Param
		for i := 0; i < len(p.params); i += 2 {
			params = append(params, grids.Param{Name: p.params[i], Value: p.params[i+1]})
			sp = append(sp, store.Param{Name: p.params[i], Value: p.params[i+1]})
		}
		slices.SortFunc(params, func(a, b grids.Param) int { return strings.Compare(a.Name, b.Name) })
		planned = append(planned, adaptive.Planned{Point: grids.Point{Scenario: "testbed-s1", Params: params, Seed: 1}, Added: p.added})
		sums[store.PointKey("testbed-s1", sp)] = &store.Summary{Scenario: "testbed-s1", Params: sp,
			Metrics: map[string]store.Stat{"victim_gbps": {N: 1, Mean: p.victim}}}
	}
	next, err := adaptive.RefineStepper{Refine: r}.Next(context.Background(), adaptive.StepInput{Grid: g, Planned: planned, Sums: sums})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i, p := range next {
		if !p.Added || p.Seed != uint64(i%g.Subs[0].Seeds+1) {
			t.Fatalf("proposal %d: %+v; want an added point, seeds 1..%d of each in turn", i, p, g.Subs[0].Seeds)
		}
		v, _ := p.Value(axis)
		if p.Seed == 1 {
			out = append(out, v)
		}
		// Every other parameter is that of an existing point.
		found := false
		for _, q := range planned {
			same := len(q.Params) == len(p.Params)
			for _, qp := range q.Params {
				if w, _ := p.Value(qp.Name); qp.Name != axis && w != qp.Value {
					same = false
				}
			}
			found = found || same
		}
		if !found {
			t.Fatalf("proposal %v changes more than %s", p.Params, axis)
		}
	}
	return out
}

func refineOf(points, perRound int, where string, axes ...grids.RefineAxis) *grids.Refine {
	r := &grids.Refine{Points: points, PerRound: perRound, Metric: "victim_gbps", Axes: axes}
	if where != "" {
		w, err := grids.CompileMetricExpr(where)
		if err != nil {
			panic(err)
		}
		r.Where = []*grids.MetricExpr{w}
	}
	return r
}

func TestRefineSplitsMidwayOnTheAxisScale(t *testing.T) {
	g := refineGrid(t, 2)
	for _, tc := range []struct {
		name   string
		axis   grids.RefineAxis
		lo, hi string
		want   []string // nil: not split
	}{
		{"duration linear", grids.RefineAxis{Name: "ccti_timer", Kind: params.KindDuration}, "100us", "300us", []string{"200us"}},
		{"duration log", grids.RefineAxis{Name: "ccti_timer", Kind: params.KindDuration, Log: true}, "100us", "400us", []string{"200us"}},
		{"duration log, to the ns", grids.RefineAxis{Name: "ccti_timer", Kind: params.KindDuration, Log: true}, "100us", "200us", []string{"141.421us"}},
		{"int linear", grids.RefineAxis{Name: "marking_rate", Kind: params.KindInt}, "0", "8", []string{"4"}},
		{"int log", grids.RefineAxis{Name: "marking_rate", Kind: params.KindInt, Log: true}, "1", "64", []string{"8"}},
		{"int rounded", grids.RefineAxis{Name: "marking_rate", Kind: params.KindInt}, "1", "4", []string{"3"}}, // 2.5 rounds half away from 0
		{"float linear", grids.RefineAxis{Name: "host_io_gbps", Kind: params.KindFloat}, "8", "13", []string{"10.5"}},
		{"float log", grids.RefineAxis{Name: "host_io_gbps", Kind: params.KindFloat, Log: true}, "4", "9", []string{"6"}},
		{"adjacent ints", grids.RefineAxis{Name: "marking_rate", Kind: params.KindInt}, "1", "2", nil},
		{"adjacent ints, log", grids.RefineAxis{Name: "marking_rate", Kind: params.KindInt, Log: true}, "2", "3", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pts := []refinePoint{{params: []string{tc.axis.Name, tc.lo}, victim: 2}, {params: []string{tc.axis.Name, tc.hi}, victim: 12}}
			got := propose(t, g, refineOf(10, 4, "", tc.axis), pts, tc.axis.Name)
			if !slices.Equal(got, tc.want) {
				t.Errorf("split of %s..%s: %v, want %v", tc.lo, tc.hi, got, tc.want)
			}
		})
	}
}

func TestRefineMinimumSplit(t *testing.T) {
	g := refineGrid(t, 1)
	// A pair exactly 1/MinSplit of the span long is split; one shorter
	// is not, however much the metric changes across it.
	// MinSplit is 4096, written out so that a change of the limit shows;
	// host_io_gbps is at most 1000: a span of 4096 eighths, exact in
	// binary.
	lin := grids.RefineAxis{Name: "host_io_gbps", Kind: params.KindFloat}
	const span = 4096.0
	for _, tc := range []struct {
		name string
		axis grids.RefineAxis
		vals [3]float64 // the short pair first
		want bool       // the short pair is split
	}{
		{"linear, exactly the minimum", lin, [3]float64{1, 1.125, 1 + span/8}, true},
		{"linear, below the minimum", lin, [3]float64{1, 1.124, 1 + span/8}, false},
		{"log, just above the minimum", grids.RefineAxis{Name: "host_io_gbps", Kind: params.KindFloat, Log: true},
			[3]float64{1, math.Exp(math.Log(1000) / span * 1.01), 1000}, true},
		{"log, just below the minimum", grids.RefineAxis{Name: "host_io_gbps", Kind: params.KindFloat, Log: true},
			[3]float64{1, math.Exp(math.Log(1000) / span * 0.99), 1000}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var pts []refinePoint
			for i, v := range tc.vals {
				s := strconv.FormatFloat(v, 'g', 12, 64)
				pts = append(pts, refinePoint{params: []string{"host_io_gbps", s}, victim: []float64{0, 10, 9}[i]})
			}
			got := propose(t, g, refineOf(10, 4, "", tc.axis), pts, "host_io_gbps")
			if len(got) == 0 || len(got) > 2 {
				t.Fatalf("proposals %v; want the long pair split, and the short one %v", got, tc.want)
			}
			// The long pair's midpoint is above the short pair's end.
			x, _ := strconv.ParseFloat(got[0], 64)
			short := x < tc.vals[1]
			if short != tc.want || (tc.want && len(got) != 2) || (!tc.want && len(got) != 1) {
				t.Errorf("pairs %v: proposals %v; want the short pair split: %v", tc.vals, got, tc.want)
			}
		})
	}
}

func TestRefineOrderAndBudget(t *testing.T) {
	g := refineGrid(t, 1)
	timer := grids.RefineAxis{Name: "ccti_timer", Kind: params.KindDuration}
	// A row along ccti_timer: pairs 100-200us (victim 2 to 12, across
	// victim >= 7), 200-400us (no change: never split), 400-800us (12 to 3,
	// across) and 800-1000us (3 to 12, across). A point alone on another
	// row stretches victim's range to 0..12, so that no pair spans it all.
	row := func(added ...string) []refinePoint {
		pts := []refinePoint{
			{params: []string{"ccti_timer", "100us"}, victim: 2},
			{params: []string{"ccti_timer", "200us"}, victim: 12},
			{params: []string{"ccti_timer", "400us"}, victim: 12},
			{params: []string{"ccti_timer", "800us"}, victim: 3},
			{params: []string{"ccti_timer", "1000us"}, victim: 12},
			{params: []string{"ccti_timer", "500us", "marking_rate", "6"}, victim: 0},
		}
		// Added points on another row, so that they change no pair above.
		for _, v := range added {
			pts = append(pts, refinePoint{params: []string{"ccti_timer", v, "marking_rate", "5"}, victim: 7, added: true})
		}
		return pts
	}
	for _, tc := range []struct {
		name             string
		where            string
		points, perRound int
		added            []string
		want             []string
	}{
		// Across the boundary, the longest first: 400-800, then 800-1000,
		// then 100-200.
		{"boundary, longest first", "victim_gbps >= 7", 10, 2, nil, []string{"600us", "900us"}},
		{"boundary, all", "victim_gbps >= 7", 10, 10, nil, []string{"600us", "900us", "150us"}},
		// By the metric alone: 100-200 changes by 10/12, the others by
		// 9/12, the longer of those first.
		{"metric, then longest", "", 10, 2, nil, []string{"150us", "600us"}},
		{"metric, all", "", 10, 10, nil, []string{"150us", "600us", "900us"}},
		// The budget counts the points added before: 2 of 3 are spent.
		{"budget left", "", 3, 2, []string{"100us", "300us"}, []string{"150us"}},
		{"budget spent", "", 2, 2, []string{"100us", "300us"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := refineOf(tc.points, tc.perRound, tc.where, timer)
			if got := propose(t, g, r, row(tc.added...), "ccti_timer"); !slices.Equal(got, tc.want) {
				t.Errorf("proposals %v, want %v", got, tc.want)
			}
		})
	}
}

// TestRefineBoundaryBeforeWholeRange: a pair that spans the metric's
// whole range scores as much as one across a where boundary, but the
// boundary comes first. Along marking_rate = 1 the timer pair 100us-1000us
// goes from victim 2 to 12, the whole range, inside no boundary (marking
// rate 1 fails marking_rate >= 3 at both ends); along ccti_timer = 100us the
// marking rates 1-5 straddle the boundary with no change of the metric.
// Once sorted among the boundary pairs by length, the timer pair (the
// whole timer span) came first.
func TestRefineBoundaryBeforeWholeRange(t *testing.T) {
	g := refineGrid(t, 1)
	r := refineOf(10, 1, "marking_rate >= 3",
		grids.RefineAxis{Name: "ccti_timer", Kind: params.KindDuration},
		grids.RefineAxis{Name: "marking_rate", Kind: params.KindInt})
	pts := []refinePoint{
		{params: []string{"ccti_timer", "100us", "marking_rate", "1"}, victim: 2},
		{params: []string{"ccti_timer", "1000us", "marking_rate", "1"}, victim: 12},
		{params: []string{"ccti_timer", "100us", "marking_rate", "5"}, victim: 2},
		{params: []string{"ccti_timer", "100us", "marking_rate", "9"}, victim: 2},
	}
	if got := propose(t, g, r, pts, "marking_rate"); !slices.Equal(got, []string{"3"}) {
		t.Errorf("proposal's marking_rate %v, want [3] (the pair across the boundary)", got)
	}
}

// TestRefineProposesEveryWorthwhileMidpoint draws random irregular 2-D
// rounds (a random subset of a lattice of ccti_timer x marking_rate, random
// victim throughput) and, with a budget that does not bind, checks that
// the proposals are exactly the midpoints of the pairs of neighbours (equal
// but on one axis, nothing between them) whose victim throughput differs
// or that straddle victim >= 7, as a brute force over the pairs finds them.
func TestRefineProposesEveryWorthwhileMidpoint(t *testing.T) {
	g := refineGrid(t, 1)
	axes := []grids.RefineAxis{{Name: "ccti_timer", Kind: params.KindDuration}, {Name: "marking_rate", Kind: params.KindInt}}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		type cell struct{ t, m int } // ccti_timer in units of 64us, marking_rate in units of 64
		victim := map[cell]float64{}
		var pts []refinePoint
		for ti := range 6 {
			for mi := range 5 {
				if rng.IntN(3) == 0 {
					continue
				}
				c := cell{1 + ti + rng.IntN(2)*ti, mi * (1 + rng.IntN(2))}
				if _, dup := victim[c]; dup {
					continue
				}
				victim[c] = float64(rng.IntN(4) * 4)
				pts = append(pts, refinePoint{params: []string{"ccti_timer", fmt.Sprintf("%dus", 64*c.t), "marking_rate", strconv.Itoa(64 * c.m)}, victim: victim[c]})
			}
		}
		where := ""
		if seed%2 == 0 {
			where = "victim_gbps >= 7"
		}
		want := map[string]bool{}
		for a, va := range victim {
			for b, vb := range victim {
				worth := va != vb
				if where != "" {
					worth = worth || (va >= 7) != (vb >= 7)
				}
				if !worth {
					continue
				}
				between := func(in func(c cell) bool) bool {
					for c := range victim {
						if in(c) {
							return true
						}
					}
					return false
				}
				switch {
				case a.m == b.m && a.t < b.t && !between(func(c cell) bool { return c.m == a.m && c.t > a.t && c.t < b.t }):
					want[fmt.Sprintf("ccti_timer=%dus marking_rate=%d", 32*(a.t+b.t), 64*a.m)] = true
				case a.t == b.t && a.m < b.m && !between(func(c cell) bool { return c.t == a.t && c.m > a.m && c.m < b.m }):
					want[fmt.Sprintf("ccti_timer=%dus marking_rate=%d", 64*a.t, 32*(a.m+b.m))] = true
				}
			}
		}
		var planned []adaptive.Planned
		sums := map[string]*store.Summary{}
		for _, p := range pts {
			params := []grids.Param{{Name: p.params[0], Value: p.params[1]}, {Name: p.params[2], Value: p.params[3]}}
			sp := []store.Param{{Name: p.params[0], Value: p.params[1]}, {Name: p.params[2], Value: p.params[3]}}
			planned = append(planned, adaptive.Planned{Point: grids.Point{Scenario: "testbed-s1", Params: params, Seed: 1}})
			sums[store.PointKey("testbed-s1", sp)] = &store.Summary{Metrics: map[string]store.Stat{"victim_gbps": {N: 1, Mean: p.victim}}}
		}
		r := refineOf(1000, 1000, where, axes...)
		next, err := adaptive.RefineStepper{Refine: r}.Next(context.Background(), adaptive.StepInput{Grid: g, Planned: planned, Sums: sums})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, p := range next {
			tm, _ := p.Value("ccti_timer")
			mr, _ := p.Value("marking_rate")
			got["ccti_timer="+tm+" marking_rate="+mr] = true
		}
		if len(got) != len(next) || !mapsEqual(got, want) {
			t.Fatalf("seed %d: %d proposals %v\nwant %d: %v", seed, len(next), keys(got), len(want), keys(want))
		}
	}
}

func mapsEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
