package sweep_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// TestSweepWaitsForAPointHeldAcrossPolls: a point another process holds is
// waited for, poll after poll, until it is done there (docs/sweeps.md:
// "a run waits for the points others hold"). The peer holds point 0 of
// defaultGrid through the sweep of points 1 and 2 and for half a second
// after (five polls of leases of 300 ms), then stores it done: the sweep
// ends without error, having run 1 and 2 and counted 0 done elsewhere.
// (Kills sweep.go's `err != nil` after the poll's takeAll turned into `==`,
// which ends the wait after the first poll.)
func TestSweepWaitsForAPointHeldAcrossPolls(t *testing.T) {
	plan, db, ids := planWithPointZeroHeld(t, "held.db")
	p := &peerHolds{t: t, db: db, plan: plan, ids: ids, hold: 500 * time.Millisecond}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sum, err := sweep.Run(ctx, plan, db, sweep.Options{Workers: 1, Lease: 300 * time.Millisecond, Progress: p, Simulate: fakeVictimRun})
	p.wg.Wait() // the peer has finished (a sweep that stopped waiting has ended before)
	if err != nil || ctx.Err() != nil {
		t.Fatalf("%v (context: %v); want the sweep to end by itself without error", err, ctx.Err())
	}
	if sum.Ran != 2 || sum.Elsewhere != 1 || sum.Undone != 0 {
		t.Errorf("ran %d, %d done elsewhere, %d undone; want 2, 1, 0", sum.Ran, sum.Elsewhere, sum.Undone)
	}
}

// planWithPointZeroHeld returns defaultGrid's plan, a new database file
// name in the test's directory and the points' IDs, point 0 claimed for an
// hour by another process, "peer".
func planWithPointZeroHeld(t *testing.T, name string) (*sweep.Plan, *store.DB, []string) {
	t.Helper()
	plan, err := sweep.NewPlan(parse(t, defaultGrid), sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	db := openDB(t, name)
	ids := planIDs(plan)
	if got, err := db.Claim(context.Background(), ids[:1], "peer", time.Hour); err != nil || len(got) != 1 {
		t.Fatalf("the peer claimed %v, %v; want point 0", got, err)
	}
	return plan, db, ids
}

// fakeVictimRun is a Simulate that returns at once: a victim at 5 Gbit/s.
func fakeVictimRun(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
	return &model.Result{Scenario: sc.Name, Seed: seed, Config: cfg, Sample: cfg.Phase, End: 2 * cfg.Phase,
		Flows: []model.FlowResult{{Name: "F1", Role: workload.Victim, Gbps: []float64{5, 5}}}}, nil
}

// peerHolds is the Progress of TestSweepWaitsForAPointHeldAcrossPolls: when
// the sweep has done its two points the peer, hold later, stores point 0
// done and lets go.
type peerHolds struct {
	t    *testing.T
	db   *store.DB
	plan *sweep.Plan
	ids  []string
	hold time.Duration
	mu   sync.Mutex
	done int
	wg   sync.WaitGroup
}

func (p *peerHolds) Start(int) {}
func (p *peerHolds) Finish()   {}
func (p *peerHolds) Done(grids.Point, bool) {
	p.mu.Lock()
	p.done++
	n := p.done
	p.mu.Unlock()
	if n != 2 {
		return
	}
	p.wg.Go(func() {
		time.Sleep(p.hold)
		bg := context.Background()
		r := store.Result{ID: p.ids[0], GridID: p.plan.GridID, Point: p.plan.Point(0), Status: store.StatusDone,
			ModelVersion: model.Version, Metrics: map[string]float64{"victim_gbps": 5}}
		if err := p.db.SaveResults(bg, []store.Result{r}); err != nil {
			p.t.Error(err)
		}
		if err := p.db.Release(bg, "peer"); err != nil {
			p.t.Error(err)
		}
	})
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
