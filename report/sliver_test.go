package report

import (
	"encoding/json"
	"strings"
	"testing"
)

// sliverGrid is a 2 x 2 surface of victim_gbps whose cells hold vals.
func sliverGrid(vals ...float64) (*Grid, *Surface) {
	g := &Grid{Dims: []Dim{
		{Name: "ccti_timer", Unit: "µs", Values: []string{"100", "200"}, Nums: []float64{100, 200}},
		{Name: "marking_rate", Values: []string{"0", "4"}, Nums: []float64{0, 4}},
	}}
	for i, v := range vals {
		g.Cells = append(g.Cells, &Cell{Key: []string{g.Dims[0].Values[i%2], g.Dims[1].Values[i/2]},
			Status: CellDone, Seeds: 1, Done: 1, Mean: map[string]float64{"victim_gbps": v}, SD: map[string]float64{"victim_gbps": 0}})
	}
	return g, &Surface{X: 0, Y: 1, Slices: []*Slice{{Cells: [][]int{{0, 1}, {2, 3}}}}}
}

// TestSliverNote checks that a surface whose whole range is a few per
// cent of its mean (the fig11-14 contributors' 3.21-3.25 Gbit/s) says so
// on its 3D chart and its heat map, and that a surface with real relief
// does not.
func TestSliverNote(t *testing.T) {
	tests := []struct {
		name string
		vals []float64
		want string // a substring of the note; "" wants none
	}{
		// (3.25-3.21)/3.23 = 1.2 % of the mean.
		{"fig11-14 contributors", []float64{3.21, 3.22, 3.24, 3.25}, "All values lie within 3.21–3.25 Gbit/s, 1.2% of their mean 3.23"},
		{"real relief", []float64{2.2, 12.8, 2.2, 12.8}, ""},
		// Mean 100: a span of 4.9 is a sliver, 5.1 is not (sliverShare 5 %).
		{"just inside", []float64{97.55, 100, 100, 102.45}, "within 97.55–102.5 Gbit/s, 4.9%"},
		{"just outside", []float64{97.45, 100, 100, 102.55}, ""},
		{"flat", []float64{3.23, 3.23, 3.23, 3.23}, "Every point has 3.23 Gbit/s"},
		{"around zero", []float64{-0.01, 0.01, -0.01, 0.01}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, s := sliverGrid(tt.vals...)
			for _, opt := range []json.RawMessage{surfaceOption(g, s, s.Slices[0], "victim_gbps"), heatmapOption(g, s, s.Slices[0], "victim_gbps")} {
				var o struct {
					Title *struct{ Subtext string }
				}
				if err := json.Unmarshal(opt, &o); err != nil {
					t.Fatal(err)
				}
				switch {
				case tt.want == "" && o.Title != nil:
					t.Errorf("note %q on a surface with relief", o.Title.Subtext)
				case tt.want != "" && (o.Title == nil || !strings.Contains(o.Title.Subtext, tt.want)):
					t.Errorf("title %+v, want a note with %q", o.Title, tt.want)
				}
			}
		})
	}
}

// TestPageCellsDropOnlyUnshownSpreads checks that the page leaves out the
// spreads of cells with one done seed (the page shows a spread only over
// several) and keeps the others, without touching the grid's cells.
func TestPageCellsDropOnlyUnshownSpreads(t *testing.T) {
	one := &Cell{Done: 1, Mean: map[string]float64{"var": 1}, SD: map[string]float64{"var": 0}}
	two := &Cell{Done: 2, Mean: map[string]float64{"var": 1}, SD: map[string]float64{"var": 0.5}}
	tab := pageCells([]*Cell{one, two})
	if len(tab.Metrics) != 1 || tab.Metrics[0] != "var" {
		t.Fatalf("metrics %v, want [var]", tab.Metrics)
	}
	got := tab.Rows
	if got[0].SD != nil || *got[0].Mean[0] != 1 || one.SD == nil {
		t.Errorf("one seed: page cell %+v, grid cell %+v; want the spread left out of the page only", got[0], one)
	}
	if got[1].SD == nil || *got[1].SD[0] != 0.5 || *got[1].Mean[0] != 1 || two.SD["var"] != 0.5 {
		t.Errorf("two seeds: page cell %+v, grid cell %+v; want the spread kept", got[1], two)
	}
}

// TestSliverNoteOfAnAppMetric checks the note on a surface of an app
// metric, which the fixed metric table does not hold: its unit comes from
// the name's suffix (µs), and writing the note must not fail.
func TestSliverNoteOfAnAppMetric(t *testing.T) {
	const m = "pingpong_latency_mean_us"
	g, s := sliverGrid(0.90, 0.91, 0.92, 0.91)
	for _, c := range g.Cells {
		c.Mean = map[string]float64{m: c.Mean["victim_gbps"]}
		c.SD = map[string]float64{m: 0}
	}
	if metricOf(m) == nil {
		t.Fatalf("%s is not an app metric here; pick another name", m)
	}
	var o struct {
		Title *struct{ Subtext string }
	}
	if err := json.Unmarshal(surfaceOption(g, s, s.Slices[0], m), &o); err != nil {
		t.Fatal(err)
	}
	if want := "within 0.9–0.92 µs"; o.Title == nil || !strings.Contains(o.Title.Subtext, want) {
		t.Errorf("title %+v, want a note with %q", o.Title, want)
	}
}
