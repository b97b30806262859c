package fidelity

import (
	"math"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// A published range holds its ends: "F1 in 12.35–13.65" passes at 12.35
// and 13.65. Kills band.holds' `>=` and `<=` turned strict.
func TestMutBandHoldsItsEnds(t *testing.T) {
	b := band{12.35, 13.65}
	for _, c := range []struct {
		x    float64
		want bool
	}{{12.35, true}, {13.65, true}, {13, true}, {12.349, false}, {13.651, false}} {
		if got := b.holds(c.x); got != c.want {
			t.Errorf("%v.holds(%g) = %v, want %v", b, c.x, got, c.want)
		}
	}
}

// TestMutClaim4NeedsLongTimers: claim 4's "Var large over much of the
// plane" is judged on the points with CCTI_Timer ≥ 150 µs; a surface with
// none (timers 20-100 µs only) gives it nothing to hold on, and the row
// fails rather than passing on zero of zero points. Kills
// fidelity_reference.go's `restPoints > 0` turned into `>= 0`.
func TestMutClaim4NeedsLongTimers(t *testing.T) {
	rep := goodReport()
	short := []engine.Time{20 * engine.Microsecond, 50 * engine.Microsecond, 100 * engine.Microsecond}
	rep.Surface = flatSurface(short, FidelityRates)
	found := false
	for _, r := range claimRows(rep) {
		if r.Source == "claim 4" && r.Item == "Var over the plane" {
			found = true
			if r.Pass {
				t.Errorf("claim 4 over no point at CCTI_Timer ≥ 150 µs passes: %s", r.Model)
			}
		}
	}
	if !found {
		t.Fatal("no claim 4 row \"Var over the plane\"")
	}
}

// TestMutClaim1EdgeNeedsItsPoints: claim 1's short-timer edge is judged at
// CCTI_Timer ≤ 50 µs and Marking_Rate ≥ 1; a surface without such timers,
// or with Marking_Rate 0 alone, gives it no point, and the row fails rather
// than passing on an empty maximum. Kills fidelity_reference.go's
// `len(edge) > 0` and `len(positive) > 0` turned into `>= 0`.
func TestMutClaim1EdgeNeedsItsPoints(t *testing.T) {
	for _, c := range []struct {
		name   string
		timers []engine.Time
		rates  []int
	}{
		{"no timer ≤ 50 µs", FidelityTimers[2:], FidelityRates},
		{"Marking_Rate 0 only", FidelityTimers, []int{0}},
	} {
		rep := goodReport()
		rep.Surface = flatSurface(c.timers, c.rates)
		found := false
		for _, r := range claimRows(rep) {
			if r.Source == "claim 1" && strings.Contains(r.Measure, "≤ 50 µs") {
				found = true
				if r.Pass {
					t.Errorf("%s: claim 1's edge row passes: %s", c.name, r.Model)
				}
			}
		}
		if !found {
			t.Fatalf("%s: no claim 1 row on the edge", c.name)
		}
	}
}

// flatSurface is a surface over timers × rates with the same victim (6),
// contributors (3.2) and Var (0.3) at every point.
func flatSurface(timers []engine.Time, rates []int) FidelitySurface {
	s := newSurface(timers, rates)
	for i := range timers {
		for j := range rates {
			s.Victim[i][j], s.Contributors[i][j], s.Var[i][j] = 6, 3.2, 0.3
		}
	}
	return s
}

// The median of an odd number of values is the middle one, of an even
// number the mean of the middle two; of none NaN.
func TestMutMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{5, 1, 3}, 3},
		{[]float64{7}, 7},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 0}, 5},
		{[]float64{6, 1, 1, 2, 9, 3}, 2.5},
	} {
		if got := median(c.xs); got != c.want {
			t.Errorf("median(%v) = %g, want %g", c.xs, got, c.want)
		}
	}
	if got := median(nil); !math.IsNaN(got) {
		t.Errorf("median of nothing = %g, want NaN", got)
	}
}
