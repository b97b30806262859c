package report

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/store"
)

// A series whose point's rest is a list cannot be packed (the page could
// not tell it from several values): it is left as it is.
func TestGridSeriesLeavesAListRest(t *testing.T) {
	option := json.RawMessage(`{"series":[{"data":[[0,0,[1]],[1,0,[2]]]}]}`)
	if got := gridSeries(option); string(got) != string(option) {
		t.Fatalf("packed %s", got)
	}
	packed := json.RawMessage(`{"series":[{"data":[[0,0,1],[1,0,2]]}]}`)
	if got := gridSeries(packed); string(got) == string(packed) {
		t.Fatal("a plain series was not packed: the test's premise")
	}
}

func TestRoundDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1234567890 * time.Nanosecond: "1.23s",
		61400 * time.Millisecond:     "1m1s",
		12345678 * time.Nanosecond:   "12ms",
	} {
		if got := roundDuration(d); got != want {
			t.Errorf("roundDuration(%v) = %s, want %s", d, got, want)
		}
	}
}

func TestSummarizeElidesFromNine(t *testing.T) {
	vals := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}
	if got := summarize(vals[:8]); got != "1, 2, 3, 4, 5, 6, 7, 8" {
		t.Errorf("eight values: %s", got)
	}
	if got := summarize(vals); got != "1, 2, 3, … 9 (9 values)" {
		t.Errorf("nine values: %s", got)
	}
}

// The page's cell table marks a parameter a cell does not have as -1.
func TestPageCellsMarkAbsentParameters(t *testing.T) {
	tab := pageCells([]*Cell{
		{Params: []store.Param{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}}},
		{Params: []store.Param{{Name: "a", Value: "3"}}},
	})
	if !slices.Equal(tab.Params, []string{"a", "b"}) || !slices.Equal(tab.Rows[0].Params, []int{0, 0}) || !slices.Equal(tab.Rows[1].Params, []int{1, -1}) {
		t.Fatalf("params %v, rows %v %v", tab.Params, tab.Rows[0].Params, tab.Rows[1].Params)
	}
}
