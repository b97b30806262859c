package store_test

import (
	"bytes"
	"compress/flate"
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

func TestSamplesRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		gbps []float64
	}{
		{"empty", nil},
		{"one", []float64{13}},
		{"float32 rounding", []float64{0.1, 3.2, 12.999999999, 1e-9, 123456789}},
		{"special", []float64{0, math.Copysign(0, -1), -1.5, math.Inf(1), math.Inf(-1), math.NaN()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := store.DecodeSamples(store.EncodeSamples(tc.gbps))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.gbps) {
				t.Fatalf("decoded %d samples, want %d", len(got), len(tc.gbps))
			}
			for i, v := range tc.gbps {
				want := float64(float32(v))
				if math.Float64bits(got[i]) != math.Float64bits(want) {
					t.Errorf("sample %d: got %v, want float32(%v) = %v", i, got[i], v, want)
				}
				if v != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) && math.Abs(got[i]-v)/math.Abs(v) > 6e-8 {
					t.Errorf("sample %d: relative error of %v vs %v above 6e-8", i, got[i], v)
				}
			}
		})
	}
}

func TestEncodeSamplesCompresses(t *testing.T) {
	// Delivered bytes come in whole packets, so throughput samples repeat.
	gbps := make([]float64, 5000)
	for i := range gbps {
		gbps[i] = []float64{3.2768, 3.1457, 3.4079}[i%3]
	}
	if n := len(store.EncodeSamples(gbps)); n > len(gbps)*4/10 {
		t.Errorf("encoded %d samples in %d bytes, want at most a tenth of %d", len(gbps), n, 4*len(gbps))
	}
}

func TestDecodeSamplesErrors(t *testing.T) {
	valid := store.EncodeSamples([]float64{1, 2, 3})
	for _, tc := range []struct {
		name string
		blob []byte
	}{
		{"garbage", []byte("not deflate at all")},
		{"truncated", valid[:len(valid)/2]},
		{"empty", nil},
		{"partial sample", deflate(t, []byte{1, 2, 3, 4, 5, 6})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := store.DecodeSamples(tc.blob); err == nil {
				t.Errorf("decoded %v without error", got)
			}
		})
	}
}

func deflate(t *testing.T, b []byte) []byte {
	var buf bytes.Buffer
	zw, err := flate.NewWriter(&buf, flate.BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func FuzzDecodeSamples(f *testing.F) {
	f.Add(store.EncodeSamples([]float64{1, 2, 3}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, blob []byte) {
		gbps, err := store.DecodeSamples(blob)
		if err != nil {
			return
		}
		again, err := store.DecodeSamples(store.EncodeSamples(gbps))
		if err != nil || len(again) != len(gbps) {
			t.Fatalf("re-encoding %d samples gave %d, %v", len(gbps), len(again), err)
		}
	})
}
