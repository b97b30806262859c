package fidelity

import (
	"bytes"
	"context"
	"math"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
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

// docsValidateTable returns the rows of `ccsweep validate`'s output shown in
// docs/model.md, each split into its seven cells.
func docsValidateTable(t *testing.T) [][]string {
	t.Helper()
	doc, err := os.ReadFile("../../docs/model.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	in := false
	for _, l := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(l, "| source | kind | compared | model | published | measure | verdict |") {
			in = true
			continue
		}
		if !in || strings.HasPrefix(l, "|---") {
			continue
		}
		if !strings.HasPrefix(l, "| ") {
			break
		}
		cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "| "), " |"), " | ")
		if len(cells) != 7 {
			t.Fatalf("docs/model.md: a row of validate's table with %d cells: %s", len(cells), l)
		}
		rows = append(rows, cells)
	}
	if len(rows) == 0 {
		t.Fatal("docs/model.md: validate's table not found")
	}
	return rows
}

// docsReport is goodReport with the contributors' sd of the fifth phase of
// docs/model.md's run (0.074 with CC on, 0.008 off), so that every row's
// measure reads as there.
func docsReport() *FidelityReport {
	rep := goodReport()
	for f := 1; f <= 4; f++ {
		rep.onSD[4][f], rep.offSD[4][f] = 0.074, 0.008
	}
	return rep
}

// Every row names its source, kind, item, published value and measure as
// validate's output in docs/model.md does (the measures there are the
// published numbers as ranges and thresholds: F1 in 12.35–13.65, Jain's
// index ≥ 0.90, sd ≥ 3 × theirs, within 8 % of host_io_gbps, less than
// 10 %, ...), and prints the model's numbers of the hand-made report as
// worked out by hand:
//
//   - claim 2, low vs high: the victim at CCTI_Timer t ≥ 150 µs and
//     Marking_Rate r is 12.9 − 0.05·r·150/t; the mean of 150/t over the seven
//     long timers is 2.875/7 = 0.4107, so 12.9 − 0.05·1·0.4107 = 12.88 over
//     r ≤ 2 (mean r 1) and 12.9 − 0.05·12·0.4107 = 12.65 over r ≥ 8;
//   - claim 2, sensitivity: the spread over r at t is 0.05·16·150/t = 120/t:
//     0.80 and 0.60 at 150 and 200 µs (mean 0.70), 0.08 and 0.06 at 1500 and
//     2000 µs (mean 0.07);
//   - claim 4: Var 0.3 at every long-timer point but the chosen one (0.1):
//     the largest 0.3, a quarter 0.075, all 42 points at or above it; mean
//     (41·0.3 + 0.1)/42 = 0.295 over them, 0.05/3 = 0.017 at ≤ 100 µs
//     (0, 0, 0.05);
//   - claim 5: the victim at 150 µs, Marking_Rate 1 is 12.9 − 0.05 = 12.85,
//     the Var median over 42 points with 41 at 0.3 is 0.3;
//   - scenario 2: 1 − 10.30/10.53 = 2.2 % and Jain's index of 10.2, 10.4,
//     10.3 is 954.81/954.87 = 1.000.
func TestMutEveryRowPrintsWhatDocsShow(t *testing.T) {
	models := []string{
		"F1 13.00", "F1 13.00, F2 13.00", "F1 6.50, F2 6.50, F3 6.50", "F1 3.25, F2 3.25, F3 3.25, F4 6.50",
		"F1 2.17, F2 2.17, F3 2.17, F4 4.33, F5 4.33",
		"F1 13.00", "F1 13.00, F2 13.00", "F1 13.00, F2 5.50, F3 5.50", "F1 13.00, F2 4.30, F3 4.30, F4 4.30",
		"F1 13.00, F2 3.20, F3 3.20, F4 3.20, F5 3.20",
		"at most 2.17 (17 % of best 12.90); at Marking_Rate 0 at most 2.17",
		"at most 6.00 (47 % of best); at Marking_Rate 0 6.00",
		"12.90",
		"12.88 at Marking_Rate ≤ 2, 12.65 at ≥ 8",
		"spread 0.70 at 150 µs–200 µs, 0.07 at 1500 µs–2000 µs",
		"3.20–3.20 (mean 3.20)",
		"42 of 42 points at CCTI_Timer ≥ 150 µs have Var ≥ 0.075 (a quarter of the largest, 0.300)",
		"mean 0.017 at CCTI_Timer ≤ 100 µs, 0.295 at ≥ 150 µs",
		"victim 12.85 (best 12.90), contributors 3.20 (median 3.20), Var 0.100 (median 0.300)",
		"11.00",
		"12.80",
		"CC off F1 10.53, F2 10.53, F3 10.53 (mean 10.53); CC on F1 10.20, F2 10.40, F3 10.30 (mean 10.30): cost 2.2 %, Jain 1.000",
	}
	docs := docsValidateTable(t)
	rows := judge(docsReport())
	if len(rows) != len(docs) || len(rows) != len(models) {
		t.Fatalf("%d rows, docs/model.md shows %d, %d model texts", len(rows), len(docs), len(models))
	}
	for i, r := range rows {
		_, kind := groupOf(r.Source)
		got := []string{r.Source, kind, r.Item, r.Published, r.Measure}
		want := []string{docs[i][0], docs[i][1], docs[i][2], docs[i][4], docs[i][5]}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("row %d:\n got  %q\n want %q (docs/model.md)", i, got, want)
		}
		if r.Model != models[i] || !r.Pass {
			t.Errorf("row %d, %s %s: model %q, pass %v; want %q, pass", i, r.Source, r.Item, r.Model, r.Pass, models[i])
		}
	}
}

// exactJain returns n values, all a but the last, whose Jain's index as
// model.Jain computes it is exactly want, and the value just past the last
// that brings the index below want; ok is false if none is found. The last
// value is found by bisection over the floating-point numbers above a,
// where the index falls as the last value grows.
func exactJain(want, a float64, n int) (vals []float64, below float64, ok bool) {
	jain := func(last float64) float64 {
		xs := slices.Repeat([]float64{a}, n-1)
		return model.Jain(append(xs, last))
	}
	lo, hi := math.Float64bits(a), math.Float64bits(100*a) // jain(lo) = 1 > want > jain(hi)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if jain(math.Float64frombits(mid)) >= want {
			lo = mid
		} else {
			hi = mid
		}
	}
	last := math.Float64frombits(lo)
	if jain(last) != want {
		return nil, 0, false
	}
	return append(slices.Repeat([]float64{a}, n-1), last), math.Float64frombits(hi), true
}

// findExactJain tries a few equal shares until exactJain finds values.
func findExactJain(t *testing.T, want float64, n int, shares []float64) ([]float64, float64) {
	t.Helper()
	for _, a := range shares {
		if vals, below, ok := exactJain(want, a, n); ok {
			return vals, below
		}
	}
	t.Fatalf("no %d values with Jain's index exactly %g", n, want)
	return nil, 0
}

// claimCase is a hand-made report, changed, and the verdict of one row.
type claimCase struct {
	name         string
	change       func(*FidelityReport)
	source, item string
	pass         bool
}

// setVictim sets the victim on the whole plane from f.
func setVictim(rep *FidelityReport, f func(t engine.Time, r int) float64) {
	s := &rep.Surface
	for i, tm := range s.Timers {
		for j, r := range s.Rates {
			s.Victim[i][j] = f(tm, r)
		}
	}
}

// twelveBest is a plane whose best victim is 12 (Marking_Rate 0 at the long
// timers), 11 at the other long-timer points, 6 at 100 µs and 2 below.
func twelveBest(tm engine.Time, r int) float64 {
	switch {
	case tm <= 50*engine.Microsecond:
		return 2
	case tm == 100*engine.Microsecond:
		return 6
	case r == 0:
		return 12
	}
	return 11
}

// at sets one point of a surface.
func at(rep *FidelityReport, m func(*FidelitySurface) [][]float64, tm engine.Time, r int, v float64) {
	s := &rep.Surface
	i, j := s.index(tm, r)
	m(s)[i][j] = v
}

func victim(s *FidelitySurface) [][]float64 { return s.Victim }

func contributors(s *FidelitySurface) [][]float64 { return s.Contributors }

func variance(s *FidelitySurface) [][]float64 { return s.Var }

const us = engine.Microsecond

// Each check of SPEC §3's tables and of the claims at its published
// threshold, on both sides (docs/model.md's measures; docs/fidelity.md).
// The values at an edge are exact in floating point: halves, quarters, and
// 0.95 or 0.1 times a power of two or a small integer whose product rounds
// to the number written.
func TestMutEveryCheckAtItsEdge(t *testing.T) {
	const (
		ccOn  = "SPEC §3, CC on"
		c1    = "claim 1"
		edge  = "victim, CCTI_Timer 20 µs–50 µs"
		at100 = "victim, CCTI_Timer 100 µs"
	)
	cases := []claimCase{
		// SPEC §3, CC on, fifth phase: "oscillating", the contributors' sd at
		// least 3 times theirs with CC off.
		{"sd exactly 3 × CC off's", func(r *FidelityReport) {
			for f := 1; f <= 4; f++ {
				r.onSD[4][f], r.offSD[4][f] = 0.375, 0.125
			}
		}, ccOn, "F1–F5", true},
		{"sd just below 3 × CC off's", func(r *FidelityReport) {
			for f := 1; f <= 4; f++ {
				r.onSD[4][f], r.offSD[4][f] = 0.37, 0.125
			}
		}, ccOn, "F1–F5", false},
		// SPEC §3, CC on, fourth phase: the contributors sum 10–13.
		{"contributors summing 10", func(r *FidelityReport) { r.On[3][1], r.On[3][2], r.On[3][3] = 3.25, 3.25, 3.5 }, ccOn, "F1–F4", true},
		{"contributors summing 13", func(r *FidelityReport) { r.On[3][1], r.On[3][2], r.On[3][3] = 4.5, 4.5, 4 }, ccOn, "F1–F4", true},
		{"contributors summing 13.5", func(r *FidelityReport) { r.On[3][1], r.On[3][2], r.On[3][3] = 4.5, 4.5, 4.5 }, ccOn, "F1–F4", false},

		// Claim 1: ≤ 50 % of the best (12) at every timer ≤ 50 µs and
		// Marking_Rate ≥ 1; ≤ 75 % at 100 µs.
		{"edge at exactly half the best", func(r *FidelityReport) {
			setVictim(r, twelveBest)
			at(r, victim, 50*us, 16, 6)
		}, c1, edge, true},
		{"edge above half the best at 50 µs", func(r *FidelityReport) {
			setVictim(r, twelveBest)
			at(r, victim, 50*us, 16, 6.01)
		}, c1, edge, false},
		{"edge above half the best at Marking_Rate 1", func(r *FidelityReport) {
			setVictim(r, twelveBest)
			at(r, victim, 20*us, 1, 6.01)
		}, c1, edge, false},
		{"edge high at Marking_Rate 0 only (not published)", func(r *FidelityReport) {
			setVictim(r, twelveBest)
			at(r, victim, 20*us, 0, 12)
		}, c1, edge, true},
		{"100 µs at exactly three quarters of the best", func(r *FidelityReport) {
			setVictim(r, twelveBest)
			at(r, victim, 100*us, 1, 9)
		}, c1, at100, true},
		{"100 µs above three quarters of the best", func(r *FidelityReport) {
			setVictim(r, twelveBest)
			at(r, victim, 100*us, 1, 9.01)
		}, c1, at100, false},
		{"100 µs high at Marking_Rate 0 only (not published)", func(r *FidelityReport) {
			setVictim(r, twelveBest)
			at(r, victim, 100*us, 0, 12)
		}, c1, at100, true},

		// Claim 2: Marking_Rate ≤ 2 includes 2; the spread must exceed, not
		// equal, the long timers'; two timers ≥ 150 µs are enough (one a
		// third each).
		{"Marking_Rate 2 lifts the low rates", func(r *FidelityReport) {
			setVictim(r, func(tm engine.Time, mr int) float64 {
				switch {
				case tm < 150*us:
					return 2
				case mr == 2:
					return 14
				case mr < 2:
					return 10
				}
				return 11 // (10 + 10 + 14) / 3 = 11.33 ≥ 11; without 2, 10 < 11
			})
		}, "claim 2", "victim, low vs high Marking_Rate", true},
		{"the same spread at every long timer", func(r *FidelityReport) {
			setVictim(r, func(tm engine.Time, mr int) float64 { return 12.9 - 0.05*float64(mr) })
		}, "claim 2", "victim's sensitivity to Marking_Rate", false},
		{"the spread shrinking by a hair", func(r *FidelityReport) {
			setVictim(r, func(tm engine.Time, mr int) float64 {
				if tm == 2000*us {
					return 12.9 - 0.04*float64(mr)
				}
				return 12.9 - 0.05*float64(mr)
			})
		}, "claim 2", "victim's sensitivity to Marking_Rate", true},

		// Claim 3: max − min ≤ 10 % of the mean: 4.75 and 5.25 (mean 5,
		// range 0.5) pass; 4.75 and 5.3 fail.
		{"contributors spread exactly 10 % of their mean", func(r *FidelityReport) {
			alternate(r, 4.75, 5.25)
		}, "claim 3", "contributors' mean throughput", true},
		{"contributors spread above 10 % of their mean", func(r *FidelityReport) {
			alternate(r, 4.75, 5.3)
		}, "claim 3", "contributors' mean throughput", false},

		// Claim 4: at least half the 42 long-timer points have Var ≥ a
		// quarter of the largest (1): 21 of them (the largest and 20 at
		// exactly 0.25) pass, 20 fail; Var at ≤ 100 µs (100 included) below
		// a third of the long timers'.
		{"exactly half the points at exactly a quarter", func(r *FidelityReport) { varPlane(r, 20, 0.25) }, "claim 4", "Var over the plane", true},
		{"one point short of half", func(r *FidelityReport) { varPlane(r, 19, 0.25) }, "claim 4", "Var over the plane", false},
		{"half the points just below a quarter", func(r *FidelityReport) { varPlane(r, 20, 0.2499) }, "claim 4", "Var over the plane", false},
		{"Var high at 100 µs", func(r *FidelityReport) {
			for j := range r.Surface.Rates {
				at(r, variance, 100*us, r.Surface.Rates[j], 0.9)
			}
		}, "claim 4", "Var at low timers", false},

		// Claim 5: contributors ≥ 95 % of the plane's median (4): 3.8 passes;
		// Var ≤ the long timers' median (0.3): 0.3 passes, 0.31 fails; the
		// threshold must be 15.
		{"contributors at exactly 95 % of the median", func(r *FidelityReport) {
			setContributors(r, 4)
			at(r, contributors, 150*us, 1, 3.8)
		}, "claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs", true},
		{"contributors below 95 % of the median", func(r *FidelityReport) {
			setContributors(r, 4)
			at(r, contributors, 150*us, 1, 3.79)
		}, "claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs", false},
		{"Var at the median", func(r *FidelityReport) { at(r, variance, 150*us, 1, 0.3) },
			"claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs", true},
		{"Var above the median", func(r *FidelityReport) { at(r, variance, 150*us, 1, 0.31) },
			"claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs", false},
		{"victim at exactly 90 % of the best", func(r *FidelityReport) {
			setVictim(r, func(tm engine.Time, mr int) float64 { return min(twelveBest(tm, mr), 9) })
			at(r, victim, 2000*us, 0, 10)
		}, "claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs", true},
		{"victim below 90 % of the best", func(r *FidelityReport) {
			setVictim(r, func(tm engine.Time, mr int) float64 { return min(twelveBest(tm, mr), 8.99) })
			at(r, victim, 2000*us, 0, 10)
		}, "claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs", false},
		{"threshold 16", func(r *FidelityReport) { r.Config.CC.Threshold = 16 },
			"claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs", false},
		{"no timer below 150 µs", func(r *FidelityReport) {
			long := FidelityTimers[3:]
			r.Surface = newSurface(long, FidelityRates)
			for i := range long {
				for j := range FidelityRates {
					r.Surface.Victim[i][j], r.Surface.Contributors[i][j], r.Surface.Var[i][j] = 12, 3.2, 0.3
				}
			}
		}, "claim 5", "threshold 15, Marking_Rate 1, CCTI_Timer 150 µs", true},

		// Claim 6: F2 + F3 in 10–12.5; F2–F5 ≥ 95 % of host_io_gbps (20: 19).
		{"F2 + F3 at 10", func(r *FidelityReport) { r.On[2][1], r.On[2][2] = 5, 5 }, "claim 6", "F2 + F3, CC on, third phase", true},
		{"F2 + F3 at 12.5", func(r *FidelityReport) { r.On[2][1], r.On[2][2] = 6.25, 6.25 }, "claim 6", "F2 + F3, CC on, third phase", true},
		{"F2 + F3 below 10", func(r *FidelityReport) { r.On[2][1], r.On[2][2] = 5, 4.99 }, "claim 6", "F2 + F3, CC on, third phase", false},
		{"F2–F5 at exactly 95 %", func(r *FidelityReport) {
			r.Config.HostIOGbps = 20
			for f := 1; f <= 4; f++ {
				r.On[4][f] = 4.75
			}
		}, "claim 6", "F2–F5, CC on, fifth phase", true},
		{"F2–F5 below 95 %", func(r *FidelityReport) {
			r.Config.HostIOGbps = 20
			for f := 1; f <= 4; f++ {
				r.On[4][f] = 4.74
			}
		}, "claim 6", "F2–F5, CC on, fifth phase", false},

		// Scenario 2: a cost under 10 % passes, over fails; no throughput
		// with CC off leaves nothing to compare.
		{"s2 cost 9.9 %", func(r *FidelityReport) {
			r.S2Off, r.S2On = []float64{10, 10, 10}, []float64{9.01, 9.01, 9.01}
		}, "scenario 2", "F1–F3, CC on vs off, third phase", true},
		{"s2 cost 10.1 %", func(r *FidelityReport) {
			r.S2Off, r.S2On = []float64{10, 10, 10}, []float64{8.99, 8.99, 8.99}
		}, "scenario 2", "F1–F3, CC on vs off, third phase", false},
		{"s2 nothing with CC off", func(r *FidelityReport) {
			r.S2Off = []float64{0, 0, 0}
		}, "scenario 2", "F1–F3, CC on vs off, third phase", false},
	}

	// Jain's index exactly at "share H5" (0.90, the fourth phase's three
	// contributors, summing 10–13) and at "treated fairly" (0.95, scenario
	// 2's three flows, CC off the same so no cost), and just below.
	share, shareBelow := findExactJain(t, 0.90, 3, []float64{3.2, 3.0, 3.1, 3.25, 3.3})
	cases = append(cases,
		claimCase{"Jain exactly 0.90", func(r *FidelityReport) { copy(r.On[3][1:4], share) }, ccOn, "F1–F4", true},
		claimCase{"Jain just below 0.90", func(r *FidelityReport) {
			copy(r.On[3][1:4], share)
			r.On[3][3] = shareBelow
		}, ccOn, "F1–F4", false})
	fair, fairBelow := findExactJain(t, 0.95, 3, []float64{9, 9.5, 10, 10.5, 11})
	cases = append(cases,
		claimCase{"s2 Jain exactly 0.95", func(r *FidelityReport) {
			r.S2On, r.S2Off = slices.Clone(fair), slices.Clone(fair)
		}, "scenario 2", "F1–F3, CC on vs off, third phase", true},
		claimCase{"s2 Jain just below 0.95", func(r *FidelityReport) {
			r.S2On, r.S2Off = slices.Clone(fair), slices.Clone(fair)
			r.S2On[2] = fairBelow
		}, "scenario 2", "F1–F3, CC on vs off, third phase", false})

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := goodReport()
			c.change(rep)
			found := false
			for _, r := range judge(rep) {
				if r.Source == c.source && strings.HasPrefix(r.Item, c.item) {
					found = true
					if r.Pass != c.pass {
						t.Errorf("%s %q: pass %v, want %v: model %s; measure %s", r.Source, r.Item, r.Pass, c.pass, r.Model, r.Measure)
					}
				}
			}
			if !found {
				t.Fatalf("no row %s %s", c.source, c.item)
			}
		})
	}
}

// alternate sets the contributors to a and b on alternate points (as many
// of each: the plane has an even number of points).
func alternate(rep *FidelityReport, a, b float64) {
	s := &rep.Surface
	for i := range s.Timers {
		for j := range s.Rates {
			s.Contributors[i][j] = a
			if (i+j)%2 == 1 {
				s.Contributors[i][j] = b
			}
		}
	}
}

func setContributors(rep *FidelityReport, v float64) {
	s := &rep.Surface
	for i := range s.Timers {
		for j := range s.Rates {
			s.Contributors[i][j] = v
		}
	}
}

// varPlane sets Var at the timers ≥ 150 µs: 1 at the first point, v at the
// next n, 0.1 at the others.
func varPlane(rep *FidelityReport, n int, v float64) {
	s := &rep.Surface
	k := 0
	for i, tm := range s.Timers {
		if tm < 150*us {
			continue
		}
		for j := range s.Rates {
			switch {
			case k == 0:
				s.Var[i][j] = 1
			case k <= n:
				s.Var[i][j] = v
			default:
				s.Var[i][j] = 0.1
			}
			k++
		}
	}
}

// Claim 2's sensitivity needs two timers ≥ 150 µs and judges them with
// one each, named alone: with 150 and 200 µs, spread 0.8 and 0.6 (the
// victim 12.9 − 0.05·r·150/t), it passes.
func TestMutClaim2SensitivityOnTwoLongTimers(t *testing.T) {
	rep := goodReport()
	timers := FidelityTimers[:5]
	rep.Surface = newSurface(timers, FidelityRates)
	for i, tm := range timers {
		for j, mr := range FidelityRates {
			rep.Surface.Victim[i][j] = 12.9 - 0.05*float64(mr)*float64(150*us)/float64(tm)
		}
	}
	r := claimRow(t, rep, "claim 2", "victim's sensitivity to Marking_Rate")
	if want := "spread 0.80 at 150 µs, 0.60 at 200 µs"; r.Model != want || !r.Pass {
		t.Errorf("model %q, pass %v; want %q, pass", r.Model, r.Pass, want)
	}
	// With no timer ≤ 50 µs, claim 1's row names none.
	rep.Surface = newSurface(FidelityTimers[2:], FidelityRates)
	if r := claimRow(t, rep, "claim 1", "victim, CCTI_Timer no timer"); r.Pass {
		t.Errorf("claim 1 with no timer on the edge passes: %s", r.Model)
	}
}

// Claim 1's row at 100 µs needs the timer and a Marking_Rate ≥ 1 on the
// grid: without either it fails rather than passing on an empty maximum.
func TestMutClaim1At100NeedsItsPoints(t *testing.T) {
	for _, c := range []struct {
		name   string
		timers []engine.Time
		rates  []int
	}{
		{"no timer of 100 µs", slices.Delete(slices.Clone(FidelityTimers), 2, 3), FidelityRates},
		{"Marking_Rate 0 only", FidelityTimers, []int{0}},
	} {
		rep := goodReport()
		rep.Surface = flatSurface(c.timers, c.rates)
		if r := claimRow(t, rep, "claim 1", "victim, CCTI_Timer 100 µs"); r.Pass {
			t.Errorf("%s: claim 1's row at 100 µs passes: %s", c.name, r.Model)
		}
	}
}

// index gives a point's position on the grid, or -1, -1 when the timer or
// the rate is not on it; the first timer and rate are at 0, 0.
func TestMutIndexOffTheGrid(t *testing.T) {
	s := newSurface(FidelityTimers, FidelityRates)
	for _, c := range []struct {
		timer  engine.Time
		rate   int
		ti, ri int
	}{
		{20 * us, 0, 0, 0},
		{2000 * us, 16, 9, 5},
		{150 * us, 1, 3, 1},
		{175 * us, 1, -1, -1},
		{150 * us, 3, -1, -1},
		{175 * us, 3, -1, -1},
	} {
		if ti, ri := s.index(c.timer, c.rate); ti != c.ti || ri != c.ri {
			t.Errorf("index(%v, %d) = %d, %d; want %d, %d", c.timer, c.rate, ti, ri, c.ti, c.ri)
		}
	}
}

// validate --sensitivity without --set names none in its summary line.
func TestMutSensitivityMarkdownWithoutSets(t *testing.T) {
	cfg := params.DefaultConfig()
	base := &FidelityReport{Config: cfg, Rows: []FidelityRow{{Source: "claim 1", Item: "victim", Pass: true}}}
	rep := &SensitivityReport{Base: base}
	var buf bytes.Buffer
	rep.WriteMarkdown(&buf, nil, 0)
	want := "At the defaults 1 of 1 rows pass (testbed-s1 and testbed-s2, phase 1s, model " + model.Version + "; 1 checks in 0s)"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("output lacks %q:\n%s", want, buf.String())
	}
}

// CheckFidelity's options: nil axes mean FidelityTimers and
// FidelityRates, given ones are kept; Base is where the runs start; seed 0
// means 1, and another seed gives other numbers; Progress counts the
// simulations done, 1 to the total, 4 + timers × rates.
func TestMutCheckFidelityOptions(t *testing.T) {
	phase := 10 * engine.Millisecond
	long := []engine.Time{150 * us}
	base := params.DefaultConfig()
	base.HostIOGbps = 12
	for _, c := range []struct {
		name   string
		timers []engine.Time
		rates  []int
	}{
		{"rates nil", long, nil},
		{"timers nil", nil, []int{1}},
	} {
		var calls [][2]int
		opt := FidelityOptions{Phase: phase, Timers: c.timers, Rates: c.rates, Jobs: 1, Base: &base,
			Progress: func(done, total int) { calls = append(calls, [2]int{done, total}) }}
		rep, err := CheckFidelity(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		wantTimers, wantRates := c.timers, c.rates
		if wantTimers == nil {
			wantTimers = FidelityTimers
		}
		if wantRates == nil {
			wantRates = FidelityRates
		}
		if !slices.Equal(rep.Surface.Timers, wantTimers) || !slices.Equal(rep.Surface.Rates, wantRates) {
			t.Errorf("%s: axes %v × %v, want %v × %v", c.name, rep.Surface.Timers, rep.Surface.Rates, wantTimers, wantRates)
		}
		n := 4 + len(wantTimers)*len(wantRates)
		if rep.Simulations() != n || len(calls) != n {
			t.Errorf("%s: %d simulations, %d progress calls; want %d", c.name, rep.Simulations(), len(calls), n)
		}
		for i, call := range calls {
			if call != [2]int{i + 1, n} {
				t.Errorf("%s: progress call %d: %v, want [%d %d]", c.name, i, call, i+1, n)
				break
			}
		}
		if rep.Config.HostIOGbps != 12 {
			t.Errorf("%s: host_io_gbps %g, the base's 12 not used", c.name, rep.Config.HostIOGbps)
		}
	}

	victim := func(seed uint64) [][]float64 {
		rep, err := CheckFidelity(context.Background(), FidelityOptions{Phase: phase, Timers: long, Rates: []int{1}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		return rep.Surface.Victim
	}
	one := victim(1)
	if zero := victim(0); !reflect.DeepEqual(zero, one) {
		t.Errorf("seed 0: victim %v, seed 1's %v", zero, one)
	}
	if seven := victim(7); reflect.DeepEqual(seven, one) {
		t.Errorf("seed 7 gives seed 1's victim %v: the seed is not used", one)
	}
}

// runAll runs the jobs on exactly opt.Jobs workers: at the first
// simulation done, each worker exists (none can leave before the last job
// is handed out, and the one that finished waits for its turn), and there
// are no more.
func TestMutRunAllUsesJobsWorkers(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase = engine.Millisecond
	cfg.Sample = min(cfg.Sample, cfg.Phase)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	sc := workload.LookupScenario("testbed-s1")
	for _, workers := range []int{1, 2} {
		var jobs []job
		for range workers + 1 {
			jobs = append(jobs, job{cfg, func(*model.Result) {}, nil})
		}
		seen := -1
		opt := FidelityOptions{Jobs: workers, Seed: 1, Progress: func(done, total int) {
			if done == 1 {
				seen = runAllWorkers()
			}
		}}
		if err := runAll(context.Background(), sc, jobs, opt); err != nil {
			t.Fatal(err)
		}
		if seen != workers {
			t.Errorf("Jobs %d: %d workers", workers, seen)
		}
	}
}

// runAllWorkers counts the goroutines running runAll's worker function.
func runAllWorkers() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "fidelity.runAll.func1(") {
			n++
		}
	}
	return n
}

// phaseStats averages each flow over each phase after its first fifth:
// with 10 ms phases and 1 ms samples (sample i covers (i, i+1] ms), phase 0
// over samples 2-9 and phase 1 over 12-19. A flow sending i Gbit/s in
// sample i has means 5.5 and 15.5 and the population sd of eight
// consecutive integers, √(63/12); a constant flow has sd 0.
func TestMutPhaseStatsAfterTheFirstFifth(t *testing.T) {
	r := &model.Result{Sample: engine.Millisecond, Flows: []model.FlowResult{{}, {}}}
	r.Config.Phase = 10 * engine.Millisecond
	for i := range 20 {
		r.Flows[0].Gbps = append(r.Flows[0].Gbps, float64(i))
		r.Flows[1].Gbps = append(r.Flows[1].Gbps, 3)
	}
	means, sds := phaseStats(r, 2)
	sd := math.Sqrt(63.0 / 12)
	wantMeans, wantSDs := [][]float64{{5.5, 3}, {15.5, 3}}, [][]float64{{sd, 0}, {sd, 0}}
	for p := range 2 {
		for f := range 2 {
			if math.Abs(means[p][f]-wantMeans[p][f]) > 1e-12 || math.Abs(sds[p][f]-wantSDs[p][f]) > 1e-12 {
				t.Errorf("phase %d, flow %d: mean %g, sd %g; want %g, %g", p, f, means[p][f], sds[p][f], wantMeans[p][f], wantSDs[p][f])
			}
		}
	}
}
