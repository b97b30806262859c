package grids_test

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A zero step is refused as not positive whatever its type: a bare 0 for a
// duration axis and 0.0 for an integer axis are numbers of the wrong kind
// only when they are not zero (a zero needs no unit and is whole).
func TestZeroStepIsNotPositive(t *testing.T) {
	for _, c := range []struct{ axis, want string }{
		{`ccti_timer = { from = "10us", to = "20us", step = 0 }`, "sweep.ccti_timer: step 0 must be positive"},
		{`marking_rate = { from = 0, to = 8, step = 0.0 }`, "sweep.marking_rate: step 0 must be positive"},
		{`ccti_timer = { from = "10us", to = "20us", step = 5 }`, "sweep.ccti_timer: step 5: want a duration with a unit"},
		{`marking_rate = { from = 0, to = 8, step = 0.5 }`, "sweep.marking_rate: step 0.5: want a whole number"},
	} {
		_, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\n[sweep]\n"+c.axis+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.axis, err, c.want)
		}
	}
}

// A count range's ends are from and to as written: only the values between
// them are rounded (floats to 12 significant digits).
func TestCountRangeEndsAreExact(t *testing.T) {
	g, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\n[sweep]\nhca_msg_rate = { from = 0.1, to = 1.0000000000001, count = 3 }\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(g.Axes()[0].Values, " "); got != "0.1 0.55 1.0000000000001" {
		t.Errorf("values %s, want 0.1 0.55 1.0000000000001", got)
	}
}
