package rank_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
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

// TestWhereOnAppMetric: a --where constraint on an app's metric keeps the
// points that meet it (a point without the metric meets none), combines
// with parameters, and a misspelt app metric that no point has is an
// error naming it, not a silently empty answer.
func TestWhereOnAppMetric(t *testing.T) {
	iter := map[string]float64{"50us": 130, "150us": 95, "500us": 110}
	var rs []store.Result
	for timer, v := range iter {
		rs = append(rs, result(1, map[string]string{"ccti_timer": timer}, map[string]float64{"train_iteration_mean_us": v, "victim_gbps": v / 10}))
	}
	rs = append(rs, result(1, map[string]string{"ccti_timer": "1ms"}, map[string]float64{"victim_gbps": 100}))
	sums := store.Summarize(rs)
	q := rank.Query{Objectives: []rank.Objective{mustObjective(t, "victim_gbps", true)}}
	for _, tt := range []struct{ where, best string }{
		{"train_iteration_mean_us < 120", "ccti_timer=500us"}, // 11 beats 9.5; 50us (13) and 1ms (no app) fail
		{"train_iteration_mean_us < 120 && ccti_timer < 300", "ccti_timer=150us"},
		{"!(train_iteration_mean_us < 200)", "ccti_timer=1ms"}, // NaN: no comparison holds
	} {
		q.Where = []*grids.MetricExpr{mustWhere(t, tt.where)}
		a := mustRank(t, sums, q)
		if got := a.Best.Describe(a.Axes); got != tt.best {
			t.Errorf("where %s: best %s, want %s", tt.where, got, tt.best)
		}
	}
	q.Where = []*grids.MetricExpr{mustWhere(t, "train_iteraton_mean_us < 120")}
	if _, err := rank.Rank(sums, q); err == nil || !strings.Contains(err.Error(), "no point has a metric train_iteraton_mean_us") {
		t.Errorf("where on a metric no point has: %v", err)
	}
}

// An objective no point measured is named by Unmeasured (best refuses it,
// as a where on such a metric is): a scenario without victims has no
// victim_gbps, and ranking by it would only say that no point qualifies.
func TestObjectiveNoPointHasIsRefused(t *testing.T) {
	sums := row(map[string]float64{"fairness_jain": 0.9}, map[string]float64{"fairness_jain": 0.8})
	objs := []rank.Objective{mustObjective(t, "fairness_jain", true), mustObjective(t, "victim_gbps", true)}
	a := mustRank(t, sums, rank.Query{Objectives: objs})
	if err := a.Unmeasured(); err == nil || !strings.Contains(err.Error(), "maximize victim_gbps: none of the 2 points has a metric victim_gbps") {
		t.Errorf("objective no point has: %v", err)
	}
	if a.Best != nil {
		t.Errorf("best %s, though no point has victim_gbps", a.Best.Describe(a.Axes))
	}
	// One point having it is enough: the other is only infeasible.
	sums = row(map[string]float64{"fairness_jain": 0.9}, map[string]float64{"victim_gbps": 3, "fairness_jain": 0.8})
	a = mustRank(t, sums, rank.Query{Objectives: objs})
	if err := a.Unmeasured(); err != nil {
		t.Errorf("one point measures every objective: %v", err)
	}
	if a.Best == nil || a.Best.Describe(a.Axes) != "ccti_timer="+testTimers[1] {
		t.Errorf("best with one point measuring the objective: %+v", a.Best)
	}
	if err := mustRank(t, row(map[string]float64{"fairness_jain": 0.9}), rank.Query{Objectives: objs}).Unmeasured(); err == nil {
		t.Error("one point without victim_gbps: not refused")
	}
	// No point at all: nothing to refuse.
	if err := mustRank(t, nil, rank.Query{Objectives: objs}).Unmeasured(); err != nil {
		t.Errorf("no points: %v", err)
	}
}
