package fidelity

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// TestMutClaim1RowsPrintTheirPercentages checks the text claim 1's rows
// print, against numbers worked out by hand from goodReport's surface with
// two changes at CCTI_Timer 100 µs: 9 at Marking_Rate 4 and 3 at Marking_Rate
// 0 (6 elsewhere). The best victim over the plane is 12.9 (Marking_Rate 0 at
// every timer of 150 µs or more), so:
//
//	≤ 50 µs: at most 2.17, 100 × 2.17 / 12.9 = 16.8 → "17 %"; 2.17 at 0
//	100 µs:  at most 9 (Marking_Rate ≥ 1), 100 × 9 / 12.9 = 69.8 → "70 %"; 3 at 0
//
// and both pass (2.17 ≤ 50 % and 9 ≤ 75 % of 12.9).
func TestMutClaim1RowsPrintTheirPercentages(t *testing.T) {
	rep := goodReport()
	s := &rep.Surface
	i, j := s.index(100*engine.Microsecond, 4)
	s.Victim[i][j] = 9
	i, j = s.index(100*engine.Microsecond, 0)
	s.Victim[i][j] = 3
	want := map[string]string{
		"victim, CCTI_Timer 20 µs–50 µs": "at most 2.17 (17 % of best 12.90); at Marking_Rate 0 at most 2.17",
		"victim, CCTI_Timer 100 µs":      "at most 9.00 (70 % of best); at Marking_Rate 0 3.00",
	}
	seen := 0
	for _, r := range claimRows(rep) {
		w, ok := want[r.Item]
		if r.Source != "claim 1" {
			continue
		}
		if !ok {
			t.Errorf("claim 1 row %q not expected", r.Item)
			continue
		}
		seen++
		if r.Model != w || !r.Pass {
			t.Errorf("%s: model %q, pass %v; want %q, pass", r.Item, r.Model, r.Pass, w)
		}
	}
	if seen != len(want) {
		t.Errorf("%d claim 1 rows, want %d", seen, len(want))
	}
}
