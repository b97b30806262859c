package report_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/report"
)

// The two tests here measure, and run only when asked through the
// environment (report/testdata/scale-compare.sh sets it): the report of
// BenchmarkReportScale's grid written by two versions of ccsweep and
// drawn in turn, so that a loaded machine loads both alike.
//
// TestScaleReportWrite writes, in $CCSWEEP_SCALE_DIR, the database of
// $CCSWEEP_SCALE_POINTS points (4000 or 10000; made once, then reused) and
// its report, scale-POINTS-$CCSWEEP_SCALE_TAG.html.
func TestScaleReportWrite(t *testing.T) {
	dir := os.Getenv("CCSWEEP_SCALE_DIR")
	if dir == "" {
		t.Skip("a measurement: set CCSWEEP_SCALE_DIR (report/testdata/scale-compare.sh)")
	}
	points, _ := strconv.Atoi(os.Getenv("CCSWEEP_SCALE_POINTS"))
	if points == 0 {
		points = 10000
	}
	db := filepath.Join(dir, fmt.Sprintf("scale-%d.db", points))
	if _, err := os.Stat(db); err != nil {
		b, err := os.ReadFile(scaleDB(t, points/400))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(db, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	html := filepath.Join(dir, fmt.Sprintf("scale-%d-%s.html", points, os.Getenv("CCSWEEP_SCALE_TAG")))
	start := time.Now()
	writeReport(t, db, html, report.Options{})
	fi, err := os.Stat(html)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("wrote %s: %d bytes in %v\n", html, fi.Size(), time.Since(start).Round(time.Millisecond))
}

// TestScaleReportDraw opens each report of $CCSWEEP_SCALE_DRAW (paths
// separated by commas) in a fresh headless Chromium, in turn, for
// $CCSWEEP_SCALE_ROUNDS rounds (3 by default), and prints how long the
// first screen took to draw and then every chart, each run's load average
// and each report's medians.
func TestScaleReportDraw(t *testing.T) {
	list := os.Getenv("CCSWEEP_SCALE_DRAW")
	if list == "" {
		t.Skip("a measurement: set CCSWEEP_SCALE_DRAW (report/testdata/scale-compare.sh)")
	}
	files := strings.Split(list, ",")
	rounds, _ := strconv.Atoi(os.Getenv("CCSWEEP_SCALE_ROUNDS"))
	if rounds == 0 {
		rounds = 3
	}
	first, all := map[string][]float64{}, map[string][]float64{}
	for r := range rounds {
		for _, f := range files {
			t.Run(fmt.Sprintf("round%d/%s", r+1, filepath.Base(f)), func(t *testing.T) {
				br := newBrowser(t, 1500, 1000)
				load, _ := os.ReadFile("/proc/loadavg")
				took := br.open(t, "file://"+f)
				start := time.Now()
				br.checkCharts(t)
				rest := time.Since(start)
				first[f] = append(first[f], took.Seconds())
				all[f] = append(all[f], rest.Seconds())
				fmt.Printf("round %d %s: first screen %.1f s, every chart %.1f s more (load average %s)\n",
					r+1, filepath.Base(f), took.Seconds(), rest.Seconds(), strings.Join(strings.Fields(string(load))[:3], " "))
				for _, p := range br.problems() {
					t.Error(p)
				}
			})
		}
	}
	for _, f := range files {
		fmt.Printf("median %s: first screen %.1f s, every chart %.1f s more (%d rounds)\n", filepath.Base(f), median(first[f]), median(all[f]), len(first[f]))
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
