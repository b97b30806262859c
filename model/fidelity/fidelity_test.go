package fidelity_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fidelity"
	"github.com/ccsweep/ccsweep/model/params"
)

// smallGrid is a scaled-down plane: the short-timer edge, 100 µs, the
// chosen 150 µs and a few longer timers, four marking rates.
var (
	smallTimers = []engine.Time{20 * engine.Microsecond, 50 * engine.Microsecond, 100 * engine.Microsecond,
		150 * engine.Microsecond, 300 * engine.Microsecond, 1000 * engine.Microsecond, 2000 * engine.Microsecond}
	smallRates = []int{0, 1, 4, 16}
)

func failedRows(rep *fidelity.FidelityReport) map[string]bool {
	failed := map[string]bool{}
	for _, r := range rep.Rows {
		if !r.Pass {
			failed[r.Source+": "+r.Item] = true
		}
	}
	return failed
}

// edgeAt100ms are the rows that models ib-5 and ib-6 pass at the testbed's
// 1 s phases and at 300 ms with little margin and fail at 100 ms phases on
// the scaled-down grid (ib-6: claim 4's Var at CCTI_Timer ≤ 100 µs 0.081
// against a third of 0.237, 0.079; claim 5's Var 0.274 against a median of
// 0.254; ib-5: 0.081 against a third of 0.228, 0.269 against 0.256;
// docs/fidelity.md), so the test logs them instead of asserting them.
var edgeAt100ms = []string{"claim 4: Var at low timers", "claim 5: threshold 15"}

// The model agrees with every published row but edgeAt100ms in a
// scaled-down validation (100 ms phases, a smaller grid), and the model
// before the transport mechanisms (CNP per FECN, paced QPs streaming,
// timers in step, counter marking) fails claims 1 and 6 in the same run:
// the check can fail.
func TestScaledDownFidelityCheck(t *testing.T) {
	opt := fidelity.FidelityOptions{Phase: 100 * engine.Millisecond, Timers: smallTimers, Rates: smallRates}
	rep, err := fidelity.CheckFidelity(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 22 {
		t.Errorf("%d rows, want 22", len(rep.Rows))
	}
rows:
	for _, r := range rep.Rows {
		for _, e := range edgeAt100ms {
			if strings.HasPrefix(r.Source+": "+r.Item, e) {
				t.Logf("at the edge at 100 ms: %s, %s: model %s (pass %v)", r.Source, r.Item, r.Model, r.Pass)
				continue rows
			}
		}
		if !r.Pass {
			t.Errorf("%s, %s: model %s; published %s; measure %s", r.Source, r.Item, r.Model, r.Published, r.Measure)
		}
	}
	if testing.Short() {
		return
	}
	old := params.DefaultConfig()
	for k, v := range map[string]string{"becn_return": "cnp", "paced_read_latency": "0s",
		"ccti_timer_start": "zero", "marking_mode": "counter"} {
		if err := old.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	opt.Base = &old
	rep, err = fidelity.CheckFidelity(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	failed := failedRows(rep)
	for _, want := range []string{"claim 1: victim, CCTI_Timer 20 µs–50 µs", "claim 6: F2 + F3, CC on, third phase"} {
		if !failed[want] {
			t.Errorf("without the transport mechanisms %q passes; failed: %v", want, failed)
		}
	}
}

// Run gives the same report with any number of jobs.
func TestFidelityCheckIsDeterministicAcrossJobs(t *testing.T) {
	opt := fidelity.FidelityOptions{Phase: 10 * engine.Millisecond, Timers: smallTimers[:3], Rates: smallRates[:2], Jobs: 1}
	one, err := fidelity.CheckFidelity(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Jobs = 3
	three, err := fidelity.CheckFidelity(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Rows, three.Rows) || !reflect.DeepEqual(one.Surface, three.Surface) {
		t.Error("reports differ between 1 and 3 jobs")
	}
}

func TestFidelityCheckStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := fidelity.CheckFidelity(ctx, fidelity.FidelityOptions{Phase: 100 * engine.Millisecond}); err == nil {
		t.Fatal("a cancelled run returned no error")
	}
}

// Each row the provenance says bounds a fitted value does so in a
// scaled-down scan (100 ms phases; the plane's short-timer edge, 100 µs
// and the chosen 150 µs at Marking_Rate 1): it passes at the default and
// fails at the bound's failing value. A provenance that names a row the
// value does not move fails here.
func TestProvenanceBoundsHoldInAScaledDownScan(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 5 scaled-down checks")
	}
	opt := fidelity.FidelityOptions{Phase: 100 * engine.Millisecond, Rates: []int{1},
		Timers: []engine.Time{20 * engine.Microsecond, 50 * engine.Microsecond, 100 * engine.Microsecond, 150 * engine.Microsecond}}
	check := func(name, value string) map[string]bool {
		cfg := params.DefaultConfig()
		if name != "" {
			if err := cfg.Set(name, value); err != nil {
				t.Fatal(err)
			}
		}
		o := opt
		o.Base = &cfg
		rep, err := fidelity.CheckFidelity(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		pass := map[string]bool{}
		for _, r := range rep.Rows {
			pass[r.Source+": "+r.Item] = r.Pass
		}
		return pass
	}
	passes := func(pass map[string]bool, prefix string) (bool, bool) {
		found, all := false, true
		for row, ok := range pass {
			if strings.HasPrefix(row, prefix) {
				found, all = true, all && ok
			}
		}
		return found, all
	}
	def := check("", "")
	for _, p := range fidelity.ParamProvenances {
		if p.Kind != fidelity.Fitted {
			continue
		}
		at := map[string]map[string]bool{}
		for _, b := range p.Bounds {
			if b.FullPlane || b.Physical != "" { // the full plane judges these; a physical quantity is no row
				continue
			}
			if at[b.Fails] == nil {
				at[b.Fails] = check(p.Name, b.Fails)
			}
			if found, ok := passes(def, b.Row); !found || !ok {
				t.Errorf("%s: %q does not pass at the default (found %v)", p.Name, b.Row, found)
			}
			if found, ok := passes(at[b.Fails], b.Row); !found || ok {
				t.Errorf("%s = %s: %q passes; the provenance says it fails there", p.Name, b.Fails, b.Row)
			}
		}
	}
}
