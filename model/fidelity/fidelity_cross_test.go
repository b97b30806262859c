package fidelity_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fidelity"
	"github.com/ccsweep/ccsweep/model/params"
)

// tinyCheck is a check small enough for a test: 20 ms phases and one point
// of the plane (the chosen setting), three simulations.
func tinyCheck() fidelity.FidelityOptions {
	return fidelity.FidelityOptions{Phase: 20 * engine.Millisecond,
		Timers: []engine.Time{150 * engine.Microsecond}, Rates: []int{1}, Jobs: 2}
}

func crossGroup(t *testing.T, rep *fidelity.CrossReport, name string) *fidelity.CrossGroup {
	t.Helper()
	for i := range rep.Groups {
		if rep.Groups[i].Name == name {
			return &rep.Groups[i]
		}
	}
	t.Fatalf("no group %q", name)
	return nil
}

// Claim 6 (two paced contributors reach about 11 of H5's 13 Gbit/s, four
// fill it) passes at the fitted paced_read_latency = 2.5us. Refitted on the
// other groups over a grid that holds only a wrong value, 0s (no paced
// reads: the contributors stream and fill H5, docs/model.md "Claim 6 comes
// from paced reads"), the held-out prediction of claim 6 must fail while
// the in-sample verdict still passes; over a grid holding only 2.5us it
// must pass.
func TestCrossValidationWrongFittedValueFailsHeldOut(t *testing.T) {
	const group = "[002] OMNeT++ validation"
	for _, c := range []struct {
		value   string
		heldOut bool
	}{{"0s", false}, {"2.5us", true}} {
		t.Run(c.value, func(t *testing.T) {
			rep, err := fidelity.CrossValidate(context.Background(), fidelity.CrossOptions{FidelityOptions: tinyCheck(),
				Axes: []fidelity.CrossAxis{{Name: "paced_read_latency", Values: []string{c.value}}}})
			if err != nil {
				t.Fatal(err)
			}
			g := crossGroup(t, rep, group)
			if len(g.Rows) != 2 || rep.InSample.Rows[g.Rows[0]].Source != "claim 6" || rep.InSample.Rows[g.Rows[1]].Source != "claim 6" {
				t.Fatalf("group %q holds rows %v", group, g.Rows)
			}
			if !g.InSample(rep) {
				t.Errorf("claim 6 fails in sample: model %s", rep.InSample.Rows[g.Rows[0]].Model)
			}
			if got := rep.Reports[g.Fits[0]].Config.Transport.PacedReadLatency; len(g.Fits) != 1 || got.String() != c.value {
				t.Errorf("refit at %v (fits %v), want the only grid value %s", got, g.Fits, c.value)
			}
			if g.HeldOut() != c.heldOut {
				t.Errorf("held out at paced_read_latency=%s: pass %v, want %v (model %s)", c.value, g.HeldOut(), c.heldOut,
					rep.Reports[g.Fits[0]].Rows[g.Rows[0]].Model)
			}
		})
	}
}

// Sensitivity halves and doubles a parameter and lists exactly the rows
// whose verdict differs from the defaults', as separate checks at the
// halved and doubled values find.
func TestSensitivityListsTheRowsThatFlip(t *testing.T) {
	opt := tinyCheck()
	rep, err := fidelity.Sensitivity(context.Background(), fidelity.SensitivityOptions{FidelityOptions: opt,
		Params: []string{"paced_read_latency"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Params) != 1 || rep.Params[0].Name != "paced_read_latency" {
		t.Fatalf("asked for paced_read_latency, got %d parameters", len(rep.Params))
	}
	p := rep.Params[0]
	if p.Default != "2.5us" || p.Half != "1.25us" || p.Double != "5us" {
		t.Fatalf("default %s, halved %s, doubled %s; want 2.5us, 1.25us, 5us", p.Default, p.Half, p.Double)
	}
	base, err := fidelity.CheckFidelity(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []struct {
		value string
		flips []int
	}{{"1.25us", p.HalfFlips}, {"5us", p.DoubleFlips}} {
		cfg := params.DefaultConfig()
		if err := cfg.Set("paced_read_latency", v.value); err != nil {
			t.Fatal(err)
		}
		o := opt
		o.Base = &cfg
		r, err := fidelity.CheckFidelity(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		var want []int
		for i := range r.Rows {
			if r.Rows[i].Pass != base.Rows[i].Pass {
				want = append(want, i)
			}
		}
		if !reflect.DeepEqual(v.flips, want) {
			t.Errorf("at %s flips %v, want %v", v.value, v.flips, want)
		}
	}
	if len(p.HalfFlips)+len(p.DoubleFlips) == 0 {
		t.Error("neither halving nor doubling the read latency claim 6 rests on flips a verdict")
	}
}

func TestSensitivityRefusesAWord(t *testing.T) {
	_, err := fidelity.Sensitivity(context.Background(), fidelity.SensitivityOptions{FidelityOptions: tinyCheck(),
		Params: []string{"becn_return"}})
	var pe *params.ParamError
	if !errors.As(err, &pe) {
		t.Errorf("halving becn_return: %v, want a *ParamError", err)
	}
}
