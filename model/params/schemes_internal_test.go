package params

import (
	"errors"
	"testing"
)

// TestMutSantosParamsCheckedOnlyUnderSantos checks that Validate checks
// the santos parameters' relation (r_min below R_max) in a santos run, and
// not in a run of another scheme, where they do nothing.
// Kills schemes.go's `c.CC.Scheme == SchemeSantos` negated.
func TestMutSantosParamsCheckedOnlyUnderSantos(t *testing.T) {
	for scheme, bad := range map[string]bool{SchemeSantos: true, SchemeIB: false, SchemeOff: false, SchemeDRB: false} {
		cfg := DefaultConfig()
		cfg.CC.Scheme = scheme
		cfg.Santos.RMinGbps, cfg.Santos.RMaxGbps = 10, 5
		var pe *ParamError
		err := cfg.Validate()
		if bad != (err != nil) || bad && (!errors.As(err, &pe) || pe.Name != "santos.r_min") {
			t.Errorf("cc %s, santos r_min 10 > r_max 5: error %v, want an error %v", scheme, err, bad)
		}
	}
}

// TestMutSchemeHelpers checks the schemes' helpers against their
// comments: IB CC's marking runs under ib and drb only; "on" names ib
// (SchemeOf, and cc's canonical value of ib); a scheme's parameter applies
// only to its scheme's runs, a core parameter to every run, and
// CheckSchemeParams names the first parameter that does not apply.
func TestMutSchemeHelpers(t *testing.T) {
	for _, s := range Schemes {
		cc := CCConfig{Scheme: s}
		if want := s == SchemeIB || s == SchemeDRB; cc.IBMarking() != want {
			t.Errorf("scheme %s: IBMarking %v, want %v", s, cc.IBMarking(), want)
		}
		c := DefaultConfig()
		if err := c.Set("cc", s); err != nil {
			t.Fatal(err)
		}
		want := s
		if s == SchemeIB {
			want = "on"
		}
		if got := c.Canonical("cc"); got != want || SchemeOf(got) != s || c.CC.Scheme != s {
			t.Errorf("cc %s: canonical %q, SchemeOf %q, Scheme %q", s, got, SchemeOf(got), c.CC.Scheme)
		}
		err := c.CheckSchemeParams([]string{"threshold", "no_such", "santos.m", "drb.timer"})
		var se *SchemeParamError
		switch s {
		case SchemeSantos:
			if !errors.As(err, &se) || se.Name != "drb.timer" || se.Scheme != SchemeDRB || se.CC != s {
				t.Errorf("cc %s: %v, want drb.timer named", s, err)
			}
		default:
			if !errors.As(err, &se) || se.Name != "santos.m" || se.Scheme != SchemeSantos || se.CC != s {
				t.Errorf("cc %s: %v, want santos.m named", s, err)
			}
		}
		if err := c.CheckSchemeParams([]string{"threshold", "phase"}); err != nil {
			t.Errorf("cc %s: core parameters refused: %v", s, err)
		}
	}
	if p := LookupParam("santos.m"); !p.AppliesTo(SchemeSantos) || p.AppliesTo(SchemeIB) || p.AppliesTo("") {
		t.Error("santos.m applies where it should not")
	}
	if p := LookupParam("threshold"); !p.AppliesTo(SchemeNICRate) || !p.AppliesTo(SchemeOff) {
		t.Error("threshold does not apply to every scheme")
	}
}
