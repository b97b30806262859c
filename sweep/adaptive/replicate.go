package adaptive

import (
	"context"
	"math"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
)

// SeedStepper is the Stepper of seed targets (grids.SeedTarget): a point of
// a sub-grid with a target whose metric's 95 % confidence interval is wider
// than the target, and which has fewer than Max seeds, gets more seeds in
// the next round: as many as its current spread says it needs, at most
// twice what it has and at most Max. Seed k is the same random streams at
// every point (model.NewNetwork seeds its generator with the seed alone),
// so neighbouring points are compared under common random numbers.
type SeedStepper struct{}

// Next proposes the further seeds of the points short of their target.
func (SeedStepper) Next(_ context.Context, in StepInput) ([]Planned, error) {
	g, planned, sums := in.Grid, in.Planned, in.Sums
	var next []Planned
	seen := map[string]bool{}
	for _, p := range planned {
		t := g.Subs[p.Sub].Target
		if t == nil {
			continue
		}
		key := keyOf(p.Point)
		if seen[key] {
			continue
		}
		seen[key] = true
		s := sums[key]
		if s == nil {
			continue
		}
		n := len(s.Seeds)
		want := SeedsWanted(s.Metrics[t.Metric], t)
		for seed := n + 1; seed <= want; seed++ {
			q := p
			q.Point.Seed = uint64(seed)
			next = append(next, q)
		}
	}
	return next, nil
}

// SeedsWanted returns how many seeds a point whose metric st has should
// have for target t: st.N when its interval meets the target (or it has
// Max), else the count its spread asks for, ((t·sd)/(ci·|mean|))², with at
// least one seed more, at most twice as many and at most Max. A point
// whose metric is undefined (no value) gets no more seeds.
func SeedsWanted(st store.Stat, t *grids.SeedTarget) int {
	n := st.N
	if n == 0 || n >= t.Max || st.Precise(t.CI) || math.IsNaN(st.Mean) {
		return n
	}
	need := n + 1
	if target := t.CI * math.Abs(st.Mean); target > 0 && st.SD > 0 {
		k := store.TQuantile(n-1) * st.SD / target
		need = max(need, int(math.Ceil(k*k)))
	}
	return min(need, 2*n, t.Max)
}
