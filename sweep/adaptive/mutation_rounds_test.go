package adaptive_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// Tests written against the survivors of the sampled mutation run of
// sweep (docs/testing.md, "Sampled runs") in rounds.go.

// TestMutRoundsCountWhatWasDoneBefore checks RunRounds' summary of an
// adaptive sweep (coarseGrid's refinement, simulated by the cliff
// surface): run from an empty database every planned point ran here and
// none was done already; rerun, every one was done already and none ran.
func TestMutRoundsCountWhatWasDoneBefore(t *testing.T) {
	sim := cliffSim
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	db := openDB(t, "rounds.db")
	first, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 1, Simulate: sim})
	if err != nil || !first.State.Finished {
		t.Fatal(first, err)
	}
	if first.Ran != first.Points || first.AlreadyDone != 0 || first.Elsewhere != 0 || first.Points != first.State.Planned {
		t.Errorf("first run: %d points, %d ran, %d already done, %d elsewhere; want all %d run here", first.Points, first.Ran,
			first.AlreadyDone, first.Elsewhere, first.State.Planned)
	}
	again, err := adaptive.RunRounds(context.Background(), rounds, db, sweep.Options{Workers: 1, Simulate: sim})
	if err != nil || again.Ran != 0 || again.AlreadyDone != first.Points {
		t.Errorf("rerun: %d ran, %d already done (%v); want 0 and %d", again.Ran, again.AlreadyDone, err, first.Points)
	}
}

// TestMutRoundsRefuseAShard: every round needs all results of the one
// before, so RunRounds refuses a shard of more than one (nothing run, an
// error naming why) and takes the one shard of one like no shard.
// Kills rounds.go's `opt.Shard != (sweep.Shard{})` negated.
func TestMutRoundsRefuseAShard(t *testing.T) {
	g := parse(t, coarseGrid)
	db := openDB(t, "shard.db")
	out, err := adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, g.Refine), db,
		sweep.Options{Workers: 1, Simulate: cliffSim, Shard: sweep.Shard{Index: 1, Count: 2}})
	if err == nil || !strings.Contains(err.Error(), "runs its rounds in one database") || out.Ran != 0 {
		t.Fatalf("shard 1/2: %d ran, err %v; want nothing run and the one-database error", out.Ran, err)
	}
	out, err = adaptive.RunRounds(context.Background(), adaptive.NewRounds(g, g.Refine), db,
		sweep.Options{Workers: 1, Simulate: cliffSim, Shard: sweep.Shard{Index: 1, Count: 1}})
	if err != nil || !out.State.Finished {
		t.Fatalf("shard 1/1: %v, finished %v; want the sweep run", err, out.State.Finished)
	}
}
