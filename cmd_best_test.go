package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// handMadeDB writes a database of a grid ccti_timer × marking_rate whose
// results are made up, two seeds each: victim throughput is highest at
// (400us, 2), right next to a cliff at 500us; everywhere else it rises
// gently with the timer. Fairness drops with the marking rate.
func handMadeDB(t *testing.T) string {
	t.Helper()
	g, err := grids.Parse("hand.toml", []byte(`
name = "hand"
scenario = "testbed-s1"
seeds = 2
[sweep]
ccti_timer   = ["100us", "200us", "300us", "400us", "500us"]
marking_rate = [1, 2, 4]
`))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hand.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	gridID := sweep.GridID(g)
	if err := db.SaveGrid(ctx, store.GridRecord{ID: gridID, Name: g.Name, Scenario: g.Scenario,
		ModelVersion: model.Version, Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	for _, pt := range g.Points() {
		tm, _ := pt.Value("ccti_timer")
		mr, _ := pt.Value("marking_rate")
		victim := map[string]float64{"100us": 10, "200us": 10.5, "300us": 10.8, "400us": 11, "500us": 2}[tm]
		if tm == "400us" && mr == "2" {
			victim = 12
		}
		r := store.Result{ID: grids.PointID(pt, model.Version), GridID: gridID, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
			Status: store.StatusDone, ModelVersion: model.Version,
			Metrics: map[string]float64{
				"victim_gbps":   victim + 0.1*float64(pt.Seed),
				"fairness_jain": map[string]float64{"1": 0.99, "2": 0.97, "4": 0.9}[mr],
			}}
		r.Point.Params = append(r.Point.Params, pt.Params...)
		rs = append(rs, r)
	}
	if err := db.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBestRanksAndRobustAvoidsTheCliff(t *testing.T) {
	db := handMadeDB(t)
	best := func(args ...string) string {
		t.Helper()
		out, stderr, code := ccsweep(t, append([]string{"best", db}, args...)...)
		if code != 0 {
			t.Fatalf("best %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		return out
	}
	recommended := func(out string) string {
		for _, line := range strings.Split(out, "\n") {
			if s, ok := strings.CutPrefix(line, "recommended: "); ok {
				return s
			}
		}
		t.Fatalf("no recommendation in:\n%s", out)
		return ""
	}
	plain := best("--maximize", "victim_gbps")
	if got := recommended(plain); got != "ccti_timer=400us marking_rate=2" {
		t.Errorf("recommended %q, want the highest point, ccti_timer=400us marking_rate=2\n%s", got, plain)
	}
	if !strings.Contains(plain, "12.15 ± 0.64 (2 seeds)") {
		t.Errorf("the table does not show the best point's mean with its 95%% interval (12.15 ± 12.706·0.0707/√2):\n%s", plain)
	}
	robust := best("--maximize", "victim_gbps", "--robust", "--at", "ccti_timer=400us", "--at", "marking_rate=2")
	if got := recommended(robust); !strings.HasPrefix(got, "ccti_timer=300us ") {
		t.Errorf("robust: recommended %q, want ccti_timer=300us, whose worst neighbour keeps 10.65\n%s", got, robust)
	}
	if !strings.Contains(robust, "ccti_timer=400us marking_rate=2 ranks 11 of 15 feasible points") {
		t.Errorf("robust: 400us, on the edge of the cliff, should rank 11th:\n%s", robust)
	}
	if !strings.Contains(robust, "its worst neighbour, ccti_timer=500us marking_rate=2, has 2.15") {
		t.Errorf("robust --at does not explain the cliff next to 400us:\n%s", robust)
	}
	// A constraint moves the recommendation off marking rate 2.
	constrained := best("--maximize", "victim_gbps", "--where", "fairness_jain >= 0.98")
	if got := recommended(constrained); got != "ccti_timer=400us marking_rate=1" {
		t.Errorf("with fairness_jain >= 0.98: recommended %q, want ccti_timer=400us marking_rate=1\n%s", got, constrained)
	}
	if !strings.Contains(constrained, "5 of 15 points meet them") {
		t.Errorf("constraint count missing:\n%s", constrained)
	}
	csv := best("--maximize", "victim_gbps", "--format", "csv", "--top", "2")
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	if len(lines) != 3 || lines[0] != "rank,score,pareto,region,ccti_timer,marking_rate,seeds,victim_gbps_mean,victim_gbps_ci95" ||
		!strings.HasPrefix(lines[1], "1,1,true,true,400us,2,2,12.1") {
		t.Errorf("csv:\n%s", csv)
	}
	js := best("--maximize", "victim_gbps", "--format", "json", "--top", "1")
	if !strings.Contains(js, `"rank": 1, "score": 1, "pareto": true, "region": true, "ccti_timer": "400us", "marking_rate": "2", "seeds": 2`) {
		t.Errorf("json:\n%s", js)
	}
}

func TestBestBadInputExitsTwo(t *testing.T) {
	db := handMadeDB(t)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"best", db}, "needs at least one objective"},
		{[]string{"best", db, "--maximize", "victim"}, `unknown metric "victim"`},
		{[]string{"best", db, "--maximize", "victim_gbps", "--where", "fairness_jain >="}, "--where"},
		{[]string{"best", db, "--maximize", "victim_gbps", "--at", "ccti_timer=fast"}, "--at ccti_timer=fast"},
		{[]string{"best", db, "--maximize", "victim_gbps", "--grid", "nope"}, `--grid "nope"`},
		{[]string{"best", db, "--maximize", "victim_gbps", "--format", "xml"}, "--format"},
		{[]string{"best", db, "--maximize", "contributors_gbps"}, "none of the 15 points has a metric contributors_gbps"},
		{[]string{"best", filepath.Join(t.TempDir(), "missing.db"), "--maximize", "victim_gbps"}, "no such database"},
	} {
		t.Run(fmt.Sprint(tc.args[2:]), func(t *testing.T) {
			out, stderr, code := ccsweep(t, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.msg) || strings.Count(stderr, "\n") != 1 || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and one line with %q", code, out, stderr, tc.msg)
			}
		})
	}
}
