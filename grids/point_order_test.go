package grids_test

import (
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
)

// A point built by hand with its parameters out of order is the point of
// the same parameters in order: the same values, the same identity (a
// grid always sorts them; a hand-built point used to get another ID and
// lose the values a binary search could not find).
func TestPointOrderDoesNotMatter(t *testing.T) {
	sorted := grids.Point{Scenario: "testbed-s1", Seed: 3, Params: []grids.Param{
		{Name: "cc", Value: "on"}, {Name: "ccti_timer", Value: "300us"}, {Name: "marking_rate", Value: "4"}, {Name: "threshold", Value: "7"},
	}}
	shuffled := sorted
	shuffled.Params = []grids.Param{sorted.Params[3], sorted.Params[1], sorted.Params[0], sorted.Params[2]}
	for _, q := range sorted.Params {
		if v, ok := shuffled.Value(q.Name); !ok || v != q.Value {
			t.Errorf("Value(%s) = %q, %v; want %q", q.Name, v, ok, q.Value)
		}
	}
	if v, ok := shuffled.Value("sample"); ok {
		t.Errorf("Value(sample) = %q on a point that does not set it", v)
	}
	if got, want := grids.PointID(shuffled, model.Version), grids.PointID(sorted, model.Version); got != want {
		t.Errorf("PointID out of order %s, in order %s", got, want)
	}
	if got, want := grids.LegacyPointID(shuffled, model.Version), grids.LegacyPointID(sorted, model.Version); got != want {
		t.Errorf("LegacyPointID out of order %s, in order %s", got, want)
	}
	if shuffled.Params[0].Name != "threshold" {
		t.Error("PointID reordered the caller's parameters")
	}
	// And the identity still depends on the values.
	other := slices.Clone(shuffled.Params)
	other[1].Value = "200us"
	if grids.PointID(grids.Point{Scenario: "testbed-s1", Seed: 3, Params: other}, model.Version) == grids.PointID(sorted, model.Version) {
		t.Error("another ccti_timer has the same PointID")
	}
}
