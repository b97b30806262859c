package report_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

// whereGrid has 4×3 combinations of which the where constraint keeps 3+2+2+2
// = 9, with two seeds each: 18 points, not the 24 of the full product.
const whereGrid = `
name     = "where"
scenario = "testbed-s1"
phase    = "4ms"
sample   = "1ms"
seeds    = 2
where    = "marking_rate == 0 || ccti_timer <= 200"

[sweep]
marking_rate = [0, 1, 2, 4]
ccti_timer   = ["100us", "200us", "400us"]
`

// saveGrid stores the grid with the given canonical text and, made up
// by fakeResult, the points of g for which keep is true.
func saveGrid(t *testing.T, db *store.DB, id, canonical string, g *grids.Grid, keep func(grids.Point) bool) {
	t.Helper()
	ctx := context.Background()
	if err := db.SaveGrid(ctx, store.GridRecord{ID: id, Name: g.Name, Scenario: g.Scenario, ModelVersion: "test",
		Canonical: canonical}); err != nil {
		t.Fatal(err)
	}
	var rs []store.Result
	for i, pt := range g.Points() {
		if keep(pt) {
			rs = append(rs, fakeResult(pt, fmt.Sprintf("%s-%03d", id, i), id, 0))
		}
	}
	if err := db.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
}

// loadOne opens a new database, lets fill write it and returns the report
// of its only grid.
func loadOne(t *testing.T, fill func(db *store.DB)) (*report.Grid, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	fill(db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ro, err := store.OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	ov, err := report.Load(context.Background(), ro)
	if err != nil {
		return nil, err
	}
	if len(ov.Grids) != 1 {
		t.Fatalf("%d grids, want 1", len(ov.Grids))
	}
	return ov.Grids[0], nil
}

// TestPlanWhere checks that a grid with a where constraint plans exactly
// the points the constraint keeps: the planned and missing counts, and a
// missing cell for each kept combination with nothing stored, none for a
// dropped one.
func TestPlanWhere(t *testing.T) {
	g, err := grids.Parse("where.toml", []byte(whereGrid))
	if err != nil {
		t.Fatal(err)
	}
	if g.Count() != 18 {
		t.Fatalf("the grid has %d points, want 18", g.Count())
	}
	// Store everything but marking_rate=1 (both seeds) and seed 2 of
	// marking_rate=0 ccti_timer=400us: 4 + 1 missing points.
	unstored := func(pt grids.Point) bool {
		mr, tm := param(pt, "marking_rate", -1), param(pt, "ccti_timer", -1)
		return mr == 1 || mr == 0 && tm == 400 && pt.Seed == 2
	}
	rg, err := loadOne(t, func(db *store.DB) {
		saveGrid(t, db, "where-grid", g.Canonical(), g, func(pt grids.Point) bool { return !unstored(pt) })
	})
	if err != nil {
		t.Fatal(err)
	}
	if !rg.PlannedExact || rg.Planned != 18 || rg.Done != 13 || rg.Missing != 5 || rg.PlanError != "" {
		t.Errorf("planned %d (exact %v, %q), done %d, missing %d; want exactly 18 planned, 13 done, 5 missing",
			rg.Planned, rg.PlannedExact, rg.PlanError, rg.Done, rg.Missing)
	}
	if len(rg.Cells) != 9 {
		t.Errorf("%d cells, want the 9 combinations the constraint keeps", len(rg.Cells))
	}
	var missing []string
	for _, c := range rg.Cells {
		desc := fmt.Sprint(c.Params)
		if c.Seeds != 2 {
			t.Errorf("cell %s plans %d seeds, want 2", desc, c.Seeds)
		}
		if strings.Contains(desc, "400us") && !strings.Contains(desc, "marking_rate 0") {
			t.Errorf("cell %s: the where constraint drops it", desc)
		}
		if c.Status == report.CellMissing {
			missing = append(missing, desc)
		}
	}
	want := []string{"[{ccti_timer 100us} {marking_rate 1} {phase 4ms} {sample 1ms}]",
		"[{ccti_timer 200us} {marking_rate 1} {phase 4ms} {sample 1ms}]"}
	if fmt.Sprint(missing) != fmt.Sprint(want) {
		t.Errorf("missing cells %v, want %v", missing, want)
	}
}

// TestPlanCanonicalFormat checks how the report takes a grid's stored
// canonical text: a later format is refused with an error that says so,
// and a grid this model cannot expand still loads, its plan unknown.
func TestPlanCanonicalFormat(t *testing.T) {
	g, err := grids.Parse("where.toml", []byte(whereGrid))
	if err != nil {
		t.Fatal(err)
	}
	all := func(grids.Point) bool { return true }
	t.Run("newer format", func(t *testing.T) {
		newer := strings.Replace(g.Canonical(), grids.CanonicalFormat, "ccsweep-grid/9", 1)
		_, err := loadOne(t, func(db *store.DB) { saveGrid(t, db, "newer", newer, g, all) })
		if !errors.Is(err, grids.ErrFormatTooNew) || !strings.Contains(err.Error(), "ccsweep-grid/9") {
			t.Errorf("Load: %v, want an error wrapping grids.ErrFormatTooNew that names the format", err)
		}
	})
	t.Run("unknown parameter", func(t *testing.T) {
		future := strings.Replace(g.Canonical(), `"name": "ccti_timer"`, `"name": "future_knob"`, 1)
		rg, err := loadOne(t, func(db *store.DB) { saveGrid(t, db, "future", future, g, all) })
		if err != nil {
			t.Fatal(err)
		}
		if rg.PlannedExact || !strings.Contains(rg.PlanError, "future_knob") || rg.Planned != rg.Done || rg.Missing != 0 ||
			rg.Done != 18 {
			t.Errorf("planned %d (exact %v, %q), done %d, missing %d; want the plan unknown and the 18 stored points",
				rg.Planned, rg.PlannedExact, rg.PlanError, rg.Done, rg.Missing)
		}
	})
}
