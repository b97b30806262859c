package sweep

import (
	"context"

	"github.com/ccsweep/ccsweep/store"
)

// Tally counts a plan's points by what the databases hold of them.
type Tally struct {
	Points  int // points of the plan
	Done    int // done in at least one database
	Failed  int // failed in at least one database and done in none: a rerun retries them
	Missing int // in no database: never run, or lost in flight
}

// Complete reports whether every point is done.
func (t Tally) Complete() bool { return t.Done == t.Points }

// Add returns the sum of t and u, as for the shards of one grid.
func (t Tally) Add(u Tally) Tally {
	return Tally{t.Points + u.Points, t.Done + u.Done, t.Failed + u.Failed, t.Missing + u.Missing}
}

// Tally counts the plan's points that the databases dbs hold done, hold only
// failed, or do not hold, as when the shards of a Slurm array and their merge
// each hold some of the results. It only reads, asking for a batch of
// points at a time.
func (p *Plan) Tally(ctx context.Context, dbs ...*store.DB) (Tally, error) {
	t := Tally{Points: p.Len()}
	err := p.batches(p.positions(), true, func(_ []int, ids, legacy []string) error {
		done := make(map[string]bool)
		for _, db := range dbs {
			d, err := doneIDs(ctx, db, ids, legacy)
			if err != nil {
				return err
			}
			for id := range d {
				done[id] = true
			}
		}
		// Failed: stored, whichever grid stored it, and done nowhere.
		var ask []string
		ofLegacy := map[string]string{}
		for j, id := range ids {
			if !done[id] {
				ask = append(ask, id)
				if l := legacy[j]; l != "" {
					ask = append(ask, l)
					ofLegacy[l] = id
				}
			}
		}
		failed := make(map[string]bool)
		for _, db := range dbs {
			if len(ask) == 0 {
				break
			}
			rs, err := db.ResultsOf(ctx, ask)
			if err != nil {
				return err
			}
			for _, r := range rs {
				if r.Status == store.StatusFailed {
					failed[r.ID] = true
					if id, ok := ofLegacy[r.ID]; ok {
						failed[id] = true
					}
				}
			}
		}
		for _, id := range ids {
			switch {
			case done[id]:
				t.Done++
			case failed[id]:
				t.Failed++
			default:
				t.Missing++
			}
		}
		return nil
	})
	if err != nil {
		return Tally{}, err
	}
	return t, nil
}
