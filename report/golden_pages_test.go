package report

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report/rank"
	"github.com/ccsweep/ccsweep/store"
)

// TestGoldenPages pins the whole report page of grids of several shapes
// (a refinement, schemes side by side, load curves with failed and missing
// points, overlapping sub-grids with an axis of one value and two seeds):
// its data (every chart's options, every grid's cells) and its HTML without
// the scripts and the style sheet. Where the other tests check one property each, this one
// notices any change of what the page shows. Regenerate with
// go test ./report -run GoldenPages -update and review the diff.
func TestGoldenPages(t *testing.T) {
	victim, _ := rank.ParseObjective("victim_gbps", true)
	contrib, _ := rank.ParseObjective("contributors_gbps", true)
	for _, tt := range []struct {
		name  string
		db    func(t *testing.T) (*store.DB, store.GridRecord)
		query *rank.Query
	}{
		{"refined", refinedDB, &rank.Query{Objectives: []rank.Objective{victim, contrib}}},
		{"schemes", schemesDB, nil},
		{"load", loadDB, nil},
		{"overlap", overlapDB, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, _ := tt.db(t)
			var buf bytes.Buffer
			err := Write(context.Background(), &buf, db, Options{Version: "test", Query: tt.query,
				Now: time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			page := dbPathRE.ReplaceAllString(buf.String(), "g.db")   // a temporary directory
			page = writtenRE.ReplaceAllString(page, "written TIME ·") // in the local time zone
			m := pageDataRE.FindStringSubmatch(page)
			if m == nil {
				t.Fatal("no page data")
			}
			var data bytes.Buffer
			if err := json.Indent(&data, []byte(m[1]), "", " "); err != nil {
				t.Fatal(err)
			}
			data.WriteByte('\n')
			GoldenFile(t, "page-"+tt.name+".json", data.Bytes())
			html := scriptRE.ReplaceAllString(page, "<script$1>…</script>")
			html = styleRE.ReplaceAllString(html, "<style>…</style>") // report.css, as shipped
			GoldenFile(t, "page-"+tt.name+".html", []byte(html))
		})
	}
}

var (
	pageDataRE = regexp.MustCompile(`(?s)<script type="application/json" id="ccsweep-data">(.*?)</script>`)
	scriptRE   = regexp.MustCompile(`(?s)<script([^>]*)>.*?</script>`)
	styleRE    = regexp.MustCompile(`(?s)<style>.*?</style>`)
	writtenRE  = regexp.MustCompile(`written [^·<]* ·`)
	dbPathRE   = regexp.MustCompile(`[^\s"<>]*/g\.db`)
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// GoldenFile compares got with testdata/golden/name, or writes it there
// with -update. Exported for the package's external tests (golden_test.go).
func GoldenFile(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -run Golden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the report computes; run go test ./report -run Golden -update and review the diff\n%s",
			path, firstLineDiff(string(want), string(got)))
	}
}

// firstLineDiff shows the first line where want and got differ.
func firstLineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + w + "\n  got  " + g
		}
	}
	return ""
}

// loadDB is a load sweep on clos648-hotspot with CC off and on, two seeds:
// load curves of accepted load and latency with their spread, one point
// failed and one missing, and CC off picked at the default marking rate
// (1, not the first).
func loadDB(t *testing.T) (*store.DB, store.GridRecord) {
	return storeGrid(t, `
name = "load"
scenario = "clos648-hotspot"
seeds = 2
[sweep]
cc           = ["off", "on"]
"bg.load"    = [0.1, 0.3, 0.5]
marking_rate = [0, 1]
`, func(pt grids.Point) bool {
		cc, _ := pt.Value("cc")
		return !(cc == "on" && num(t, pt, "bg.load") == 0.5 && num(t, pt, "marking_rate") == 1) // missing
	}, func(pt grids.Point) map[string]float64 {
		cc, _ := pt.Value("cc")
		load, rate := num(t, pt, "bg.load"), num(t, pt, "marking_rate")
		if cc == "off" && load == 0.3 && rate == 1 && pt.Seed == 2 {
			return nil // failed
		}
		seed := float64(pt.Seed) / 100
		on := 0.0
		if cc == "on" {
			on = 1
		}
		return map[string]float64{"accepted_load": load*(1-on*0.05*rate) + seed, "latency_mean_us": 2 + 10*load*load/(1+on) + seed,
			"latency_p99_us": 5 + 40*load*load/(1+on), "victim_gbps": 2 + on*(8-rate) - 3*load, "contributors_gbps": 3 - on*rate/10 - seed}
	})
}

// overlapDB is two sub-grids that share a point, with an axis of one value
// and two seeds a point.
func overlapDB(t *testing.T) (*store.DB, store.GridRecord) {
	return storeGrid(t, `
name = "overlap"
scenario = "testbed-s1"
seeds = 2
[[grid]]
threshold = 15
[grid.sweep]
ccti_timer   = ["50us", "150us", "300us"]
marking_rate = [1, 4]
[[grid]]
[grid.sweep]
threshold    = [15]
ccti_timer   = ["150us"]
marking_rate = [4, 16]
`, nil, func(pt grids.Point) map[string]float64 {
		tm, rate := num(t, pt, "ccti_timer")/1e6, num(t, pt, "marking_rate")
		return map[string]float64{"victim_gbps": 2 + tm/50 - rate/8 + float64(pt.Seed)/10, "contributors_gbps": 3.2 + rate/100,
			"var": rate / 20, "fairness_jain": 0.99 - float64(pt.Seed)/100}
	})
}
