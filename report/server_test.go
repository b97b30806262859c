package report_test

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	db, err := store.OpenReadOnly(fakeDB(t, "golden", "lines"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	srv := httptest.NewServer(report.NewServer(db, report.ServerOptions{}))
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// TestServerQueries checks that every query parameter is validated: the
// server answers 400 with a reason for anything the grid does not have.
func TestServerQueries(t *testing.T) {
	srv := newTestServer(t)
	tests := []struct {
		name, path string
		code       int
		body       string // a substring of the answer
	}{
		{"page", "/", 200, "ccsweep serve"},
		{"page with query", "/?x=1", 400, `unknown query parameter "x"`},
		{"malformed escape", "/api/view?grid=%zz", 400, `malformed query: invalid URL escape "%zz"`},
		{"grids", "/api/grids", 200, `"name":"golden"`},
		{"view", "/api/view?grid=golden-grid&metric=var&x=ccti_timer&y=marking_rate&at.threshold=15&at.cc=on", 200, `"id":"x-3d"`},
		{"view lines", "/api/view?grid=lines-grid&metric=victim_gbps&x=message_size", 200, `"legend":{"data":["cc=off","cc=on"]`},
		{"view lines fixed", "/api/view?grid=lines-grid&metric=victim_gbps&x=message_size&at.cc=off", 200, `"legend":{"data":["cc=off"],`},
		{"view categorical axes", "/api/view?grid=lines-grid&metric=var&x=message_size&y=cc", 200, `"id":"x-heat"`},
		{"no grid", "/api/view?metric=var&x=ccti_timer", 400, "grid is required"},
		{"unknown grid", "/api/view?grid=nope&metric=var&x=ccti_timer", 400, `no grid "nope"`},
		{"unknown parameter", "/api/view?grid=golden-grid&metric=var&x=ccti_timer&z=1", 400, `unknown query parameter "z"`},
		{"repeated parameter", "/api/view?grid=golden-grid&metric=var&metric=var&x=ccti_timer", 400, "given 2 times"},
		{"unknown metric", "/api/view?grid=golden-grid&metric=speed&x=ccti_timer", 400, `metric "speed"`},
		{"unknown axis", "/api/view?grid=golden-grid&metric=var&x=mtu", 400, `axis "mtu": want one of threshold, ccti_timer, marking_rate, cc`},
		{"same axes", "/api/view?grid=golden-grid&metric=var&x=ccti_timer&y=ccti_timer", 400, "both"},
		{"fixing an axis", "/api/view?grid=golden-grid&metric=var&x=ccti_timer&y=threshold&at.threshold=7", 400, "at.threshold"},
		{"value not in grid", "/api/view?grid=golden-grid&metric=var&x=ccti_timer&y=threshold&at.marking_rate=9", 400, `at.marking_rate="9"`},
		{"no such slice", "/api/view?grid=golden-grid&metric=var&x=ccti_timer&y=threshold&at.marking_rate=1&at.cc=off", 400, "no points"},
		{"point", "/api/point?grid=golden-grid&point=golden-002", 200, `"id":"x-series"`},
		{"failed point", "/api/point?grid=golden-grid&point=golden-036", 200, "injected failure"},
		{"unknown point", "/api/point?grid=golden-grid&point=x", 400, `no point "x"`},
		{"point of another grid", "/api/point?grid=lines-grid&point=golden-002", 400, "no point"},
		{"shipped echarts", "/assets/echarts.min.js", 200, `version="` + report.EChartsVersion + `"`},
		{"shipped echarts-gl", "/assets/echarts-gl.min.js", 200, `"echarts-gl"`},
		{"asset with a query", "/assets/echarts.min.js?v=1", 404, ""},
		{"no such asset", "/assets/d3.js", 404, ""},
		{"post", "", 405, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var code int
			var body string
			if tt.path == "" {
				resp, err := http.Post(srv.URL+"/api/grids", "text/plain", nil)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				code = resp.StatusCode
			} else {
				code, body = get(t, srv.URL+tt.path)
			}
			if code != tt.code || !strings.Contains(body, tt.body) {
				t.Errorf("GET %s: %d %q, want %d with %q", tt.path, code, trim(body), tt.code, tt.body)
			}
		})
	}
}

func trim(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// TestServerPoint checks the point details of a failed
// point: its error, no series.
func TestServerPoint(t *testing.T) {
	srv := newTestServer(t)
	_, body := get(t, srv.URL+"/api/point?grid=golden-grid&point=golden-036")
	var p struct {
		Title string      `json:"title"`
		Rows  [][2]string `json:"rows"`
		Chart any         `json:"chart"`
	}
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	if p.Chart != nil || !strings.Contains(p.Title, "ccti_timer=400us marking_rate=2") {
		t.Errorf("failed point: title %q, chart %v", p.Title, p.Chart)
	}
}

// TestServerLive checks that the server sees points written after it
// started, as while a sweep runs.
func TestServerLive(t *testing.T) {
	path := fakeDB(t, "lines")
	db, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(report.NewServer(db, report.ServerOptions{}))
	defer srv.Close()
	count := func() int {
		_, body := get(t, srv.URL+"/api/grids")
		var gs []struct{ Done int }
		if err := json.Unmarshal([]byte(body), &gs); err != nil || len(gs) != 1 {
			t.Fatalf("grids: %v %s", err, body)
		}
		return gs[0].Done
	}
	before := count()
	w, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g := loadGrid(t, "testdata/golden/lines.toml")
	pt := g.Points()[0]
	pt.Seed = 2
	if err := w.SaveResults(context.Background(), []store.Result{fakeResult(pt, "lines-new", "lines-grid", 0)}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if after := count(); after != before+1 {
		t.Errorf("done points: %d before a write, %d after, want one more", before, after)
	}
}

// TestServerLoopback checks that a server on a loopback address refuses
// requests for other host names (DNS rebinding) and shuts down when its
// context ends.
func TestServerLoopback(t *testing.T) {
	db, err := store.OpenReadOnly(fakeDB(t, "lines"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- report.NewServer(db, report.ServerOptions{}).ListenAndServe(ctx, "127.0.0.1:0", func(a net.Addr) { addrc <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	base := "http://" + addr.String()
	for host, want := range map[string]int{"": 200, "localhost": 200, "evil.example": 403, "10.0.0.1": 403} {
		req, _ := http.NewRequest("GET", base+"/api/grids", nil)
		if host != "" {
			req.Host = host + ":" + url.PathEscape(strings.Split(addr.String(), ":")[1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %q: status %d, want %d", req.Host, resp.StatusCode, want)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ListenAndServe after cancel: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
}

// A point's details give a metric's spread only over two seeds or more.
func TestServerPointSpreadOnlyOverSeeds(t *testing.T) {
	srv := newTestServer(t)
	for _, tt := range []struct {
		grid, point string
		spread      bool
	}{{"lines-grid", "lines-000", false}, {"golden-grid", "golden-000", true}} {
		_, body := get(t, srv.URL+"/api/point?grid="+tt.grid+"&point="+tt.point)
		var p struct {
			Rows [][2]string `json:"rows"`
		}
		if err := json.Unmarshal([]byte(body), &p); err != nil {
			t.Fatal(err)
		}
		metrics, spread := 0, 0
		for _, r := range p.Rows {
			if r[0] == "victim_gbps" || r[0] == "var" {
				metrics++
				if strings.Contains(r[1], " ± ") {
					spread++
				}
			}
		}
		if metrics != 2 || (spread == 2) != tt.spread || (spread == 0) == tt.spread {
			t.Errorf("%s: %d of %d metric rows with a spread, want spread %v: %v", tt.point, spread, metrics, tt.spread, p.Rows)
		}
	}
}
