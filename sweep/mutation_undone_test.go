package sweep_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// TestInterruptedSweepDoesNotCountPointsDoneElsewhereAsUndone checks an
// interrupted sweep's Undone when another process finished some of its
// points while it waited for them: Undone is the missing points neither run
// here nor seen done elsewhere, 3 − 2 − 1 = 0, and the error says only
// interrupted, not incomplete.
//
// The other process is played by the test, with no timing in it: before the
// sweep starts, "peer" claims points 0 and 1 (held by a live process, this
// one, for an hour), so the sweep runs point 2 and waits for the others. When
// point 2 is done the peer stores point 0 as done and releases point 1; the
// sweep's next poll counts point 0 done elsewhere, claims point 1 and runs
// it, and the context is cancelled as soon as point 1 is done, before the
// sweep could end on its own.
func TestInterruptedSweepDoesNotCountPointsDoneElsewhereAsUndone(t *testing.T) {
	plan, err := sweep.NewPlan(parse(t, defaultGrid), sweep.Shard{})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Len() != 3 {
		t.Fatalf("the plan has %d points, want 3", plan.Len())
	}
	db := openDB(t, "elsewhere.db")
	ids := planIDs(plan)
	bg := context.Background()
	if got, err := db.Claim(bg, ids[:2], "peer", time.Hour); err != nil || len(got) != 2 {
		t.Fatalf("the peer claimed %v, %v; want points 0 and 1", got, err)
	}
	ctx, cancel := context.WithTimeout(bg, time.Minute)
	defer cancel()
	p := &peerFinishes{t: t, db: db, plan: plan, ids: ids, cancel: cancel}
	// Leases of 300 ms: the sweep polls the peer's points every 100 ms.
	sum, err := sweep.Run(ctx, plan, db, sweep.Options{Workers: 1, Lease: 300 * time.Millisecond, Progress: p})
	if !errors.Is(err, sweep.ErrInterrupted) || errors.Is(err, sweep.ErrIncomplete) {
		t.Errorf("error %v; want interrupted and nothing incomplete", err)
	}
	if p.order != "2,1" {
		t.Errorf("the sweep ran points %s, want 2,1 (0 was done elsewhere)", p.order)
	}
	if sum.Ran != 2 || sum.Elsewhere != 1 || sum.Undone != 0 {
		t.Errorf("ran %d, %d done elsewhere, %d undone; want 2, 1, 0", sum.Ran, sum.Elsewhere, sum.Undone)
	}
}

// peerFinishes is the Progress of TestInterruptedSweepDoesNotCountPointsDoneElsewhereAsUndone.
type peerFinishes struct {
	t      *testing.T
	db     *store.DB
	plan   *sweep.Plan
	ids    []string
	cancel context.CancelFunc
	order  string
}

func (p *peerFinishes) Start(int) {}
func (p *peerFinishes) Done(pt grids.Point, failed bool) {
	k := -1
	for i := range p.ids {
		if p.ids[i] == grids.PointID(pt, model.Version) {
			k = i
		}
	}
	if p.order != "" {
		p.order += ","
	}
	p.order += string(rune('0' + k))
	switch k {
	case 2: // the peer finishes point 0 and gives point 1 up
		bg := context.Background()
		r := store.Result{ID: p.ids[0], GridID: p.plan.GridID, Point: p.plan.Point(0), Status: store.StatusDone,
			ModelVersion: model.Version}
		if err := p.db.SaveResults(bg, []store.Result{r}); err != nil {
			p.t.Error(err)
		}
		if err := p.db.Release(bg, "peer"); err != nil {
			p.t.Error(err)
		}
	case 1:
		p.cancel()
	}
}
func (p *peerFinishes) Finish() {}
