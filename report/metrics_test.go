package report_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

// TestMetricsAgree ties the one list of metrics, model.MetricList, to the
// store, which keeps a column of its own per metric, and to the report,
// which labels each: every metric the model computes is stored under its
// name, read back, and shown with the model's label and unit.
func TestMetricsAgree(t *testing.T) {
	if got := store.MetricNames(); !slices.Equal(got, model.MetricNames) {
		t.Fatalf("store.MetricNames() = %v, want model.MetricNames %v", got, model.MetricNames)
	}
	g, err := grids.Parse("one.toml", []byte("name = \"one\"\nscenario = \"testbed-s1\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "metrics.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := db.SaveGrid(ctx, store.GridRecord{ID: "one", Name: g.Name, Scenario: g.Scenario, ModelVersion: "test",
		Canonical: g.Canonical()}); err != nil {
		t.Fatal(err)
	}
	r := fakeResult(g.Points()[0], "one-1", "one", 0)
	r.Metrics = map[string]float64{}
	for i, m := range model.MetricList() {
		r.Metrics[m.Name] = float64(i) + 0.25
	}
	if err := db.SaveResults(ctx, []store.Result{r}); err != nil {
		t.Fatal(err)
	}
	stored, err := db.Results(ctx, store.Filter{GridID: "one"})
	if err != nil || len(stored) != 1 {
		t.Fatalf("Results: %d results, %v", len(stored), err)
	}
	ov, err := report.Load(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	shown := ov.Grids[0].Metrics
	for i, m := range model.MetricList() {
		t.Run(m.Name, func(t *testing.T) {
			if v, ok := stored[0].Metrics[m.Name]; !ok || v != float64(i)+0.25 {
				t.Errorf("the store gave back %v, %v; want %v", v, ok, float64(i)+0.25)
			}
			if !slices.Contains(shown, m.Name) {
				t.Errorf("the report does not show it (it shows %v)", shown)
			}
			d := report.LookupMetric(m.Name)
			if d == nil || d.Name != m.Name || d.Title != m.Label || d.Unit != m.Unit || d.Digits < 1 {
				t.Errorf("report.LookupMetric = %+v, want the model's label %q and unit %q", d, m.Label, m.Unit)
			}
		})
	}
}
