package report

import "testing"

func TestScaleOf(t *testing.T) {
	tests := []struct {
		nums []float64
		want Scale
	}{
		{[]float64{1, 2}, ScaleLinear},
		{[]float64{50, 100, 150, 200}, ScaleLinear},
		{[]float64{0.1, 0.2, 0.3}, ScaleLinear},
		{[]float64{256, 512, 1024, 2048}, ScaleLog},
		{[]float64{50, 79, 126, 200, 317, 502, 796, 1262, 2000}, ScaleLog}, // log range rounded to µs
		{[]float64{0, 1, 2, 4, 8, 16}, ScaleCategory},
		{[]float64{50, 100, 150, 300, 600}, ScaleCategory},
	}
	for _, tt := range tests {
		if got := scaleOf(tt.nums); got != tt.want {
			t.Errorf("scaleOf(%v) = %s, want %s", tt.nums, got, tt.want)
		}
	}
}

func TestNumberText(t *testing.T) {
	for x, want := range map[float64]string{0: "0", 12.98: "12.98", 12.987: "12.99", 0.07213: "0.07213", 150: "150",
		1234567: "1.235e+06", 0.0001234: "0.0001234", -3.25: "-3.25"} {
		if got := numberText(x); got != want {
			t.Errorf("numberText(%v) = %q, want %q", x, got, want)
		}
	}
}

func TestNiceRange(t *testing.T) {
	for _, tt := range []struct{ lo, hi, wlo, whi float64 }{
		{2.167, 13.0, 2, 14},
		{9.589, 13.0, 9, 13},
		{0.005637, 1.155, 0, 1.2},
		{0.01, 0.02, 0.01, 0.02},
	} {
		if lo, hi := niceRange(tt.lo, tt.hi); lo != tt.wlo || hi != tt.whi {
			t.Errorf("niceRange(%v, %v) = %v, %v, want %v, %v", tt.lo, tt.hi, lo, hi, tt.wlo, tt.whi)
		}
	}
}
