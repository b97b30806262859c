package sweep_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// repeatGrid lists some points twice (the second [[grid]] overlaps the
// first) and has a where constraint and seeds.
const repeatGrid = `
name     = "repeats"
scenario = "testbed-s1"
cc       = "on"
sample   = "1ms"
seeds    = 2

[[grid]]
phase        = "3ms"
sweep.marking_rate = [0, 1, 2, 4]
sweep.ccti_timer   = ["100us", "200us", "300us"]
where = "marking_rate < 4 || ccti_timer > 150"

[[grid]]
phase        = "3ms"
sweep.marking_rate = [2, 4, 8]
sweep.ccti_timer   = ["300us"]

[[grid]]
phase        = "7ms"
sweep.marking_rate = [0, 16]
`

// TestShardDealingGolden pins which points each shard of a plan holds, in
// which order: a change would send points already run by one array task to
// another, and the shards of a grid run before and after would overlap.
func TestShardDealingGolden(t *testing.T) {
	for _, text := range []string{smallGrid, unevenGrid, repeatGrid} {
		g := parse(t, text)
		t.Run(g.Name, func(t *testing.T) {
			var b strings.Builder
			for _, n := range []int{1, 2, 3, 4, 7} {
				for i := 1; i <= n; i++ {
					plan, err := sweep.NewPlan(g, sweep.Shard{Index: i, Count: n})
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&b, "shard %d/%d:", i, n)
					for _, id := range planIDs(plan) {
						fmt.Fprintf(&b, " %s", id[:8])
					}
					b.WriteString("\n")
				}
			}
			golden := filepath.Join("testdata", "shards", g.Name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./sweep -run ShardDealing -update)", err)
			}
			if b.String() != string(want) {
				t.Errorf("shards differ from %s:\ngot:\n%s\nwant:\n%s", golden, b.String(), want)
			}
		})
	}
}

// planIDs returns the IDs of the plan's points in order.
func planIDs(p *sweep.Plan) []string {
	ids := make([]string, p.Len())
	for k := range ids {
		ids[k] = p.ID(k)
	}
	return ids
}

// TestLegacyIDsBesideMoreFailedThanDone: a database holding more failed
// results than done ones still has its points under legacy IDs looked up
// (whether to look is decided by done + failed, not done − failed), and a
// point that failed under its legacy ID counts failed in the tally, not
// missing. defaultGrid's three points: marking_rate 1 done under its legacy
// ID, 0 failed under its legacy ID, 2 failed under its ID.
func TestLegacyIDsBesideMoreFailedThanDone(t *testing.T) {
	ctx := context.Background()
	g := parse(t, defaultGrid)
	db := openDB(t, "legacy-failed.db")
	gid := sweep.GridID(g)
	if err := db.SaveGrid(ctx, store.GridRecord{ID: gid, Name: g.Name, Scenario: g.Scenario, ModelVersion: model.Version, Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	byRate := map[string]int{}
	for k := range plan.Len() {
		p := plan.Point(k)
		mr, _ := p.Value("marking_rate")
		byRate[mr] = k
		r := store.Result{GridID: gid, Point: p, Status: store.StatusFailed, Err: "planted", ModelVersion: model.Version}
		switch mr {
		case "1":
			r.ID, r.Status, r.Err, r.Metrics = legacyID(p), store.StatusDone, "", map[string]float64{"victim_gbps": 1}
		case "0":
			r.ID = legacyID(p)
		case "2":
			r.ID = grids.PointID(p, model.Version)
		}
		if r.ID == grids.PointID(p, model.Version) && mr != "2" {
			t.Fatalf("marking_rate %s: the legacy ID is the ID; nothing to test", mr)
		}
		rs = append(rs, r)
	}
	if err := db.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	missing, err := plan.Missing(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{byRate["0"], byRate["2"]}; fmt.Sprint(missing) != fmt.Sprint(want) {
		t.Errorf("missing positions %v, want %v (the failed ones; marking_rate 1 is done under its legacy ID)", missing, want)
	}
	tally, err := plan.Tally(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if want := (sweep.Tally{Points: 3, Done: 1, Failed: 2}); tally != want {
		t.Errorf("tally %+v, want %+v", tally, want)
	}
}
