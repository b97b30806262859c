package rank_test

import (
	"errors"
	"testing"

	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// TestRankByAppMetric: an app's metric (stored beside the fixed ones) is an
// objective like any other, and a name that is neither kind is refused.
func TestRankByAppMetric(t *testing.T) {
	iter := map[string]float64{"50us": 130, "150us": 95, "500us": 110}
	var rs []store.Result
	for timer, v := range iter {
		rs = append(rs, result(1, map[string]string{"ccti_timer": timer}, map[string]float64{"train_iteration_mean_us": v, "victim_gbps": 1}))
	}
	a, err := rank.Rank(store.Summarize(rs), rank.Query{Objectives: []rank.Objective{mustObjective(t, "train_iteration_mean_us", false)}})
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Best.Describe(a.Axes); got != "ccti_timer=150us" {
		t.Errorf("best = %s, want ccti_timer=150us (the shortest iteration)", got)
	}
	for _, bad := range []string{"victim_gpbs", "Train_iteration_mean_us", "train iteration_us"} {
		if _, err := rank.ParseObjective(bad, true); !errors.Is(err, rank.ErrBadObjective) {
			t.Errorf("objective %q accepted: %v", bad, err)
		}
	}
}
