package sweep_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// schemesGrid sweeps the congestion-control schemes against the switch
// buffer, with short phases.
const schemesGrid = `
name     = "schemes"
scenario = "testbed-s1"
phase    = "4ms"
sample   = "1ms"

[sweep]
cc                    = ["off", "ib", "santos", "nicrate", "drb"]
switch_buffer_credits = [99, 1024]
`

// TestSchemesGridRunsLikeAnyOther: a grid with cc as an axis over the five
// schemes runs with bit-identical metrics at -j 1 and -j 2, exports cc as
// a parameter column, and merges into a database that exports the same.
func TestSchemesGridRunsLikeAnyOther(t *testing.T) {
	g := parse(t, schemesGrid)
	dir := t.TempDir()
	paths := []string{filepath.Join(dir, "one.db"), filepath.Join(dir, "two.db")}
	var exports []string
	for i, workers := range []int{1, 2} {
		db, err := store.Open(paths[i])
		if err != nil {
			t.Fatal(err)
		}
		if s := runGrid(t, g, db, sweep.Options{Workers: workers}); s.Ran != 10 || s.Failed != 0 {
			t.Fatalf("-j %d: ran %d, failed %d; want 10, 0", workers, s.Ran, s.Failed)
		}
		exports = append(exports, export(t, db))
		db.Close()
	}
	if exports[0] != exports[1] {
		t.Fatalf("-j 1 and -j 2 differ:\n%s\n%s", exports[0], exports[1])
	}
	rows := strings.Split(strings.TrimSpace(exports[0]), "\n")
	head := strings.Split(rows[0], ",")
	cc := slices.Index(head, "cc")
	if cc < 0 || !slices.Contains(head, "share_error") || !slices.Contains(head, "refused_flows") {
		t.Fatalf("export header %v: want a cc column and the scheme metrics", head)
	}
	var schemes []string
	for _, row := range rows[1:] {
		if v := strings.Split(row, ",")[cc]; !slices.Contains(schemes, v) {
			schemes = append(schemes, v)
		}
	}
	slices.Sort(schemes)
	if want := []string{"drb", "nicrate", "off", "on", "santos"}; !slices.Equal(schemes, want) {
		t.Errorf("cc values %v, want %v", schemes, want)
	}
	merged := filepath.Join(dir, "merged.db")
	if err := store.Merge(context.Background(), merged, paths, false); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(merged)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := export(t, db); got != exports[0] {
		t.Errorf("merged export differs:\n%s\nwant\n%s", got, exports[0])
	}
}

// TestEffectiveParamsOfTheSchemeRun: a scheme's parameters have a value in
// the export only at the points that run that scheme.
func TestEffectiveParamsOfTheSchemeRun(t *testing.T) {
	for cc, want := range map[string]bool{"on": false, "off": false, "santos": true} {
		got := sweep.EffectiveParams("testbed-s1", model.Version, []store.Param{{Name: "cc", Value: cc}})
		if _, has := got["santos.m"]; has != want || got["threshold"] == "" {
			t.Errorf("cc %s: santos.m listed %v, want %v (threshold %q)", cc, has, want, got["threshold"])
		}
	}
}
