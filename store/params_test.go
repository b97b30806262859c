package store_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// TestOpenChecksParameterValues checks that Open and OpenReadOnly refuse a
// database holding a parameter value the CheckParamsWith check rejects,
// wherever the value sits among the others (the check reads each distinct
// value once, seeking in the index), and that with grids of two model
// versions each value is checked under its point's version.
func TestOpenChecksParameterValues(t *testing.T) {
	store.CheckParamsWith(func(version, name, value string) error {
		if version == "m1" && value == "x" {
			return fmt.Errorf("%s = %s: not a value of model %s", name, value, version)
		}
		return nil
	})
	t.Cleanup(func() { store.CheckParamsWith(nil) })
	d, path := newDB(t)
	ctx := t.Context()
	var rs []store.Result
	for i, v := range []string{"0", "1", "16", "2", "4", "8"} {
		r := doneResult(fmt.Sprintf("p%d", i), testGrid.ID)
		r.Point.Params = []store.Param{{Name: "ccti_timer", Value: "150us"}, {Name: "marking_rate", Value: v}, {Name: "threshold", Value: "15"}}
		rs = append(rs, r)
	}
	if err := d.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	opens := map[string]func(string) (*store.DB, error){"Open": store.Open, "OpenReadOnly": store.OpenReadOnly}
	refused := func(want string) {
		t.Helper()
		for name, open := range opens {
			db, err := open(path)
			if err == nil {
				db.Close()
			}
			if want == "" && err != nil {
				t.Errorf("%s: %v; want it opened", name, err)
			}
			if want != "" && (!errors.Is(err, store.ErrNotDatabase) || !strings.Contains(err.Error(), "damaged: a point's parameter value does not parse: "+want)) {
				t.Errorf("%s: %v; want ErrNotDatabase saying %q", name, err, want)
			}
		}
	}
	refused("")
	// The last value of the last parameter, then a middle one.
	bad := rs[5]
	bad.Point.Params[2].Value = "x"
	if err := d.SaveResults(ctx, []store.Result{bad}); err != nil {
		t.Fatal(err)
	}
	refused("threshold = x: not a value of model m1")
	bad.Point.Params[2].Value = "15"
	bad.Point.Params[1].Value = "x"
	if err := d.SaveResults(ctx, []store.Result{bad}); err != nil {
		t.Fatal(err)
	}
	refused("marking_rate = x: not a value of model m1")

	// Two model versions: x is a value of m2.
	bad.Point.Params[1].Value = "8"
	if err := d.SaveResults(ctx, []store.Result{bad}); err != nil {
		t.Fatal(err)
	}
	m2 := testGrid
	m2.ID, m2.ModelVersion = "grid-m2", "m2"
	if err := d.SaveGrid(ctx, m2); err != nil {
		t.Fatal(err)
	}
	r := doneResult("q1", m2.ID)
	r.ModelVersion = "m2"
	r.Point.Params = []store.Param{{Name: "marking_rate", Value: "x"}}
	if err := d.SaveResults(ctx, []store.Result{r}); err != nil {
		t.Fatal(err)
	}
	refused("")
	r.ID, r.ModelVersion = "q2", "m1"
	if err := d.SaveResults(ctx, []store.Result{r}); err != nil {
		t.Fatal(err)
	}
	refused("marking_rate = x: not a value of model m1")
}
