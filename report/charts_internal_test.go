package report

import (
	"encoding/json"
	"strings"
	"testing"
)

// A surface of one value everywhere gets a range of one around it.
func TestMetricRangeOfOneValue(t *testing.T) {
	g, s := sliverGrid(3, 3, 3, 3)
	if lo, hi := metricRange(g, s, "victim_gbps"); lo != 2.5 || hi != 3.5 {
		t.Fatalf("range %g..%g, want 2.5..3.5", lo, hi)
	}
	if lo, hi := metricRange(g, s, "var"); lo != 0 || hi != 1 {
		t.Fatalf("range of a metric no cell has: %g..%g, want 0..1", lo, hi)
	}
}

// hoistCommon moves what every option shares into Common, once.
func TestHoistCommon(t *testing.T) {
	c := &Chart{Options: []json.RawMessage{json.RawMessage(`{"axis":1,"data":[1]}`), json.RawMessage(`{"axis":1,"data":[2]}`)}}
	hoistCommon(c)
	if string(c.Common) != `{"axis":1}` || string(c.Options[0]) != `{"data":[1]}` || string(c.Options[1]) != `{"data":[2]}` {
		t.Fatalf("common %s, options %s", c.Common, c.Options)
	}
}

// The 3D surface plots every cell's value, the grid's first too.
func TestSurfacePlotsTheFirstCell(t *testing.T) {
	g, s := sliverGrid(1.5, 2, 3, 4)
	if surf := string(surfaceOption(g, s, s.Slices[0], "victim_gbps")); !strings.Contains(surf, ",1.5]") {
		t.Fatalf("no value 1.5 of cell 0: %s", surf)
	}
}

// A flat colour scale keeps two decimals.
func TestPrecisionOfAFlatScale(t *testing.T) {
	for _, tt := range []struct {
		lo, hi float64
		want   int
	}{{3, 3, 2}, {0, 0.05, 4}, {0, 500, 0}} {
		if got := precision(tt.lo, tt.hi); got != tt.want {
			t.Errorf("precision(%g, %g) = %d, want %d", tt.lo, tt.hi, got, tt.want)
		}
	}
}
