package main

import (
	"database/sql"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	_ "modernc.org/sqlite"
)

// infiniteDB is handMadeDB with non-finite values written over some of
// its results by hand, as a hand edit or a future bug could leave them
// (SQLite reads 9e999 as +Inf), and with finite values whose sums overflow.
func infiniteDB(t *testing.T) string {
	t.Helper()
	path := handMadeDB(t)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`UPDATE points SET victim_gbps = 9e999 WHERE rowid IN (SELECT rowid FROM points ORDER BY id LIMIT 3)`,
		`UPDATE points SET fairness_jain = -9e999, wall_seconds = 9e999 WHERE rowid IN (SELECT rowid FROM points ORDER BY id DESC LIMIT 2)`,
		// Finite, but their sum over a point's two seeds overflows.
		`UPDATE points SET var = 1.7e308, sd_gbps = CASE seed WHEN 1 THEN 1.7e308 ELSE -1.7e308 END`,
	} {
		res, err := db.Exec(q)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			t.Fatalf("%s changed nothing", q)
		}
	}
	// Every point gets a series; one holds an infinity.
	for i, blob := range [][]byte{store.EncodeSamples([]float64{1, 2, 3}), store.EncodeSamples([]float64{1, math.Inf(1), 3})} {
		if _, err := db.Exec(`INSERT INTO series (point_id, flow, ord, role, sample_seconds, samples, gbps)
			SELECT id, 'F1', 0, 'victim', 0.001, 3, ? FROM points WHERE (? = 0) = (id <> (SELECT min(id) FROM points))`, blob, i); err != nil {
			t.Fatal(err)
		}
	}
	var inf float64
	if err := db.QueryRow(`SELECT max(victim_gbps) FROM points`).Scan(&inf); err != nil || inf < 1e308 {
		t.Fatalf("the database holds no infinity: %v, %v", inf, err)
	}
	return path
}

// TestNonFiniteValuesNeverPanic reads a database holding ±Inf with every
// command that reads metrics: none panics, each exits 0 or refuses with
// exit 2 and one line, and JSON output parses.
func TestNonFiniteValuesNeverPanic(t *testing.T) {
	path := infiniteDB(t)
	for _, args := range [][]string{
		{"export", path},
		{"export", path, "--format", "json"},
		{"export", path, "--summary"},
		{"export", path, "--summary", "--format", "json"},
		{"best", path, "--maximize", "victim_gbps"},
		{"best", path, "--maximize", "victim_gbps", "--minimize", "fairness_jain", "--format", "json"},
		{"best", path, "--maximize", "victim_gbps", "--robust", "--format", "csv"},
		{"best", path, "--maximize", "victim_gbps", "--at", "ccti_timer=100us", "--at", "marking_rate=1"},
		// The chart scripts from the CDN: the inlined ones spell Infinity.
		{"report", path, "-o", "-", "--assets", "cdn"},
		{"report", path, "-o", "-", "--assets", "cdn", "--maximize", "victim_gbps", "--minimize", "fairness_jain"},
	} {
		t.Run(strings.Join(args[2:], " "), func(t *testing.T) {
			var out, stderr string
			var code int
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("%v panicked: %v", args, r)
					}
				}()
				out, stderr, code = ccsweep(t, args...)
			}()
			if code != 0 && (code != exitUsage || strings.Count(strings.TrimSpace(stderr), "\n") > 0) {
				t.Fatalf("exit %d, stderr %q; want 0, or 2 and one line", code, stderr)
			}
			if strings.Contains(strings.Join(args, " "), "json") && !json.Valid([]byte(out)) {
				t.Errorf("invalid JSON:\n%.600s", out)
			}
			if strings.Contains(out, "Inf") || strings.Contains(out, "inf,") || strings.Contains(out, "inf\n") {
				t.Errorf("output shows an infinity:\n%.600s", out)
			}
		})
	}
}

// TestServeNonFiniteValues asks the report server for every view and point
// of a database holding ±Inf: every answer is 200 with JSON that parses,
// but the point whose series holds an infinity, which is refused in one line.
func TestServeNonFiniteValues(t *testing.T) {
	db, err := store.OpenReadOnly(infiniteDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := httptest.NewServer(report.NewServer(db, report.ServerOptions{}))
	defer srv.Close()
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		refused := resp.StatusCode == 500 && strings.Contains(string(b), "not a ccsweep database: sample 1 is +Inf") &&
			strings.Count(strings.TrimSpace(string(b)), "\n") == 0
		if !refused && (resp.StatusCode != 200 || (strings.HasPrefix(path, "/api/") && !json.Valid(b))) {
			t.Errorf("GET %s: %d %.300s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	get("/")
	var grids []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(get("/api/grids")), &grids); err != nil || len(grids) != 1 {
		t.Fatalf("grids: %v %v", grids, err)
	}
	id := url.QueryEscape(grids[0].ID)
	for _, m := range []string{"victim_gbps", "fairness_jain"} {
		get("/api/view?grid=" + id + "&metric=" + m + "&x=ccti_timer&y=marking_rate")
		get("/api/view?grid=" + id + "&metric=" + m + "&x=ccti_timer&at.marking_rate=1")
	}
	all, _ := db.Results(t.Context(), store.Filter{})
	for _, r := range all {
		get("/api/point?grid=" + id + "&point=" + r.ID)
		if math.IsInf(r.WallSeconds, 0) {
			t.Errorf("point %s: wall seconds %v", r.ID, r.WallSeconds)
		}
		for m, v := range r.Metrics {
			if math.IsInf(v, 0) {
				t.Errorf("point %s: %s = %v", r.ID, m, v)
			}
		}
	}
}
