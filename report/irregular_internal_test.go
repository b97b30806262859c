package report

import (
	"math"
	"testing"
)

// idw weighs the nearest samples by their inverse squared distance.
func TestIDW(t *testing.T) {
	known := []sample{{0, 0, 0}, {1, 0, 10}}
	// Distances 0.25 and 0.75: weights 16 and 16/9, so 10·(16/9)/(16+16/9) = 1.
	if got := idw(known, 0.25, 0); math.Abs(got-1) > 1e-12 {
		t.Fatalf("idw = %g, want 1", got)
	}
	if got := idw(known, 1, 0); got != 10 {
		t.Fatalf("idw at a sample = %g, want its value", got)
	}
}

// idw's distance counts both coordinates.
func TestIDWAcrossBothAxes(t *testing.T) {
	known := []sample{{0, 0, 0}, {0, 1, 10}}
	if got := idw(known, 0, 0.25); math.Abs(got-1) > 1e-12 {
		t.Fatalf("idw = %g, want 1", got)
	}
}
