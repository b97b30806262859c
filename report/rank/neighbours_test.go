package rank_test

import (
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/report/rank"
)

// SortValues sorts numbers by value, "" first.
func TestSortValuesNumericWithUnset(t *testing.T) {
	vals := []string{"10us", "", "9us", "100us"}
	rank.SortValues("ccti_timer", vals)
	if want := []string{"", "9us", "10us", "100us"}; !slices.Equal(vals, want) {
		t.Errorf("SortValues(ccti_timer) = %q, want %q", vals, want)
	}
	vals = []string{"b", "", "a"}
	rank.SortValues("scenario", vals)
	if want := []string{"", "a", "b"}; !slices.Equal(vals, want) {
		t.Errorf("SortValues(scenario) = %q, want %q", vals, want)
	}
}
