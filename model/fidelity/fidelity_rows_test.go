package fidelity

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// goodReport returns a hand-made report that agrees with every published
// number: the SPEC §3 tables, a short-timer band, a flat contributors'
// surface and a Var surface that is low only along the band.
func goodReport() *FidelityReport {
	rep := &FidelityReport{Flows: []string{"F1", "F2", "F3", "F4", "F5"}, Config: params.DefaultConfig(),
		Surface: newSurface(FidelityTimers, FidelityRates)}
	rep.Off = [][]float64{
		{13, 0, 0, 0, 0}, {13, 13, 0, 0, 0}, {6.5, 6.5, 6.5, 0, 0}, {3.25, 3.25, 3.25, 6.5, 0}, {2.17, 2.17, 2.17, 4.33, 4.33},
	}
	rep.On = [][]float64{
		{13, 0, 0, 0, 0}, {13, 13, 0, 0, 0}, {13, 5.5, 5.5, 0, 0}, {13, 4.3, 4.3, 4.3, 0}, {13, 3.2, 3.2, 3.2, 3.2},
	}
	rep.offSD = [][]float64{{0.01, 0, 0, 0, 0}, {0.01, 0.01, 0, 0, 0}, {0.01, 0.01, 0.01, 0, 0},
		{0.01, 0.01, 0.01, 0.01, 0}, {0.01, 0.01, 0.01, 0.01, 0.01}}
	rep.onSD = [][]float64{{0.01, 0, 0, 0, 0}, {0.01, 0.01, 0, 0, 0}, {0.01, 0.3, 0.3, 0, 0},
		{0.01, 0.3, 0.3, 0.3, 0}, {0.1, 0.3, 0.3, 0.3, 0.3}}
	rep.S2Flows = []string{"F1", "F2", "F3"}
	rep.S2Off, rep.S2On = []float64{10.53, 10.53, 10.53}, []float64{10.2, 10.4, 10.3}
	s := &rep.Surface
	for i, t := range s.Timers {
		for j, mr := range s.Rates {
			switch {
			case t <= 50*engine.Microsecond:
				s.Victim[i][j], s.Var[i][j] = 2.17, 0
			case t == 100*engine.Microsecond:
				s.Victim[i][j], s.Var[i][j] = 6, 0.05
			default:
				s.Victim[i][j], s.Var[i][j] = 12.9-0.05*float64(mr)*float64(150*engine.Microsecond)/float64(t), 0.3
			}
			s.Contributors[i][j] = 3.2
		}
	}
	ti, ri := s.index(150*engine.Microsecond, 1)
	s.Var[ti][ri] = 0.1
	return rep
}

func judge(rep *FidelityReport) []FidelityRow {
	return append(append(tableRows(rep), claimRows(rep)...), s2Rows(rep)...)
}

func TestRowsJudgeHandMadeReports(t *testing.T) {
	for _, row := range judge(goodReport()) {
		if !row.Pass {
			t.Errorf("the agreeing report fails %s %q: model %s, measure %s", row.Source, row.Item, row.Model, row.Measure)
		}
	}
	cases := []struct {
		name   string
		spoil  func(r *FidelityReport)
		source string // the rows that must fail, by source and item prefix
		item   string
	}{
		{"CC off without HOL blocking", func(r *FidelityReport) { r.Off[2][0] = 9 }, "SPEC §3, CC off", "F1–F3"},
		{"CC on victim hit", func(r *FidelityReport) { r.On[3][0] = 11 }, "SPEC §3, CC on", "F1–F4"},
		{"unequal contributors", func(r *FidelityReport) { r.On[4][1], r.On[4][4] = 4.2, 2.2 }, "SPEC §3, CC on", "F1–F5"},
		{"no oscillation", func(r *FidelityReport) {
			for f := 1; f < 5; f++ {
				r.onSD[4][f] = 0.01
			}
		}, "SPEC §3, CC on", "F1–F5"},
		{"victim unhurt at 50 µs, Marking_Rate 4", func(r *FidelityReport) {
			i, j := r.Surface.index(50*engine.Microsecond, 4)
			r.Surface.Victim[i][j] = 12
		}, "claim 1", "victim, CCTI_Timer 20"},
		{"victim unhurt at 100 µs", func(r *FidelityReport) {
			i, j := r.Surface.index(100*engine.Microsecond, 16)
			r.Surface.Victim[i][j] = 11
		}, "claim 1", "victim, CCTI_Timer 100"},
		{"best region below PCIe", func(r *FidelityReport) {
			for i := range r.Surface.Victim {
				for j := range r.Surface.Victim[i] {
					r.Surface.Victim[i][j] *= 11 / 12.9
				}
			}
		}, "claim 2", "victim, best region"},
		{"high Marking_Rate best", func(r *FidelityReport) {
			for i, tm := range r.Surface.Timers {
				for j, mr := range r.Surface.Rates {
					if tm >= 150*engine.Microsecond { // rising with Marking_Rate
						r.Surface.Victim[i][j] = 12.1 + 0.05*float64(mr)*float64(150*engine.Microsecond)/float64(tm)
					}
				}
			}
		}, "claim 2", "victim, low vs high"},
		{"contributors collapse at 2000 µs", func(r *FidelityReport) {
			i, j := r.Surface.index(2000*engine.Microsecond, 0)
			r.Surface.Contributors[i][j] = 2.5
		}, "claim 3", "contributors"},
		{"Var large only in one corner", func(r *FidelityReport) {
			for i := range r.Surface.Var {
				for j := range r.Surface.Var[i] {
					r.Surface.Var[i][j] = min(r.Surface.Var[i][j], 0.05)
				}
			}
			r.Surface.Var[len(r.Surface.Timers)-1][0] = 2
		}, "claim 4", "Var over the plane"},
		{"Var large at low timers", func(r *FidelityReport) {
			for i, tm := range r.Surface.Timers {
				for j := range r.Surface.Rates {
					if tm <= 100*engine.Microsecond {
						r.Surface.Var[i][j] = 0.3
					}
				}
			}
		}, "claim 4", "Var at low timers"},
		{"chosen setting unfair", func(r *FidelityReport) {
			i, j := r.Surface.index(150*engine.Microsecond, 1)
			r.Surface.Var[i][j] = 1
		}, "claim 5", "threshold 15"},
		{"two contributors fill H5", func(r *FidelityReport) { r.On[2][1], r.On[2][2] = 6.5, 6.45 }, "claim 6", "F2 + F3"},
		{"two contributors lose only 3 %", func(r *FidelityReport) { r.On[2][1], r.On[2][2] = 6.3, 6.3 }, "claim 6", "F2 + F3"},
		{"four contributors keep the penalty", func(r *FidelityReport) {
			for f := 1; f <= 4; f++ {
				r.On[4][f] = 3.0
			}
		}, "claim 6", "F2–F5"},
		{"CC costs s2 a fifth", func(r *FidelityReport) { r.S2On = []float64{8.4, 8.4, 8.4} }, "scenario 2", "F1–F3"},
		{"CC on s2 unfair at the same mean", func(r *FidelityReport) { r.S2On = []float64{13, 11.5, 7} }, "scenario 2", "F1–F3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := goodReport()
			c.spoil(rep)
			failed := 0
			for _, row := range judge(rep) {
				target := row.Source == c.source && strings.HasPrefix(row.Item, c.item)
				if target && row.Pass {
					t.Errorf("%s %q passes: model %s", row.Source, row.Item, row.Model)
				}
				if !row.Pass {
					failed++
					if !target {
						t.Errorf("%s %q fails too: model %s", row.Source, row.Item, row.Model)
					}
				}
			}
			if failed == 0 {
				t.Errorf("no row fails")
			}
		})
	}
}
