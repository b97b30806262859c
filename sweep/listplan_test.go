package sweep_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// TestListPlanDealsLikeTheGridsPlan checks NewListPlan against NewPlan: a
// list of every point of a grid that lists none twice is planned, whole
// and shard by shard, as the grid itself is (NewListPlan deals by cost as
// NewPlan does), and a shard NewPlan refuses is refused.
func TestListPlanDealsLikeTheGridsPlan(t *testing.T) {
	for _, text := range []string{smallGrid, unevenGrid} {
		g := parse(t, text)
		list := g.Points()
		for _, n := range []int{0, 1, 2, 3, 7, len(list) + 2} {
			for i := range max(n, 1) {
				shard := sweep.Shard{Index: i + 1, Count: n}
				if n == 0 {
					shard = sweep.Shard{}
				}
				t.Run(fmt.Sprintf("%s/%s", g.Name, shard), func(t *testing.T) {
					got, err := sweep.NewListPlan(g, list, shard)
					if err != nil {
						t.Fatal(err)
					}
					want, err := sweep.NewPlan(g, shard)
					if err != nil {
						t.Fatal(err)
					}
					if a, b := planIDs(got), planIDs(want); !slices.Equal(a, b) {
						t.Errorf("NewListPlan holds %v, NewPlan %v", a, b)
					}
					if got.GridID != sweep.GridID(g) || got.Grid != g {
						t.Errorf("the plan's grid ID %s, want the grid's %s", got.GridID, sweep.GridID(g))
					}
				})
			}
		}
		for _, bad := range []sweep.Shard{{Index: 0, Count: 3}, {Index: 4, Count: 3}} {
			if _, err := sweep.NewListPlan(g, list, bad); err == nil {
				t.Errorf("NewListPlan accepted shard %+v", bad)
			}
		}
	}
}

// TestOptionsSimulateReplacesTheModel checks that Run simulates every
// point of the plan with Options.Simulate when it is set, once each, and
// stores what it returns: the victim throughput the fake gives each point
// (its marking rate plus one tenth of its seed) is what the database holds,
// and the outcome's busy time sums the runs' wall times.
func TestOptionsSimulateReplacesTheModel(t *testing.T) {
	g := parse(t, smallGrid)
	db := openDB(t, "fake.db")
	var calls atomic.Int64
	const nap = 20 * time.Millisecond
	fake := func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
		calls.Add(1)
		time.Sleep(nap) // each run takes at least this long: Outcome.Busy sums them
		v := float64(cfg.CC.MarkingRate) + float64(seed)/10
		return &model.Result{Scenario: sc.Name, Seed: seed, Config: cfg, Sample: cfg.Phase, End: 2 * cfg.Phase,
			Flows: []model.FlowResult{{Name: "F1", Role: workload.Victim, Gbps: []float64{v, v}}}}, nil
	}
	sum := runGrid(t, g, db, sweep.Options{Workers: 2, Simulate: fake})
	if sum.Ran != g.Count() || calls.Load() != int64(g.Count()) {
		t.Fatalf("%d ran, %d simulations; want each of the %d points simulated once by the fake", sum.Ran, calls.Load(), g.Count())
	}
	// Busy is the runs' wall time summed (Efficiency's numerator): at
	// least one nap per point. (Kills sweep.go's `r.WallSeconds *
	// float64(time.Second)` turned into `/`.)
	if least := time.Duration(g.Count()) * nap; sum.Busy < least {
		t.Errorf("busy %v for %d runs of at least %v each; want at least %v", sum.Busy, g.Count(), nap, least)
	}
	rs, err := db.Results(context.Background(), store.Filter{Status: store.StatusDone})
	if err != nil || len(rs) != g.Count() {
		t.Fatalf("%d results done (%v), want %d", len(rs), err, g.Count())
	}
	for _, r := range rs {
		mr, _ := r.Point.Value("marking_rate")
		x, _ := grids.AxisNumber("marking_rate", mr)
		if want := x + float64(r.Point.Seed)/10; r.Metrics["victim_gbps"] != want {
			t.Errorf("point %s seed %d: victim_gbps %g, want the fake's %g", mr, r.Point.Seed, r.Metrics["victim_gbps"], want)
		}
	}
}
