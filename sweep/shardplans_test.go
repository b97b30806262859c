package sweep_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// unevenGrid has points of three costs (phase lengths), so that dealing
// them to shards by cost differs from dealing them round-robin.
const unevenGrid = `
name     = "uneven"
scenario = "testbed-s1"
cc       = "on"
sample   = "1ms"

[[grid]]
phase        = "2ms"
sweep.marking_rate = [0, 1, 2, 4, 8, 16, 32]

[[grid]]
phase        = "5ms"
sweep.marking_rate = [0, 1, 2]
sweep.ccti_timer   = ["100us", "200us"]

[[grid]]
phase        = "11ms"
seeds        = 3
`

func TestShardPlansMatchShardSelect(t *testing.T) {
	for _, text := range []string{smallGrid, unevenGrid} {
		g := parse(t, text)
		for _, n := range []int{1, 2, 3, 4, 7, g.Count()} {
			t.Run(fmt.Sprintf("%s/%d", g.Name, n), func(t *testing.T) {
				plans, err := sweep.ShardPlans(g, n)
				if err != nil {
					t.Fatal(err)
				}
				if len(plans) != n {
					t.Fatalf("%d plans for %d shards", len(plans), n)
				}
				total := 0
				for i, got := range plans {
					want, err := sweep.NewPlan(g, sweep.Shard{Index: i + 1, Count: n})
					if err != nil {
						t.Fatal(err)
					}
					gotIDs, wantIDs := planIDs(got), planIDs(want)
					if got.GridID != want.GridID || !slices.Equal(gotIDs, wantIDs) {
						t.Fatalf("shard %d/%d: ShardPlans gives %d points %v, NewPlan %d points %v",
							i+1, n, len(gotIDs), gotIDs, len(wantIDs), wantIDs)
					}
					for k, pt := range got.All() {
						if grids.PointID(pt, model.Version) != gotIDs[k] {
							t.Fatalf("shard %d/%d: point %d does not match its ID", i+1, n, k)
						}
					}
					total += got.Len()
				}
				if total != g.Count() {
					t.Fatalf("%d shards hold %d points, want %d", n, total, g.Count())
				}
			})
		}
	}
	g := parse(t, smallGrid)
	for _, n := range []int{0, -1, g.Count() + 1} {
		t.Run(fmt.Sprintf("bad/%d", n), func(t *testing.T) {
			var ce *sweep.ShardCountError
			if _, err := sweep.ShardPlans(g, n); !errors.As(err, &ce) || ce.Shards != n || ce.Points != g.Count() || ce.Grid != g.Name {
				t.Fatalf("ShardPlans with %d shards of %d points: %v, want a *ShardCountError", n, g.Count(), err)
			}
		})
	}
}

func TestTallyAcrossDatabases(t *testing.T) {
	ctx := context.Background()
	g := parse(t, smallGrid)
	whole, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	db1, db2 := openDB(t, "1.db"), openDB(t, "2.db")
	runGrid(t, g, db1, sweep.Options{Workers: 2, Shard: sweep.Shard{Index: 1, Count: 2}})
	shard1, _ := sweep.NewPlan(g, sweep.Shard{Index: 1, Count: 2})
	shard2, _ := sweep.NewPlan(g, sweep.Shard{Index: 2, Count: 2})
	n1, n2 := shard1.Len(), shard2.Len()

	// One point of shard 2 failed in db2.
	pt := shard2.Point(0)
	failed := store.Result{ID: shard2.ID(0), GridID: shard2.GridID, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
		Status: store.StatusFailed, Err: "boom", ModelVersion: model.Version, Started: time.Now(), Finished: time.Now()}
	failed.Point.Params = append(failed.Point.Params, pt.Params...)
	if err := db2.SaveGrid(ctx, store.GridRecord{ID: shard2.GridID, Name: g.Name, Scenario: g.Scenario,
		ModelVersion: model.Version, Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	if err := db2.SaveResults(ctx, []store.Result{failed}); err != nil {
		t.Fatal(err)
	}
	check := func(name string, p *sweep.Plan, want sweep.Tally, dbs ...*store.DB) {
		t.Helper()
		got, err := p.Tally(ctx, dbs...)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%s: %+v, want %+v", name, got, want)
		}
		if got.Complete() != (want.Done == want.Points) {
			t.Fatalf("%s: Complete() = %v", name, got.Complete())
		}
	}
	total := n1 + n2
	check("shard 1 alone", shard1, sweep.Tally{Points: n1, Done: n1}, db1)
	check("whole grid in db1", whole, sweep.Tally{Points: total, Done: n1, Missing: n2}, db1)
	check("whole grid in both", whole, sweep.Tally{Points: total, Done: n1, Failed: 1, Missing: n2 - 1}, db1, db2)
	check("no database", whole, sweep.Tally{Points: total, Missing: total})

	runGrid(t, g, db2, sweep.Options{Workers: 2, Shard: sweep.Shard{Index: 2, Count: 2}}) // retries the failed point
	check("after shard 2 ran", whole, sweep.Tally{Points: total, Done: total}, db1, db2)
	if sum := (sweep.Tally{Points: 1, Done: 1}).Add(sweep.Tally{Points: 4, Done: 2, Failed: 1, Missing: 1}); sum != (sweep.Tally{Points: 5, Done: 3, Failed: 1, Missing: 1}) {
		t.Fatalf("Add: %+v", sum)
	}
}
