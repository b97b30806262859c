package store_test

import (
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// TestGridResultsSelectByIdentity checks DB.GridResults and GridCounts on a
// database where grid 1 ran points grid 2 also lists: grid 2's view holds
// every member found under its ID, or else its legacy ID, once and spelt
// as the member spells it; its own other points (refinement's); not a
// legacy twin of a member found under its ID; not a point only grid 1
// lists.
func TestGridResultsSelectByIdentity(t *testing.T) {
	d, _ := newDB(t)
	ctx := t.Context()
	two := testGrid
	two.ID, two.Name = "grid-2", "two"
	if err := d.SaveGrid(ctx, two); err != nil {
		t.Fatal(err)
	}
	failed := doneResult("a2", testGrid.ID)
	failed.Status, failed.Err, failed.Metrics = store.StatusFailed, "boom", nil
	rs := []store.Result{
		doneResult("a1", testGrid.ID), // grid 1 ran it; grid 2 lists it
		failed,                        // grid 1's, failed; grid 2 lists it under its legacy ID
		doneResult("only1", testGrid.ID),
		doneResult("n3", two.ID),    // grid 2's point under its ID...
		doneResult("L3", two.ID),    // ...and under its legacy ID: one point
		doneResult("added", two.ID), // refinement's: no member
	}
	if err := d.SaveResults(ctx, rs); err != nil {
		t.Fatal(err)
	}
	spelt := []store.Param{{Name: "marking_rate", Value: "1"}, {Name: "threshold", Value: "15"}}
	members := func(yield func(store.Member) bool) {
		for _, m := range []store.Member{
			{ID: "a1", Params: spelt},
			{ID: "n3", LegacyID: "L3"},
			{ID: "a1"}, // a second sub-grid listing it
			{ID: "missing"},
			{ID: "n4", LegacyID: "a2", Params: spelt},
		} {
			if !yield(m) {
				return
			}
		}
	}
	for _, tc := range []struct {
		status string
		want   []string
	}{
		{"", []string{"a1", "a2", "added", "n3"}},
		{store.StatusDone, []string{"a1", "added", "n3"}},
		{store.StatusFailed, []string{"a2"}},
	} {
		got, err := d.GridResults(ctx, two.ID, tc.status, members)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, r.ID)
			if r.GridID != two.ID {
				t.Errorf("status %q: %s has grid %q, want %q", tc.status, r.ID, r.GridID, two.ID)
			}
			if (r.ID == "a1" || r.ID == "a2") && !slices.Equal(r.Point.Params, spelt) {
				t.Errorf("status %q: %s has params %v, want the member's %v", tc.status, r.ID, r.Point.Params, spelt)
			}
		}
		slices.Sort(ids)
		if !slices.Equal(ids, tc.want) {
			t.Errorf("status %q: GridResults = %v, want %v", tc.status, ids, tc.want)
		}
	}
	done, nFailed, err := d.GridCounts(ctx, two.ID, members)
	if err != nil {
		t.Fatal(err)
	}
	if done != 3 || nFailed != 1 {
		t.Errorf("GridCounts = %d done, %d failed; want 3, 1", done, nFailed)
	}

	// A database of one grid that ran a point under both identities: the
	// twins count once, and so are read once.
	one, _ := newDB(t)
	if err := one.SaveResults(ctx, []store.Result{doneResult("n3", testGrid.ID), doneResult("L3", testGrid.ID), doneResult("k", testGrid.ID)}); err != nil {
		t.Fatal(err)
	}
	own := func(yield func(store.Member) bool) {
		_ = yield(store.Member{ID: "n3", LegacyID: "L3"}) && yield(store.Member{ID: "k"})
	}
	if done, nFailed, err := one.GridCounts(ctx, testGrid.ID, own); err != nil || done != 2 || nFailed != 0 {
		t.Errorf("one grid with twins: GridCounts = %d done, %d failed, %v; want 2, 0", done, nFailed, err)
	}
	if got, err := one.GridResults(ctx, testGrid.ID, "", own); err != nil || len(got) != 2 {
		t.Errorf("one grid with twins: GridResults = %d results, %v; want 2", len(got), err)
	}
}
