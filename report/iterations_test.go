package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

// iterationsOf is point i's made-up iteration times: 100(i+1)+k for
// iterations k = 1, 2, 3.
func iterationsOf(i int) []float64 {
	return []float64{float64(100*(i+1) + 1), float64(100*(i+1) + 2), float64(100*(i+1) + 3)}
}

// chartLines returns each series of a chart option, by name, as its
// (x, y) points.
func chartLines(t *testing.T, option json.RawMessage) map[string][][2]float64 {
	t.Helper()
	var o struct {
		Series []struct {
			Name string `json:"name"`
			Data []struct {
				Value [2]float64 `json:"value"`
			} `json:"data"`
		} `json:"series"`
	}
	if err := json.Unmarshal(option, &o); err != nil {
		t.Fatal(err)
	}
	out := map[string][][2]float64{}
	for _, s := range o.Series {
		for _, d := range s.Data {
			out[s.Name] = append(out[s.Name], d.Value)
		}
	}
	return out
}

// TestAppIterationsInPointDetail: the report draws, under each picked
// point's time series, its app's iteration times (iteration k at its time),
// and serve's point detail gives the iteration times of the point asked
// for; a point without apps has no such chart.
func TestAppIterationsInPointDetail(t *testing.T) {
	const text = "name = \"apps\"\nscenario = \"testbed-s1\"\nphase = \"4ms\"\n[sweep]\nmarking_rate = [0, 1, 2]\n"
	g, err := grids.Parse("apps.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "apps.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := db.SaveGrid(ctx, store.GridRecord{ID: "apps", Name: g.Name, Scenario: g.Scenario, ModelVersion: "test", Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	for i, pt := range g.Points() {
		r := fakeResult(pt, fmt.Sprintf("apps-%03d", i), "apps", 0)
		if i < 2 { // the last point has no apps
			r.Iterations = []store.AppIterations{{App: "train", Us: iterationsOf(i)}}
		}
		rs = append(rs, r)
	}
	if err := db.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()

	var out bytes.Buffer
	if err := report.Write(ctx, &out, ro, report.Options{}); err != nil {
		t.Fatal(err)
	}
	m := dataRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatal("no data element in the report")
	}
	var data struct {
		Charts map[string]struct {
			Kind    string            `json:"kind"`
			Options []json.RawMessage `json:"options"`
		} `json:"charts"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	// Each pick's point is named in its heading; its iteration chart
	// must hold that point's times.
	picks := regexp.MustCompile(`point (apps-00\d)</small></h4>`).FindAllStringSubmatch(out.String(), -1)
	if len(picks) < 2 {
		t.Fatalf("%d picked points in the report, want at least 2", len(picks))
	}
	drawn := 0
	for pi, p := range picks {
		i := int(p[1][len(p[1])-1] - '0')
		c, ok := data.Charts[fmt.Sprintf("g0-pick%d-iterations", pi)]
		if i == 2 {
			if ok {
				t.Errorf("pick %d (%s, no apps) has an iterations chart", pi, p[1])
			}
			continue
		}
		if !ok || c.Kind != "iterations" || len(c.Options) != 1 {
			t.Fatalf("pick %d (%s): no iterations chart", pi, p[1])
		}
		if !strings.Contains(out.String(), fmt.Sprintf(`<div class="chart" id="g0-pick%d-iterations"`, pi)) {
			t.Errorf("pick %d (%s): the page has no element for its iterations chart", pi, p[1])
		}
		want := [][2]float64{{1, iterationsOf(i)[0]}, {2, iterationsOf(i)[1]}, {3, iterationsOf(i)[2]}}
		if got := chartLines(t, c.Options[0]); len(got) != 1 || !slices.Equal(got["train"], want) {
			t.Errorf("pick %d (%s): iterations chart %v, want train %v", pi, p[1], got, want)
		}
		drawn++
	}
	if drawn == 0 {
		t.Error("no picked point with apps: the test checks nothing")
	}

	srv := httptest.NewServer(report.NewServer(ro, report.ServerOptions{}))
	defer srv.Close()
	for i := range 3 {
		_, body := get(t, fmt.Sprintf("%s/api/point?grid=apps&point=apps-%03d", srv.URL, i))
		var p struct {
			Iterations *struct {
				ID      string            `json:"id"`
				Options []json.RawMessage `json:"options"`
			} `json:"iterations"`
		}
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatalf("point %d: %v: %s", i, err, body)
		}
		if i == 2 {
			if p.Iterations != nil {
				t.Errorf("point 2 (no apps): iterations chart %s", body)
			}
			continue
		}
		if p.Iterations == nil || p.Iterations.ID != "x-iterations" || len(p.Iterations.Options) != 1 {
			t.Fatalf("point %d: no iterations chart in %s", i, body)
		}
		want := [][2]float64{{1, iterationsOf(i)[0]}, {2, iterationsOf(i)[1]}, {3, iterationsOf(i)[2]}}
		if got := chartLines(t, p.Iterations.Options[0]); !slices.Equal(got["train"], want) {
			t.Errorf("point %d: serve's iterations chart %v, want train %v", i, got, want)
		}
	}
}
