package store_test

import (
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/store"
)

// A flow's series without samples needs no sample interval (a run shorter
// than one sample has none): such a result is valid and stored, where a
// series with samples and no interval is refused (TestWriterRejectsInvalidResults).
func TestWriterAcceptsASeriesWithoutSamples(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(1, time.Hour)
	defer w.Close()
	r := doneResult("p1", testGrid.ID)
	r.Series = []store.Series{{Flow: "F1"}}
	if err := w.Write(r); err != nil {
		t.Fatalf("a series without samples: %v", err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if done, _ := counts(t, d); done != 1 {
		t.Errorf("%d results done, want 1", done)
	}
}
