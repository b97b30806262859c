package fidelity

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// Tests written against the survivors of session 11's measurement sample
// of model/fidelity (seed 37), after its figure was recorded.

// claimRow returns the row of rep's claims with this source and item.
func claimRow(t *testing.T, rep *FidelityReport, source, item string) FidelityRow {
	t.Helper()
	for _, r := range claimRows(rep) {
		if r.Source == source && r.Item == item {
			return r
		}
	}
	t.Fatalf("no row %s, %s", source, item)
	return FidelityRow{}
}

// Claim 2's best region: a best victim of exactly 92 % of host_io_gbps is
// "within 8 %". Kills `best >= 0.92*io` turned into `>`.
func TestMutClaim2BestAtExactly92Percent(t *testing.T) {
	rep := goodReport()
	s := &rep.Surface
	edge := 0.92 * rep.Config.HostIOGbps
	for i := range s.Victim {
		for j := range s.Victim[i] {
			s.Victim[i][j] = min(s.Victim[i][j], edge)
		}
	}
	s.Victim[0][0] = edge
	if r := claimRow(t, rep, "claim 2", "victim, best region"); !r.Pass {
		t.Errorf("best victim at exactly 92 %% of the host's I/O fails: model %s", r.Model)
	}
}

// Claim 2's "Marking_Rate ≥ 8" includes 8: a surface where only
// Marking_Rate 8 beats the low rates, by enough to lift the high rates'
// mean over theirs, fails. Kills `r >= 8` turned into `>`.
func TestMutClaim2HighRatesInclude8(t *testing.T) {
	rep := goodReport()
	s := &rep.Surface
	for j, mr := range s.Rates {
		if mr == 8 {
			for i := range s.Timers {
				s.Victim[i][j] += 40
			}
		}
	}
	if r := claim2LowHigh(t, rep); r.Pass {
		t.Errorf("Marking_Rate 8 far better than the low rates passes: model %s", r.Model)
	}
}

// Claim 4's "below a third": a mean Var at short timers of exactly a third
// of that at long ones fails. Kills `varShort < varRest/3` turned into
// `<=`.
func TestMutClaim4ExactlyAThirdIsNotBelow(t *testing.T) {
	rep := goodReport()
	s := &rep.Surface
	for i, tm := range s.Timers {
		for j := range s.Rates {
			if tm <= 100*engine.Microsecond {
				s.Var[i][j] = 1
			} else {
				s.Var[i][j] = 3
			}
		}
	}
	if r := claimRow(t, rep, "claim 4", "Var at low timers"); r.Pass {
		t.Errorf("Var at short timers exactly a third of the long ones' passes: model %s", r.Model)
	}
}

// Claim 5's "victim ≥ 90 % of best": a victim of exactly 9 where the best
// is 10 passes. Kills `v >= 0.9*best` turned into `>`.
func TestMutClaim5VictimAtExactly90Percent(t *testing.T) {
	rep := goodReport()
	s := &rep.Surface
	ti, ri := s.index(150*engine.Microsecond, 1)
	if ti < 0 {
		t.Fatal("the good report has no point at 150 µs, Marking_Rate 1")
	}
	for i := range s.Victim {
		for j := range s.Victim[i] {
			s.Victim[i][j] = min(s.Victim[i][j], 9)
		}
	}
	s.Victim[ti][ri] = 9
	s.Victim[(ti+1)%len(s.Timers)][ri] = 10
	if r := claimRow(t, rep, "claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs"); !r.Pass {
		t.Errorf("a victim of exactly 90 %% of the best fails: model %s", r.Model)
	}
}
