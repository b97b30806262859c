package params

import (
	"math"
	"testing"
)

// Tests written against the survivors of session 10's 300-mutant sampled
// mutation run of model (docs/testing.md, "Sampled runs"), for the code
// that has since moved to this package; each names the mutant it kills.

// TestMutFloatParamsAcceptTheirEnds checks every float parameter's range
// is inclusive, as its message "out of range MIN..MAX" says: MIN and MAX
// parse, the next float beyond either does not.
// Kills go's `f > p.Max` turned into `>=` for floats.
func TestMutFloatParamsAcceptTheirEnds(t *testing.T) {
	n := 0
	for _, p := range coreParams {
		if p.Kind != KindFloat || math.IsInf(p.Max, 0) || math.IsInf(p.Min, 0) {
			continue
		}
		n++
		for _, v := range []float64{p.Min, p.Max} {
			if _, err := p.Parse(v); err != nil {
				t.Errorf("%s = %v: %v", p.Name, v, err)
			}
		}
		for _, v := range []float64{math.Nextafter(p.Min, math.Inf(-1)), math.Nextafter(p.Max, math.Inf(1))} {
			if _, err := p.Parse(v); err == nil {
				t.Errorf("%s = %v accepted, outside %v..%v", p.Name, v, p.Min, p.Max)
			}
		}
	}
	if n == 0 {
		t.Fatal("no float parameter with finite ends")
	}
}
