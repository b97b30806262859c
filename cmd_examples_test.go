package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestEveryExampleDryRuns: `ccsweep run --dry-run` counts the points of
// every grid under examples/ and estimates their cost without error and
// without writing a database (the estimate is printed rounded to whole
// core-seconds: a small grid's may be 0). The
// estimate runs each grid's first point with 10 ms phases; the apps of
// hpcc.toml and training-allreduce.toml do not finish in those, which is
// no error for the estimate.
func TestEveryExampleDryRuns(t *testing.T) {
	grids, err := filepath.Glob(filepath.Join("examples", "*.toml"))
	if err != nil || len(grids) == 0 {
		t.Fatalf("examples: %v, %v", grids, err)
	}
	estimate := regexp.MustCompile(`estimated cost: [0-9]+ core-seconds`)
	dir := t.TempDir()
	for _, g := range grids {
		db := filepath.Join(dir, filepath.Base(g)+".db")
		out, stderr, code := ccsweep(t, "run", g, "--dry-run", "--db", db)
		if code != 0 || !estimate.MatchString(out) {
			t.Errorf("%s: exit %d\n%s%s", g, code, out, stderr)
		}
		if _, err := os.Stat(db); !os.IsNotExist(err) {
			t.Errorf("%s: the dry run left %s (%v)", g, db, err)
		}
	}
}
