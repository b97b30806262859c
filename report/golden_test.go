package report_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

// TestGolden checks what the report draws for a known database: the
// figures (cells, slices, picks with their series) and the ECharts option
// each chart starts with.
func TestGolden(t *testing.T) {
	ov := loadFake(t, "golden", "lines")
	if len(ov.Grids) != 2 {
		t.Fatalf("got %d grids, want 2", len(ov.Grids))
	}
	for gi, g := range ov.Grids {
		t.Run(g.Name, func(t *testing.T) {
			golden(t, g.Name+".figures.json", g)
			type chart struct {
				*report.Chart
				Options json.RawMessage `json:"options"` // the initial one only
				Slices  int             `json:"slices"`
			}
			var cs []chart
			for _, c := range report.Charts(g, gi) {
				cs = append(cs, chart{c, c.Options[c.Initial], len(c.Options)})
			}
			golden(t, g.Name+".charts.json", cs)
		})
	}
}

func loadFake(t *testing.T, names ...string) *report.Overview {
	t.Helper()
	db, err := store.OpenReadOnly(fakeDB(t, names...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ov, err := report.Load(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return ov
}

// golden compares v, as indented JSON, with testdata/golden/name, or
// rewrites the file with -update.
func golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	report.GoldenFile(t, name, append(got, '\n'))
}
