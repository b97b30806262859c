package sweep_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// defaultGrid sweeps marking_rate over 0, 1 (the testbed's default,
// params.DefaultCC) and 2, with an empty sub-grid beside it: the point with
// no marking_rate, which is marking_rate = 1 again.
const defaultGrid = `
name     = "defaults"
scenario = "testbed-s1"
cc       = "on"
phase    = "4ms"
sample   = "1ms"

[sweep]
marking_rate = [0, 1, 2]

[[grid]]
`

// TestParameterAtItsDefaultIsOnePoint checks that a parameter set to its
// default and the same parameter left out are one point: an empty
// [[grid]] beside [sweep] adds no point within the grid, and a grid that
// sets marking_rate = 1 finds done what a grid leaving it out ran.
func TestParameterAtItsDefaultIsOnePoint(t *testing.T) {
	g := parse(t, defaultGrid)
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Len() != 3 {
		t.Fatalf("the plan has %d points, want 3: marking_rate 0, 1 and 2 (the empty sub-grid's point is marking_rate 1)", plan.Len())
	}
	db := openDB(t, "d.db")
	if sum := runGrid(t, g, db, sweep.Options{Workers: 2}); sum.Ran != 3 {
		t.Fatalf("ran %d points, want 3", sum.Ran)
	}
	if rows := strings.Count(export(t, db), "\n") - 1; rows != 3 {
		t.Fatalf("export has %d rows, want 3", rows)
	}

	// Set explicitly to the default, in base or as an axis value: done.
	for _, text := range []string{
		strings.Replace(defaultGrid, "[sweep]\nmarking_rate = [0, 1, 2]\n\n[[grid]]\n", "[base]\nmarking_rate = 1\n", 1),
		strings.Replace(defaultGrid, "[0, 1, 2]", "[1]", 1),
		strings.Replace(defaultGrid, "[sweep]\nmarking_rate = [0, 1, 2]\n\n[[grid]]\n", "[base]\nthreshold = 15\nccti_timer = \"150us\"\n", 1),
	} {
		sum := runGrid(t, parse(t, text), db, sweep.Options{Workers: 2})
		if sum.Ran != 0 || sum.AlreadyDone != 1 {
			t.Errorf("a grid setting parameters to their defaults ran %d points with %d done, want 0 and 1:\n%s", sum.Ran, sum.AlreadyDone, text)
		}
	}
	// A preset that changes a field makes its default value count: opa's
	// ccti_timer is not the testbed's, so 150us there is a new point.
	opa := strings.Replace(defaultGrid, "[sweep]\nmarking_rate = [0, 1, 2]\n\n[[grid]]\n", "[sweep]\npreset = [\"opa\"]\nccti_timer = [\"150us\"]\n", 1)
	noTimer := strings.Replace(opa, "ccti_timer = [\"150us\"]\n", "", 1)
	a, b := parse(t, opa).Points()[0], parse(t, noTimer).Points()[0]
	if grids.PointID(a, model.Version) == grids.PointID(b, model.Version) {
		t.Errorf("preset opa with ccti_timer 150us and without it share ID %s: opa sets another ccti_timer", grids.PointID(a, model.Version))
	}
}

// legacyID is a point's identity as ccsweep spelt it before parameters at
// their default lost their line: the documented text (grids.PointID) with
// a line for every parameter.
func legacyID(p grids.Point) string {
	text := "ccsweep-point/1\nmodel=" + model.Version + "\nscenario=" + p.Scenario + "\n"
	for _, q := range p.Params {
		text += q.Name + "=" + q.Value + "\n"
	}
	text += fmt.Sprintf("seed=%d\n", p.Seed)
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:16])
}

// TestPointStoredUnderItsLegacyIDIsDone checks that a database written
// before the identity left out parameters at their default still holds
// its points: a point stored under the old identity is done for run,
// status and a rerun, and is not run again.
func TestPointStoredUnderItsLegacyIDIsDone(t *testing.T) {
	ctx := context.Background()
	g := parse(t, strings.Replace(defaultGrid, "[0, 1, 2]\n\n[[grid]]\n", "[0, 1]\n", 1))
	db := openDB(t, "old.db")
	gid := sweep.GridID(g)
	if err := db.SaveGrid(ctx, store.GridRecord{ID: gid, Name: g.Name, Scenario: g.Scenario, ModelVersion: model.Version, Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	var old grids.Point
	for _, p := range g.Points() {
		if v, _ := p.Value("marking_rate"); v == "1" {
			old = p
		}
	}
	id := legacyID(old)
	if id == grids.PointID(old, model.Version) {
		t.Fatalf("the point with marking_rate = 1 has the same identity as before, %s: nothing to test", id)
	}
	var params []store.Param
	params = append(params, old.Params...)
	r := store.Result{ID: id, GridID: gid, Point: store.Point{Scenario: old.Scenario, Seed: old.Seed, Params: params},
		Status: store.StatusDone, ModelVersion: model.Version, Metrics: map[string]float64{"victim_gbps": 1}}
	if err := db.SaveResults(ctx, []store.Result{r}); err != nil {
		t.Fatal(err)
	}
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	missing, err := plan.Missing(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) != 1 || plan.Point(missing[0]).Params[1].Value != "0" {
		t.Errorf("missing positions %v, want only marking_rate 0's", missing)
	}
	tally, err := plan.Tally(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if tally.Done != 1 || tally.Missing != 1 {
		t.Errorf("tally %+v, want 1 done, 1 missing", tally)
	}
	if sum := runGrid(t, g, db, sweep.Options{Workers: 1}); sum.Ran != 1 || sum.AlreadyDone != 1 {
		t.Errorf("rerun ran %d with %d done, want 1 and 1", sum.Ran, sum.AlreadyDone)
	}
}
