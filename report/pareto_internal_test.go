package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// With a constraint no point meets there is no recommendation: Best is -1,
// not a cell.
func TestNoRecommendationWhenNothingIsFeasible(t *testing.T) {
	victim, _ := rank.ParseObjective("victim_gbps", true)
	where, err := grids.CompileMetricExpr("victim_gbps >= 100")
	if err != nil {
		t.Fatal(err)
	}
	g := refinedAnswer(t, rank.Query{Objectives: []rank.Objective{victim}, Where: []*grids.MetricExpr{where}})
	if r := g.Answer; r.Best != -1 || r.Feasible != 0 || len(r.Region) != 0 {
		t.Fatalf("nothing meets victim_gbps >= 100, yet best %d, %d feasible, region %v", r.Best, r.Feasible, r.Region)
	}
}

// The recommendation's sentence names the best cell, also the first, and
// the region holds exactly the cells the answer put there.
func TestRecommendationSummaryAndRegion(t *testing.T) {
	victim, _ := rank.ParseObjective("victim_gbps", true)
	contrib, _ := rank.ParseObjective("contributors_gbps", true)
	g := refinedAnswer(t, rank.Query{Objectives: []rank.Objective{victim, contrib}})
	r := *g.Answer
	r.Best = 0
	if s := r.Summary(g); !strings.HasPrefix(s, "Recommended: "+g.describe(g.Cells[0])+";") {
		t.Errorf("summary with the first cell best: %s", s)
	}
	if len(r.Region) == 0 || len(r.Region) == len(g.Cells) {
		t.Fatalf("region %v of %d cells: the test needs cells in and out", r.Region, len(g.Cells))
	}
	for ci := range g.Cells {
		if got := g.Answer.inRegion(ci); got != slices.Contains(r.Region, ci) {
			t.Errorf("cell %d: inRegion %v", ci, got)
		}
	}
	var none *Recommendation
	if none.inRegion(0) {
		t.Error("no recommendation has a region")
	}
}

// The recommendation's region and best point are drawn on the 3D surface,
// the grid's first cell too.
func TestRegionOfTheFirstCell(t *testing.T) {
	if !(&Recommendation{Best: -1, Region: []int{0, 2}}).inRegion(0) {
		t.Error("cell 0 of the region is not in it")
	}
	g, s := sliverGrid(1, 2, 3, 4)
	g.Answer = &Recommendation{Best: 0, Region: []int{0, 1}}
	series := regionSeries3D(g, s, s.Slices[0], "victim_gbps", false, false)
	if len(series) != 2 || len(series[0].Data.([]opts.Chart3DData)) != 1 || len(series[1].Data.([]opts.Chart3DData)) != 1 {
		t.Fatalf("series %+v, want the region's other cell and the best", series)
	}
}

// A region without a best point is outlined on the heat map too.
func TestOutlineRegionWithoutBest(t *testing.T) {
	g, s := sliverGrid(1, 2, 3, 4)
	g.Answer = &Recommendation{Best: -1, Region: []int{1}}
	if h := string(heatmapOption(g, s, s.Slices[0], "victim_gbps")); !strings.Contains(h, regionColor) {
		t.Fatalf("no outline: %s", h)
	}
}
