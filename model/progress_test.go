package model

import (
	"context"
	"reflect"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestRunProgressReportsAndChangesNothing checks that the progress callback
// sees simulated time rise in steps to the end, and that a run watched this
// way gives the same result as one that is not.
func TestRunProgressReportsAndChangesNothing(t *testing.T) {
	sc := workload.LookupScenario("testbed-s1")
	c := params.DefaultConfig()
	c.Phase = engine.Millisecond
	c.CC.Scheme = params.SchemeIB
	var seen []engine.Time
	res, err := RunProgress(context.Background(), sc, c, 1, func(now, end engine.Time) {
		if end != 5*engine.Millisecond {
			t.Fatalf("end %v, want 5ms", end)
		}
		seen = append(seen, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 50 || seen[0] != progressStep || seen[len(seen)-1] != 5*engine.Millisecond {
		t.Fatalf("progress at %d times from %v to %v, want 50 from %v to 5ms", len(seen), seen[0], seen[len(seen)-1], progressStep)
	}
	plain, err := Run(sc, c, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Flows, plain.Flows) || res.Events != plain.Events {
		t.Error("a run with progress differs from one without")
	}
}
