package store_test

import (
	"bytes"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// TestAppIterations: the per-iteration times of a point's apps are stored
// with its result, read back by app name and in order, exported in long
// form (one row per iteration, none for a point without apps) and carried
// by a merge; a non-finite time or a repeated app is refused.
func TestAppIterations(t *testing.T) {
	ctx := t.Context()
	d, path := newDB(t)
	a := doneResult("p1", testGrid.ID)
	a.Iterations = []store.AppIterations{{App: "train", Us: []float64{1250.5, 1300.25}}, {App: "ar", Us: []float64{7}}}
	b := doneResult("p2", testGrid.ID)
	if err := d.SaveResults(ctx, []store.Result{a, b}); err != nil {
		t.Fatal(err)
	}
	want := []store.AppIterations{{App: "ar", Us: []float64{7}}, {App: "train", Us: []float64{1250.5, 1300.25}}}
	check := func(d *store.DB, where string) {
		t.Helper()
		got, err := d.Iterations(ctx, "p1")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: p1's iterations read back as %v, want %v", where, got, want)
		}
		if got, err := d.Iterations(ctx, "p2"); err != nil || got != nil {
			t.Errorf("%s: p2's iterations read back as %v, %v; want none", where, got, err)
		}
		var buf bytes.Buffer
		if err := d.ExportIterationsCSV(ctx, &buf, store.ExportOptions{}); err != nil {
			t.Fatal(err)
		}
		const csv = "grid,grid_id,scenario,marking_rate,seed,point,app,iteration,us\n" +
			"fig11-14,grid-1,testbed-s1,1,1,p1,ar,1,7\n" +
			"fig11-14,grid-1,testbed-s1,1,1,p1,train,1,1250.5\n" +
			"fig11-14,grid-1,testbed-s1,1,1,p1,train,2,1300.25\n"
		if buf.String() != csv {
			t.Errorf("%s: export --iterations:\n%s\nwant\n%s", where, buf.String(), csv)
		}
		buf.Reset()
		if err := d.ExportIterationsJSON(ctx, &buf, store.ExportOptions{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), `"point": "p1", "app": "train", "iteration": 2, "us": 1300.25}`) || strings.Count(buf.String(), `"app"`) != 3 {
			t.Errorf("%s: export --iterations --format json:\n%s", where, buf.String())
		}
	}
	check(d, "saved")
	d.Close()
	dst := filepath.Join(t.TempDir(), "merged.db")
	if err := store.Merge(ctx, dst, []string{path}, false); err != nil {
		t.Fatal(err)
	}
	m, err := store.Open(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	check(m, "merged")
	for _, bad := range [][]store.AppIterations{
		{{App: "ar", Us: []float64{1}}, {App: "ar", Us: []float64{2}}},
		{{App: "ar", Us: []float64{1, inf()}}},
		{{App: "Bad Name", Us: []float64{1}}},
	} {
		r := doneResult("p3", testGrid.ID)
		r.Iterations = bad
		if err := m.SaveResults(ctx, []store.Result{r}); err == nil {
			t.Errorf("iterations %v saved", bad)
		}
	}
}

func inf() float64 { var zero float64; return 1 / zero }

// TestSchema5OpensReadOnly: a database of schema 5 (before the iteration
// times) opens read-only as it is, without migration, and reads as before
// with no iteration times; merging it into a new database works. Schema 4
// is still refused read-only (its points lack columns readers select).
func TestSchema5OpensReadOnly(t *testing.T) {
	ctx := t.Context()
	d, path := newDB(t)
	a := doneResult("p1", testGrid.ID)
	a.Metrics["ar_iteration_mean_us"] = 26.5
	if err := d.SaveResults(ctx, []store.Result{a}); err != nil {
		t.Fatal(err)
	}
	if _, err := store.SQLDB(d).Exec("DROP TABLE app_iterations; PRAGMA user_version = 5"); err != nil {
		t.Fatal(err)
	}
	d.Close()
	r, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatalf("schema 5 read-only: %v", err)
	}
	rs, err := r.Results(ctx, store.Filter{})
	if err != nil || len(rs) != 1 || rs[0].Metrics["ar_iteration_mean_us"] != 26.5 {
		t.Errorf("schema 5 results: %v, %v", rs, err)
	}
	if it, err := r.Iterations(ctx, "p1"); it != nil || err != nil {
		t.Errorf("schema 5 iterations: %v, %v; want none", it, err)
	}
	var buf bytes.Buffer
	if err := r.ExportIterationsCSV(ctx, &buf, store.ExportOptions{}); err != nil || strings.Count(buf.String(), "\n") != 1 {
		t.Errorf("schema 5 export --iterations: %q, %v; want the header only", buf.String(), err)
	}
	var version int
	store.SQLDB(r).QueryRow("PRAGMA user_version").Scan(&version)
	r.Close()
	if version != 5 {
		t.Errorf("the read-only handle left user_version %d, want 5", version)
	}
	dst := filepath.Join(t.TempDir(), "merged.db")
	if err := store.Merge(ctx, dst, []string{path}, false); err != nil {
		t.Fatalf("merge of a schema 5 database: %v", err)
	}
	m, err := store.OpenReadOnly(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if rs, err := m.Results(ctx, store.Filter{}); err != nil || len(rs) != 1 || rs[0].Metrics["ar_iteration_mean_us"] != 26.5 {
		t.Errorf("merged schema 5 results: %v, %v", rs, err)
	}

	old := filepath.Join(t.TempDir(), "v4.db")
	d4, err := store.Open(old)
	if err != nil {
		t.Fatal(err)
	}
	store.SQLDB(d4).Exec("DROP TABLE app_iterations; DROP TABLE app_metrics; PRAGMA user_version = 4")
	d4.Close()
	if r4, err := store.OpenReadOnly(old); err == nil || !strings.Contains(err.Error(), "schema version 4 is older than 5") {
		t.Errorf("schema 4 read-only: %v", err)
		if err == nil {
			r4.Close()
		}
	}
}
