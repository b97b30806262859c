package sweep_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// TestInterruptedSweepCountsUndoneAtOnce: a stopped sweep counts its undone
// points at once, without reading them back (sweep.Run: a point another
// process finished unseen counts as undone; the count is high, never low).
// A peer holds point 0 of defaultGrid; when the sweep has run points 1 and
// 2, it is stopped and the peer then stores point 0 done, before the sweep
// counts. The sweep reports 1 of 3 undone although the database has all
// three done; a rerun runs nothing. (Kills sweep.go's `ctx.Err() != nil`
// before the count turned into `==`, which reads the points back when
// stopped.)
func TestInterruptedSweepCountsUndoneAtOnce(t *testing.T) {
	plan, db, ids := planWithPointZeroHeld(t, "stopped.db")
	bg := context.Background()
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	p := &peerFinishesAfterStop{t: t, db: db, plan: plan, ids: ids, stop: cancel}
	sum, err := sweep.Run(ctx, plan, db, sweep.Options{Workers: 1, Lease: time.Hour, Progress: p, Simulate: fakeVictimRun})
	if !errors.Is(err, sweep.ErrInterrupted) || !errors.Is(err, sweep.ErrIncomplete) {
		t.Fatalf("%v; want the sweep interrupted and incomplete", err)
	}
	if sum.Ran != 2 || sum.Elsewhere != 0 || sum.Undone != 1 {
		t.Errorf("ran %d, %d done elsewhere, %d undone; want 2, 0, 1 (point 0 finished unseen)", sum.Ran, sum.Elsewhere, sum.Undone)
	}
	again, err := sweep.Run(bg, plan, db, sweep.Options{Workers: 1, Simulate: fakeVictimRun})
	if err != nil || again.Ran != 0 || again.Undone != 0 {
		t.Errorf("rerun: ran %d, %d undone, %v; want nothing to run (all three done)", again.Ran, again.Undone, err)
	}
}

// peerFinishesAfterStop is the Progress of TestInterruptedSweepCountsUndoneAtOnce:
// when the sweep has done its two points it stops the sweep, then stores
// point 0 done as the peer that holds it, before the sweep's workers return.
type peerFinishesAfterStop struct {
	t    *testing.T
	db   *store.DB
	plan *sweep.Plan
	ids  []string
	stop context.CancelFunc
	mu   sync.Mutex
	done int
}

func (p *peerFinishesAfterStop) Start(int) {}
func (p *peerFinishesAfterStop) Finish()   {}
func (p *peerFinishesAfterStop) Done(grids.Point, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done++; p.done != 2 {
		return
	}
	p.stop()
	r := store.Result{ID: p.ids[0], GridID: p.plan.GridID, Point: p.plan.Point(0), Status: store.StatusDone,
		ModelVersion: model.Version, Metrics: map[string]float64{"victim_gbps": 5}}
	if err := p.db.SaveResults(context.Background(), []store.Result{r}); err != nil {
		p.t.Error(err)
	}
}
