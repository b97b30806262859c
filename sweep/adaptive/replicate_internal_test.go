package adaptive

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
)

// TestMutSeedsWantedAddsOneWhereTheSpreadCannotSay checks SeedsWanted's
// "at least one seed more" where the spread gives no count: a metric of
// mean 0 (a relative target of 0) that is not precise gets one seed more
// a round, up to Max.
func TestMutSeedsWantedAddsOneWhereTheSpreadCannotSay(t *testing.T) {
	target := &grids.SeedTarget{Min: 2, Max: 8, CI: 0.05, Metric: "victim_gbps"}
	for _, c := range []struct {
		st   store.Stat
		want int
	}{
		{store.Stat{N: 3, Mean: 0, SD: 1, HalfWidth: 2.5}, 4},
		{store.Stat{N: 7, Mean: 0, SD: 1, HalfWidth: 0.9}, 8},
		{store.Stat{N: 8, Mean: 0, SD: 1, HalfWidth: 0.8}, 8},
	} {
		if got := SeedsWanted(c.st, target); got != c.want {
			t.Errorf("SeedsWanted(%+v) = %d, want %d", c.st, got, c.want)
		}
	}
}

// TestMutSeedsWantedUsesTheSeedsDegreesOfFreedom checks SeedsWanted's
// count against Student's t with n−1 degrees of freedom, by hand: 10
// seeds, mean 10, SD 1.8, target ±10 % (1.0): (t(0.975, 9) · 1.8 / 1)² =
// (2.2622 · 1.8)² = 16.58, so 17 seeds (within twice 10). With 11 degrees
// of freedom (t = 2.2010) it would be 15.70, so 16. Kills replicate.go's
// `TQuantile(n-1)` turned into `n+1`.
func TestMutSeedsWantedUsesTheSeedsDegreesOfFreedom(t *testing.T) {
	target := &grids.SeedTarget{Min: 2, Max: 100, CI: 0.1, Metric: "victim_gbps"}
	st := store.Stat{N: 10, Mean: 10, SD: 1.8, HalfWidth: 2.2622 * 1.8 / math.Sqrt(10)}
	if w := SeedsWanted(st, target); w != 17 {
		t.Fatalf("SeedsWanted = %d, want 17", w)
	}
}
