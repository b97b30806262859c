package store_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
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

// A stored series whose very first sample is not finite, or whose sampling
// interval is 0, is refused as not a ccsweep database.
func TestSeriesWithANonFiniteFirstSampleIsRefused(t *testing.T) {
	d, _ := newDB(t)
	w := d.NewWriter(1, time.Hour)
	r := doneResult("p1", testGrid.ID)
	r.Series = []store.Series{{Flow: "F1", SampleSeconds: 1e-3, Gbps: []float64{1, 2}}}
	if err := w.Write(r); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for i, gbps := range [][]float64{{math.Inf(1), 2}, {1, math.NaN()}} {
		if _, err := store.SQLDB(d).Exec("UPDATE series SET gbps = ?", store.EncodeSamples(gbps)); err != nil {
			t.Fatal(err)
		}
		_, err := d.Series(context.Background(), "p1")
		want := fmt.Sprintf("sample %d is %v", i, gbps[i])
		if !errors.Is(err, store.ErrNotDatabase) || !strings.Contains(err.Error(), want) {
			t.Errorf("series %v: %v; want ErrNotDatabase saying %q", gbps, err, want)
		}
	}
	if _, err := store.SQLDB(d).Exec("UPDATE series SET gbps = ?, sample_seconds = 0", store.EncodeSamples([]float64{1, 2})); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Series(context.Background(), "p1"); !errors.Is(err, store.ErrNotDatabase) || !strings.Contains(err.Error(), "sampling interval 0 s") {
		t.Errorf("a sampling interval of 0: %v; want ErrNotDatabase saying so", err)
	}
}

// TestMutAppMetricNameRule checks IsAppMetricName's documented rule:
// lowercase letters, digits and '_', starting with a letter, at most 128
// bytes, not a run metric's name. Kills result.go's `len(name) > 128`
// turned into `>=` (a name of exactly 128 bytes refused).
func TestMutAppMetricNameRule(t *testing.T) {
	for name, want := range map[string]bool{
		"ar_latency_us":          true,
		"a":                      true,
		"x9_":                    true,
		strings.Repeat("a", 128): true,
		strings.Repeat("a", 129): false,
		"":                       false,
		"9lives":                 false,
		"_x":                     false,
		"Ar":                     false,
		"a-b":                    false,
		"a b":                    false,
		"victim_gbps":            false, // a run metric
	} {
		if got := store.IsAppMetricName(name); got != want {
			t.Errorf("IsAppMetricName(%.20q, %d bytes) = %v, want %v", name, len(name), got, want)
		}
	}
}
