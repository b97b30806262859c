package sweep_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// A database that holds every point of a grid as run by an earlier model
// version (the point and grid identities that version gives them, its name
// on each result) opens, and running the grid again runs every point with
// this model: none of the earlier results is taken for one of this
// version, and they stay in the database as they were, under their own
// version.
func TestPointsOfAnEarlierModelAreNotTakenAsDone(t *testing.T) {
	const earlier = "ib-4"
	if model.Version == earlier {
		t.Fatalf("model.Version is still %s", earlier)
	}
	ctx := context.Background()
	g := parse(t, smallGrid)
	db := openDB(t, "earlier.db")
	sum := sha256.Sum256([]byte("ccsweep-grid-id/1\nmodel=" + earlier + "\n" + g.Canonical()))
	oldGrid := hex.EncodeToString(sum[:16])
	if oldGrid == sweep.GridID(g) {
		t.Fatal("the grid's identity does not depend on the model version")
	}
	if err := db.SaveGrid(ctx, store.GridRecord{ID: oldGrid, Name: g.Name, Scenario: g.Scenario,
		ModelVersion: earlier, Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	var old []store.Result
	for _, pt := range plan.All() {
		r := store.Result{ID: grids.PointID(pt, earlier), GridID: oldGrid, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
			Status: store.StatusDone, ModelVersion: earlier, Metrics: map[string]float64{"victim_gbps": 1}}
		r.Point.Params = append(r.Point.Params, pt.Params...)
		old = append(old, r)
	}
	if len(old) != 8 {
		t.Fatalf("%d points, want 8", len(old))
	}
	if err := db.SaveResults(ctx, old); err != nil {
		t.Fatal(err)
	}

	s := runGrid(t, g, db, sweep.Options{Workers: 2})
	if s.Ran != 8 || s.AlreadyDone != 0 {
		t.Fatalf("ran %d with %d found done; want all 8 run, none taken from %s", s.Ran, s.AlreadyDone, earlier)
	}
	all, err := db.Results(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]int{}
	for _, r := range all {
		versions[r.ModelVersion]++
		if r.ModelVersion == earlier && (r.GridID != oldGrid || r.Metrics["victim_gbps"] != 1) {
			t.Errorf("a result of %s changed: grid %s, victim %v", earlier, r.GridID, r.Metrics["victim_gbps"])
		}
		if r.ModelVersion == model.Version && r.GridID != sweep.GridID(g) {
			t.Errorf("a result of %s is filed under grid %s", model.Version, r.GridID)
		}
	}
	if len(all) != 16 || versions[earlier] != 8 || versions[model.Version] != 8 {
		t.Errorf("%d results by version %v; want 8 of %s and 8 of %s", len(all), versions, earlier, model.Version)
	}
}
