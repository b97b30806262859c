package model

import "github.com/ccsweep/ccsweep/model/workload"

import (
	"math"
	"testing"
)

// Tests written against the survivors of a gremlins run on nicrate.go
// (docs/testing.md, "Mutation testing").

// TestMutNICRateExactFitIsAdmitted checks docs/schemes.md's admission rule
// at its edge: requests are admitted if every resource "stays within
// capacity", so requests that fill a resource exactly are admitted. On the
// testbed an adapter's receiving side holds 13 Gbit/s (host_io_gbps, below
// the 16 Gbit/s link's payload rate): 13 from H1 to H4 alone, and 6.5 + 6.5
// from H2 and H3 to H5, are all admitted; 6.5 more to H5 is refused.
func TestMutNICRateExactFitIsAdmitted(t *testing.T) {
	n := nicNetwork(t,
		workload.FlowSpec{Name: "A", Src: "H1", Dst: "H4", RateGbps: 13},
		workload.FlowSpec{Name: "B", Src: "H2", Dst: "H5", RateGbps: 6.5},
		workload.FlowSpec{Name: "C", Src: "H3", Dst: "H5", RateGbps: 6.5},
		workload.FlowSpec{Name: "D", Src: "H6", Dst: "H5", RateGbps: 6.5})
	for i, want := range []float64{13, 6.5, 6.5, 0} {
		if got := n.nic.admittedGbps[i]; math.Abs(got-want) > 1e-12 {
			t.Errorf("flow %d admitted at %g Gbit/s, want %g", i, got, want)
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
