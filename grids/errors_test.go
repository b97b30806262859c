package grids_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// Reading stops at MaxProblems problems, whether the lines are not CSV of
// three fields or bad values: an Error lists them and counts none more.
func TestMeasurementStopsAtMaxProblems(t *testing.T) {
	for name, bad := range map[string]string{"fields": "1,2\n", "time": "x,F1,1\n"} {
		text := "time_s,flow,throughput_gbps\n" + strings.Repeat(bad, grids.MaxProblems+5)
		_, err := grids.ParseMeasurement("m.csv", []byte(text))
		var e *grids.Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v, want an *Error", name, err)
		}
		if len(e.Problems) != grids.MaxProblems || e.More != 0 {
			t.Errorf("%s: %d problems and %d more, want %d and none more (reading stops there)", name, len(e.Problems), e.More, grids.MaxProblems)
		}
		if last := e.Problems[len(e.Problems)-1]; last.Line != grids.MaxProblems+1 {
			t.Errorf("%s: the last problem is on line %d, want %d", name, last.Line, grids.MaxProblems+1)
		}
	}
}
