package adaptive_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// TestCurrentInTellsAMissingDatabaseFromAnUnreadablePath: a merged
// database that does not exist yet is round 0 of the rounds; a path that
// cannot be looked at (here, under a regular file) is an error, so that a
// shard never runs round 0 again for want of its database.
func TestCurrentInTellsAMissingDatabaseFromAnUnreadablePath(t *testing.T) {
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	dir := t.TempDir()
	st, err := rounds.CurrentIn(context.Background(), filepath.Join(dir, "merged.db"))
	if err != nil || st.Round != 0 || st.Finished || len(st.Points) != 16 {
		t.Errorf("missing database: round %d, %d points, finished %v, err %v; want round 0 of the 16 grid points", st.Round, len(st.Points), st.Finished, err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := rounds.CurrentIn(context.Background(), filepath.Join(file, "merged.db")); err == nil {
		t.Error("a path under a regular file read as an empty database")
	}
}
