package rank

import "testing"

// Robust scoring takes up to MaxRobustPoints points and refuses one more,
// naming both counts. Kills the check's `n > MaxRobustPoints` turned into
// `>=` (ranking 20 000 points robustly to see it costs minutes).
func TestRobustScoringTakesExactlyMaxRobustPoints(t *testing.T) {
	for _, n := range []int{0, 1, MaxRobustPoints - 1, MaxRobustPoints} {
		if err := checkRobust(n); err != nil {
			t.Errorf("%d points: %v; want them scored", n, err)
		}
	}
	err := checkRobust(MaxRobustPoints + 1)
	if want := "rank: 20001 points; robust scoring finds the neighbours of at most 20000"; err == nil || err.Error() != want {
		t.Errorf("%d points: %v; want %q", MaxRobustPoints+1, err, want)
	}
}
