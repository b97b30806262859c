package slurm

import (
	"context"
	"slices"

	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// A grid with rounds (refinement, seed targets, a calibration) runs on
// Slurm round after round, each round a job array: task I of round r runs
// shard I of the round's points (adaptive.RoundState.Plan), the round being the one
// the merged database says is under way (ccsweep run --rounds-from), and the
// merge job, once it has merged, submits the next round (ccsweep slurm
// --next-round) until the rounds are finished. The scripts are the same in
// every round; only the merged database moves the sweep on.

// RoundPlans returns the plans of shards 1..n of the round rounds is in
// according to the merged database of the directory (round 0 when there is
// none), and that round's state. Shards of a round smaller than n are empty.
func (d Dir) RoundPlans(ctx context.Context, rounds *adaptive.Rounds, n int) ([]*sweep.Plan, adaptive.RoundState, error) {
	results, err := openIfExists(d.ResultsDB())
	if err != nil {
		return nil, adaptive.RoundState{}, &DirError{string(d), err}
	}
	if results != nil {
		defer results.Close()
	}
	st, err := rounds.Current(ctx, results)
	if err != nil {
		return nil, st, err
	}
	plans := make([]*sweep.Plan, n)
	for i := range plans {
		if plans[i], err = st.Plan(rounds.Grid, sweep.Shard{Index: i + 1, Count: n}); err != nil {
			return nil, st, err
		}
	}
	return plans, st, nil
}

// shardPlans returns the plans Outstanding counts: the grid's shards, or
// for a grid with rounds those of the current round.
func (s *Setup) shardPlans(ctx context.Context) ([]*sweep.Plan, error) {
	if s.Rounds == nil {
		return sweep.ShardPlans(s.Grid, s.Job.Tasks)
	}
	plans, st, err := s.Dir().RoundPlans(ctx, s.Rounds, s.Job.Tasks)
	s.round = st
	return plans, err
}

// Round returns the state of the rounds as Outstanding last found it.
func (s *Setup) Round() adaptive.RoundState { return s.round }

// others returns ids without the calling job's own (Self).
func (s *Setup) others(ids []string) []string {
	return slices.DeleteFunc(ids, func(id string) bool { return s.Self != "" && id == s.Self })
}
