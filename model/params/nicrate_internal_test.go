package params

import (
	"testing"
)

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
