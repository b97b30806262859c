package report_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// BenchmarkReportScale measures the report of a large grid: three numeric
// axes (ccti_timer 40 values x marking_rate 10 or 25 x threshold 10, so
// 4 000 or 10 000 points, one seed), made-up results, five flows of 200
// samples a point. It reports the file's size with the chart scripts
// inlined, how long writing it took, how long headless Chromium (offline,
// software WebGL) took to draw the first screen, and how long to scroll
// through and draw every chart. A measurement to read, not a test:
//
//	go test -run '^$' -bench ReportScale -benchtime 1x ./report
//
// (docs/reports.md, "Large grids", has the figures).
func BenchmarkReportScale(b *testing.B) {
	for _, rates := range []int{10, 25} {
		b.Run(fmt.Sprintf("points=%d", 40*rates*10), func(b *testing.B) {
			db := scaleDB(b, rates)
			html := filepath.Join(b.TempDir(), "scale.html")
			br := newBrowser(b, 1500, 1000)
			b.ResetTimer()
			for range b.N {
				start := time.Now()
				writeReport(b, db, html, report.Options{})
				wrote := time.Since(start)
				fi, err := os.Stat(html)
				if err != nil {
					b.Fatal(err)
				}
				first := br.open(b, "file://"+html)
				start = time.Now()
				br.checkCharts(b)
				all := time.Since(start)
				b.ReportMetric(float64(fi.Size())/1e6, "MB")
				b.ReportMetric(wrote.Seconds(), "write-s")
				b.ReportMetric(first.Seconds(), "first-screen-s")
				b.ReportMetric(all.Seconds(), "all-charts-s")
				heap, err := chromedp.Run(br.ctx, chromedp.Evaluate[float64](`performance.memory ? performance.memory.usedJSHeapSize / 1e6 : 0`))
				if err == nil {
					b.ReportMetric(heap, "js-heap-MB")
				}
			}
			for _, p := range br.problems() {
				b.Error(p)
			}
		})
	}
}

// scaleDB writes a database of the 3-axis grid with rates marking rates.
func scaleDB(b testing.TB, rates int) string {
	b.Helper()
	var mr []string
	for i := range rates {
		mr = append(mr, fmt.Sprint(i*4))
	}
	grid := filepath.Join(b.TempDir(), "scale.toml")
	toml := `name = "scale"
scenario = "testbed-s1"
cc = "on"
phase = "200ms"
sample = "1ms"
[sweep]
ccti_timer   = { from = "50us", to = "2000us", step = "50us" }
marking_rate = [` + strings.Join(mr, ", ") + `]
threshold    = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
`
	if err := os.WriteFile(grid, []byte(toml), 0o644); err != nil {
		b.Fatal(err)
	}
	g := loadGrid(b, grid)
	plan, err := sweep.NewPlan(g, sweep.Shard{})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "scale.db")
	db, err := store.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.SaveGrid(ctx, store.GridRecord{ID: plan.GridID, Name: g.Name, Scenario: g.Scenario,
		ModelVersion: "test", Canonical: g.Canonical()}); err != nil {
		b.Fatal(err)
	}
	var batch []store.Result
	for i, pt := range plan.All() {
		timer, rate, th := param(pt, "ccti_timer", 150), param(pt, "marking_rate", 1), param(pt, "threshold", 15)
		r := store.Result{ID: plan.ID(i), GridID: plan.GridID, Point: store.Point{Scenario: pt.Scenario, Seed: pt.Seed},
			Status: store.StatusDone, WallSeconds: 4.5, ModelVersion: "test", Metrics: map[string]float64{
				"victim_gbps": 13 - 4*math.Exp(-timer/300)*math.Log2(rate+2)/6 - th/20, "contributors_gbps": 3.25 - 0.2*math.Exp(-timer/500),
				"fairness_jain": 0.95 + 0.04*math.Exp(-timer/400), "var": 0.05 + 0.5*timer/2000*math.Abs(math.Sin(float64(i))),
				"sd_gbps": 0.3, "fecn": 1e5 / (rate + 1), "becn": 9e4 / (rate + 1), "mean_ccti": 2000 / timer}}
		r.Point.Params = append(r.Point.Params, pt.Params...)
		for f := range 5 {
			gbps := make([]float64, 200)
			for k := range gbps {
				if k >= 40*f {
					gbps[k] = 13 / float64(min(f+1, 4))
				}
			}
			role := "contributor"
			if f == 0 {
				role = "victim"
			}
			r.Series = append(r.Series, store.Series{Flow: fmt.Sprintf("F%d", f+1), Role: role, SampleSeconds: 0.001, Gbps: gbps})
		}
		batch = append(batch, r)
		if len(batch) == 200 || i == plan.Len()-1 {
			if err := db.SaveResults(ctx, batch); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	return path
}
