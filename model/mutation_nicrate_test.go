package model

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/model/workload"
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
