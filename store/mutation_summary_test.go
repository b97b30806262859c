package store_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// Tests written against the survivors of the sampled mutation run of
// store (docs/testing.md, "Sampled runs") in summary.go.

// exactDev is sqrt(Σ(x−mean)²/div) computed in exact rational arithmetic
// from the float64 values, then rounded once: on the values divided by the
// largest magnitude, so that the square of a deviation near MaxFloat64
// does not overflow the final conversion.
func exactDev(xs []float64, div float64) float64 {
	scale := 0.0
	for _, x := range xs {
		scale = max(scale, math.Abs(x))
	}
	s := new(big.Rat).SetFloat64(scale)
	n := new(big.Rat).SetInt64(int64(len(xs)))
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, new(big.Rat).SetFloat64(x))
	}
	mean := new(big.Rat).Quo(sum, n)
	ss := new(big.Rat)
	for _, x := range xs {
		d := new(big.Rat).Sub(new(big.Rat).SetFloat64(x), mean)
		d.Quo(d, s)
		ss.Add(ss, d.Mul(d, d))
	}
	ss.Quo(ss, new(big.Rat).SetFloat64(div))
	v, _ := ss.Float64()
	return math.Sqrt(v) * scale
}

// TestMutMeanDevIsAccurateFarFromZero checks MeanDev's deviation where
// the values are large and their spread small: it subtracts the mean
// before squaring, so it is exact to rounding, where Σx² − n·mean² loses
// every digit (x² near 1e16 has an ulp of 2, the sum of squared
// deviations here is 0.05). The second case goes through the scaled path
// for values near MaxFloat64, whose spread is 7e-12 of the values (there
// the mean of the scaled values is not exact, and a product of sums
// instead of a square is off by 2e-5).
func TestMutMeanDevIsAccurateFarFromZero(t *testing.T) {
	big1 := math.MaxFloat64
	big2 := big1 * (1 - 1e-12)
	big3 := big1 * (1 - 7e-12)
	cases := []struct {
		name string
		xs   []float64
		div  float64
	}{
		{"1e8 plus tenths", []float64{1e8 + 0.1, 1e8 + 0.2, 1e8 + 0.3, 1e8 + 0.4}, 3},
		{"near MaxFloat64", []float64{big1, big2, big3}, 2},
	}
	for _, c := range cases {
		_, dev := store.MeanDev(c.xs, c.div)
		want := exactDev(c.xs, c.div)
		if math.IsInf(want, 0) || !(math.Abs(dev-want) <= 1e-9*want) {
			t.Errorf("%s: MeanDev(%v, %v) deviation %v, want %v", c.name, c.xs, c.div, dev, want)
		}
	}
}
