package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// shardGrid is a small grid whose points differ from each other and from
// seed to seed (random marking), so that a point stored under the wrong
// identity would change the export.
const shardGrid = `
name     = "shards"
scenario = "testbed-s1"
cc       = "on"
phase    = "3ms"
sample   = "1ms"
seeds    = 2

[base]
marking_mode = "random"

[sweep]
ccti_timer   = ["100us", "400us"]
marking_rate = [0, 2, 8]
`

// runInto runs grid (or shard of it, if not empty) into db in this process.
func runInto(t *testing.T, grid, db, shard string) {
	t.Helper()
	args := []string{"run", grid, "--db", db, "-j", "2", "--quiet"}
	if shard != "" {
		args = append(args, "--shard", shard)
	}
	out, stderr, code := ccsweep(t, args...)
	if code != 0 {
		t.Fatalf("ccsweep %s: exit %d\n%s%s", strings.Join(args, " "), code, out, stderr)
	}
}

func export(t *testing.T, db string, format string) string {
	t.Helper()
	out, stderr, code := ccsweep(t, "export", db, "--format", format)
	if code != 0 {
		t.Fatalf("export %s: exit %d: %s", db, code, stderr)
	}
	return out
}

func TestMergedShardsExportLikeOneRun(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	dir := filepath.Dir(grid)
	one := filepath.Join(dir, "one.db")
	runInto(t, grid, one, "")
	var shards []string
	for i := 1; i <= 3; i++ {
		s := filepath.Join(dir, fmt.Sprintf("shard-%d.db", i))
		runInto(t, grid, s, fmt.Sprintf("%d/3", i))
		shards = append(shards, s)
	}
	merged := filepath.Join(dir, "merged.db")
	out, stderr, code := ccsweep(t, append([]string{"merge", merged}, shards...)...)
	if code != 0 || !strings.Contains(out, "merged 3 databases into "+merged+": 12 points done, 0 failed") {
		t.Fatalf("merge: exit %d\n%s%s", code, out, stderr)
	}
	for _, format := range []string{"csv", "json"} {
		t.Run(format, func(t *testing.T) {
			if got, want := export(t, merged, format), export(t, one, format); got != want {
				t.Fatalf("%s export of the merged shards differs from one run's:\n%s\nwant\n%s", format, got, want)
			}
		})
	}
	checkDatabase(t, merged, 12)

	// Merging again, or adding the single run's copies of the same points,
	// changes nothing.
	before := export(t, merged, "json")
	for _, tc := range []struct {
		name string
		srcs []string
	}{{"the shards", shards}, {"the single run", []string{one}}, {"itself and a shard", []string{merged, shards[0]}}} {
		t.Run("again "+tc.name, func(t *testing.T) {
			if _, stderr, code := ccsweep(t, append([]string{"merge", merged}, tc.srcs...)...); code != 0 {
				t.Fatalf("merge %v again: exit %d: %s", tc.srcs, code, stderr)
			}
			if got := export(t, merged, "json"); got != before {
				t.Fatalf("merging %v again changed the export", tc.srcs)
			}
			checkDatabase(t, merged, 12)
		})
	}
}

func TestMergeRefusesOtherGridsUnlessForced(t *testing.T) {
	grid := writeGrid(t, shardGrid)
	dir := filepath.Dir(grid)
	other := filepath.Join(dir, "other.toml")
	os.WriteFile(other, []byte(strings.Replace(shardGrid, `"100us", "400us"`, `"200us"`, 1)), 0o644)
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	runInto(t, grid, a, "")
	runInto(t, other, b, "")
	before := export(t, a, "csv")

	_, stderr, code := ccsweep(t, "merge", a, b)
	if code != 2 || !strings.Contains(stderr, "2 grids") || !strings.Contains(stderr, "--force") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("merging two grids: exit %d, stderr %q; want exit 2 and one sentence naming --force", code, stderr)
	}
	if export(t, a, "csv") != before {
		t.Fatal("a refused merge changed the output database")
	}
	out, stderr, code := ccsweep(t, "merge", a, b, "--force")
	if code != 0 || !strings.Contains(out, "18 points done") {
		t.Fatalf("forced merge: exit %d\n%s%s", code, out, stderr)
	}
}

func TestMergeBadInputExitsTwoAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	grid := writeGrid(t, shardGrid)
	good := filepath.Join(filepath.Dir(grid), "good.db")
	runInto(t, grid, good, "1/4")
	notDB := filepath.Join(dir, "notes.db")
	os.WriteFile(notDB, []byte(strings.Repeat("not a database ", 100)), 0o644)
	out := filepath.Join(dir, "out.db")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no inputs", []string{"merge", out}, "at least one input database"},
		{"nothing", []string{"merge"}, "at least one input database"},
		{"missing input", []string{"merge", out, good, filepath.Join(dir, "missing.db")}, "missing.db: no such database"},
		{"directory input", []string{"merge", out, dir}, "not a database file"},
		{"not a database", []string{"merge", out, good, notDB}, "notes.db"},
		{"output in a missing directory", []string{"merge", filepath.Join(dir, "no", "out.db"), good}, "does not exist"},
		{"output not a database", []string{"merge", notDB, good}, "not a ccsweep database"},
		{"unknown flag", []string{"merge", out, good, "--frce"}, "frce"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := ccsweep(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, tt.want) || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want exit 2 and one line with %q", code, stderr, tt.want)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() != "notes.db" {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}
