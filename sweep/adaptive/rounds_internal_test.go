package adaptive

import (
	"context"
	"fmt"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
)

// TestMutSeedStepperProposesOnlyNewSeeds checks SeedStepper.Next on one
// point done with seeds 1 and 2 whose interval is far wider than its
// target: SeedsWanted caps it at twice its seeds, 4, so the next round is
// seeds 3 and 4 of that point, exactly, and not the seeds it has.
func TestMutSeedStepperProposesOnlyNewSeeds(t *testing.T) {
	target := &grids.SeedTarget{Min: 2, Max: 8, CI: 0.05, Metric: "victim_gbps"}
	g := &grids.Grid{Subs: []*grids.SubGrid{{Scenario: "testbed-s1", Target: target}}}
	pt := grids.Point{Scenario: "testbed-s1", Params: []grids.Param{{Name: "ccti_increase", Value: "2"}}}
	var planned []Planned
	for seed := uint64(1); seed <= 2; seed++ {
		q := Planned{Point: pt}
		q.Point.Seed = seed
		planned = append(planned, q)
	}
	st := store.Stat{N: 2, Mean: 10, SD: 5, HalfWidth: 45}
	if w := SeedsWanted(st, target); w != 4 {
		t.Fatalf("SeedsWanted = %d, want 4 (twice the 2 seeds)", w)
	}
	sums := map[string]*store.Summary{keyOf(pt): {Seeds: []uint64{1, 2}, Metrics: map[string]store.Stat{"victim_gbps": st}}}
	next, err := SeedStepper{}.Next(context.Background(), StepInput{Grid: g, Round: 0, Planned: planned, Sums: sums})
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	for _, p := range next {
		seeds = append(seeds, p.Point.Seed)
	}
	if fmt.Sprint(seeds) != "[3 4]" {
		t.Errorf("next round's seeds %v, want [3 4]", seeds)
	}
}
