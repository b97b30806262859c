package adaptive_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// Tests written against the survivors of session 11's sampled mutation run
// of sweep/adaptive (docs/testing.md, "Sampled runs") in rounds.go.

// TestRoundsRetryFailedPointsOnRerun: a round with failed points stops the
// sweep with ErrFailedRound, and a rerun retries them and goes on
// (RunRounds' doc): the second run of coarseGrid, where the point that
// failed now simulates, runs that point and the refinement after it and
// ends finished, with what the first run did counted as done already.
func TestRoundsRetryFailedPointsOnRerun(t *testing.T) {
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	db := openDB(t, "retry.db")
	failing := func(ctx context.Context, sc *workload.Scenario, cfg params.Config, seed uint64) (*model.Result, error) {
		if cfg.CC.MarkingRate == 4 && cfg.CC.CCTITimer.Micros() == 50 {
			return nil, errors.New("planted failure")
		}
		return cliffSim(ctx, sc, cfg, seed)
	}
	first, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 1, Simulate: failing})
	if !errors.Is(err, adaptive.ErrFailedRound) || first.Failed != 1 || first.State.Round != 0 {
		t.Fatalf("first run: %v, %d failed in round %d; want ErrFailedRound for the one point of round 0", err, first.Failed, first.State.Round)
	}
	again, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 1, Simulate: cliffSim})
	if err != nil || !again.State.Finished {
		t.Fatalf("rerun: %v, finished %v; want the failed point retried and the sweep finished", err, again.State.Finished)
	}
	if again.Failed != 0 || again.Rounds < 2 || again.AlreadyDone != first.Ran-first.Failed {
		t.Errorf("rerun: %d rounds, %d failed, %d already done; want round 0 and refinement rounds after it, none failed, the first run's %d done points already done",
			again.Rounds, again.Failed, again.AlreadyDone, first.Ran-first.Failed)
	}
}

// TestRoundsFindResultsStoredUnderLegacyIDs: a point stored by an older
// ccsweep under its legacy identity (grids.LegacyPointID: a parameter
// written out at the value it has anyway) is done for the rounds as for a plain
// sweep. A database holding coarseGrid's finished sweep with its points
// moved to its legacy ID replays to the same finished state.
func TestRoundsFindResultsStoredUnderLegacyIDs(t *testing.T) {
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	ctx := context.Background()
	db := openDB(t, "new.db")
	if _, err := adaptive.RunRounds(ctx, rounds, db, sweep.Options{Workers: 1, Simulate: cliffSim}); err != nil {
		t.Fatal(err)
	}
	want, err := rounds.Current(ctx, db)
	if err != nil || !want.Finished {
		t.Fatal(want, err)
	}
	var ids []string
	for _, p := range want.All {
		ids = append(ids, grids.PointID(p.Point, model.Version))
	}
	results, err := db.ResultsOf(ctx, ids)
	if err != nil || len(results) != len(ids) {
		t.Fatalf("%d results of %d points: %v", len(results), len(ids), err)
	}
	grs, err := db.Grids(ctx)
	if err != nil {
		t.Fatal(err)
	}
	old := openDB(t, "old.db")
	for _, gr := range grs {
		if err := old.SaveGrid(ctx, gr); err != nil {
			t.Fatal(err)
		}
	}
	moved := 0
	for i := range results {
		if l := grids.LegacyPointID(results[i].Point, model.Version); l != "" {
			results[i].ID = l
			moved++
		}
	}
	if moved == 0 {
		t.Fatalf("none of %d points has a legacy ID; the test needs some", len(results))
	}
	if err := old.SaveResults(ctx, results); err != nil {
		t.Fatal(err)
	}
	got, err := rounds.Current(ctx, old)
	if err != nil || !got.Finished || got.Round != want.Round || got.Planned != want.Planned {
		t.Errorf("legacy IDs: round %d, %d planned, finished %v (%v); want round %d, %d planned, finished",
			got.Round, got.Planned, got.Finished, err, want.Round, want.Planned)
	}
}

// TestRoundsCountPointsDoneElsewhere: a point of round 0 held by another
// process, which finishes it while this sweep waits, is counted done
// elsewhere, not run here nor done already: Ran + Elsewhere + AlreadyDone
// = Points, with Elsewhere 1 and AlreadyDone 0.
func TestRoundsCountPointsDoneElsewhere(t *testing.T) {
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	ctx := context.Background()
	db := openDB(t, "peer.db")
	st, err := rounds.Current(ctx, db)
	if err != nil || len(st.Points) != 16 {
		t.Fatal(len(st.Points), err)
	}
	held := st.Points[5].Point
	heldID := grids.PointID(held, model.Version)
	if got, err := db.Claim(ctx, []string{heldID}, "peer", time.Hour); err != nil || len(got) != 1 {
		t.Fatalf("the peer claimed %v, %v", got, err)
	}
	p := &peerFinishesARound{t: t, db: db, point: held, id: heldID, after: 15}
	out, err := adaptive.RunRounds(ctx, rounds, db, sweep.Options{Workers: 1, Simulate: cliffSim, Lease: 300 * time.Millisecond, Progress: p})
	if err != nil || !out.State.Finished {
		t.Fatalf("%v, finished %v", err, out.State.Finished)
	}
	if !p.finished {
		t.Fatal("the peer never finished its point")
	}
	if out.Elsewhere != 1 || out.AlreadyDone != 0 || out.Ran != out.Points-1 || slices.Contains(p.ran, heldID) {
		t.Errorf("%d points: %d ran, %d elsewhere, %d already done (held point run here: %v); want %d, 1, 0",
			out.Points, out.Ran, out.Elsewhere, out.AlreadyDone, slices.Contains(p.ran, heldID), out.Points-1)
	}
}

// peerFinishesARound is the Progress of TestRoundsCountPointsDoneElsewhere:
// after `after` points done here, the peer stores its point as done (by the
// cliff surface) and lets go.
type peerFinishesARound struct {
	t        *testing.T
	db       *store.DB
	point    grids.Point
	id       string
	after    int
	mu       sync.Mutex
	ran      []string
	finished bool
}

func (p *peerFinishesARound) Start(int) {}
func (p *peerFinishesARound) Finish()   {}
func (p *peerFinishesARound) Done(pt grids.Point, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ran = append(p.ran, grids.PointID(pt, model.Version))
	if len(p.ran) != p.after {
		return
	}
	cfg, err := grids.PointConfig(p.point)
	if err != nil {
		p.t.Error(err)
		return
	}
	ctx := context.Background()
	grs, err := p.db.Grids(ctx)
	if err != nil || len(grs) != 1 {
		p.t.Error(fmt.Sprint(len(grs), err))
		return
	}
	r := store.Result{ID: p.id, GridID: grs[0].ID, Point: p.point, Status: store.StatusDone, ModelVersion: model.Version,
		Metrics: map[string]float64{"victim_gbps": cliffSurface(cfg)}}
	if err := p.db.SaveResults(ctx, []store.Result{r}); err != nil {
		p.t.Error(err)
	}
	if err := p.db.Release(ctx, "peer"); err != nil {
		p.t.Error(err)
	}
	p.finished = true
}
