package params

import (
	"strings"
	"testing"
)

// Tests written against the survivors of gremlins runs on model's cc.go,
// nicrate.go and santos.go (docs/testing.md, "Mutation testing"), moved
// here with the parameter code they test.

// TestMutCCTTableAtItsBounds checks an explicit CCT at the bounds its
// parameter documents (cct: at most one entry per CCTI up to
// ccti_limit's largest, 16384, each at most 1 s, none below the one
// before): 16384 entries and an entry of exactly 1 s are accepted, and a
// table of equal entries too; one entry more, or 1 s and a picosecond, is
// refused.
func TestMutCCTTableAtItsBounds(t *testing.T) {
	for _, c := range []struct {
		table string
		ok    bool
	}{
		{"table:" + strings.Repeat("1us,", 16383) + "1us", true}, // 16384 entries
		{"table:" + strings.Repeat("1us,", 16384) + "1us", false},
		{"table:0,1s", true},
		{"table:0,1000000000001ps", false},
		{"table:2us,2us,2us", true},
		{"table:2us,1999999ps", false},
	} {
		_, err := cctValue(c.table)
		name := c.table
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		if (err == nil) != c.ok {
			t.Errorf("cct %q (%d entries): error %v, want accepted %v", name, strings.Count(c.table, ",")+1, err, c.ok)
		}
	}
}

// TestMutNICRatesValues checks nicrate.rates' values: Gbit/s, 0 or more,
// 0 asking for an equal share (so 0 is a rate, and a negative one is not),
// and that its canonical spelling keeps every rate as given.
func TestMutNICRatesValues(t *testing.T) {
	for s, ok := range map[string]bool{"4,0,2.5": true, "0": true, "0,0": true, "-1": false, "4,-0.5": false, "4,x": false,
		"1000000": true, "1000000.5": false} { // the code's sanity cap, 10^6 Gbit/s, included
		if _, err := ratesValue(s); (err == nil) != ok {
			t.Errorf("nicrate.rates %q: error %v, want accepted %v", s, err, ok)
		}
	}
	// The canonical value (part of a point's identity) names the same
	// rates: 2.5 stays 2.5, 13.25 stays 13.25.
	canon, err := ratesValue(" 4, 0 ,2.5, 13.25")
	if err != nil || canon != "4,0,2.5,13.25" {
		t.Errorf("canonical nicrate.rates %q (%v), want \"4,0,2.5,13.25\"", canon, err)
	}
}

// TestMutSantosRMinBelowRMax checks santos.r_min's relation to r_max: a
// minimum rate must be below the maximum, so r_min = r_max is refused and
// a hair below is accepted; when r_max is left at 0 the refusal names the
// hosts' injection rate it defaults to (13 Gbit/s on the testbed), and
// santos.r_max when it was set.
func TestMutSantosRMinBelowRMax(t *testing.T) {
	for _, c := range []struct {
		rMin, rMax float64
		want       string // "" for accepted
	}{
		{5, 5, "not below santos.r_max (5 Gbit/s)"},
		{4.999, 5, ""},
		{13, 0, "not below the hosts' injection rate, santos.r_max's default (13 Gbit/s)"},
		{12.999, 0, ""},
	} {
		cfg := DefaultConfig()
		cfg.CC.Scheme = SchemeSantos
		cfg.Santos.RMinGbps, cfg.Santos.RMaxGbps = c.rMin, c.rMax
		err := cfg.Santos.validate(&cfg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("r_min %g, r_max %g: %v, want accepted", c.rMin, c.rMax, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("r_min %g, r_max %g: error %v, want %q", c.rMin, c.rMax, err, c.want)
		}
	}
}
