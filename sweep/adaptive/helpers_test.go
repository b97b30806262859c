package adaptive_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// The helpers of sweep's tests that the tests of adaptive sweeps use.

func parse(t *testing.T, text string) *grids.Grid {
	t.Helper()
	g, err := grids.Parse("grid.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func openDB(t *testing.T, name string) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func export(t *testing.T, db *store.DB) string {
	t.Helper()
	var b bytes.Buffer
	if err := db.ExportCSV(context.Background(), &b, store.ExportOptions{Effective: sweep.EffectiveParams}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
