package fidelity

import (
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

// claim2LowHigh returns the row "victim, low vs high Marking_Rate" of rep.
func claim2LowHigh(t *testing.T, rep *FidelityReport) FidelityRow {
	t.Helper()
	return claimRow(t, rep, "claim 2", "victim, low vs high Marking_Rate")
}

// Claim 2's "CCTI_Timer ≥ 150 µs" includes 150 µs: a surface where the
// high Marking_Rates win only at 150 µs, by enough to lift their mean over
// every long timer, fails it. Kills timersWhere's `t >= 150 µs` turned
// into `>`.
func TestMutClaim2CountsTheTimerAt150(t *testing.T) {
	rep := goodReport()
	s := &rep.Surface
	for j, mr := range s.Rates {
		if mr >= 8 {
			i, _ := s.index(150*engine.Microsecond, mr)
			s.Victim[i][j] += 20
		}
	}
	if r := claim2LowHigh(t, rep); r.Pass {
		t.Errorf("high Marking_Rates far better at 150 µs pass: model %s", r.Model)
	}
}

// "at least that of": equal means pass. Kills `lowMean >= highMean`
// turned into `>`.
func TestMutClaim2EqualMeansPass(t *testing.T) {
	rep := goodReport()
	s := &rep.Surface
	for i, tm := range s.Timers {
		if tm >= 150*engine.Microsecond {
			for j := range s.Rates {
				s.Victim[i][j] = 12.5
			}
		}
	}
	if r := claim2LowHigh(t, rep); !r.Pass {
		t.Errorf("equal means fail: model %s", r.Model)
	}
}
