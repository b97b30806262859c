package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

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
	got = append(got, '\n')
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from what the report computes; run go test ./report -run Golden -update and review the diff\n%s",
			path, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	wl, gl := bytes.Split([]byte(want), []byte("\n")), bytes.Split([]byte(got), []byte("\n"))
	for i := 0; i < len(wl) || i < len(gl); i++ {
		var w, g []byte
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if !bytes.Equal(w, g) {
			return "line " + strconv.Itoa(i+1) + ":\n  want " + string(w) + "\n  got  " + string(g)
		}
	}
	return ""
}
