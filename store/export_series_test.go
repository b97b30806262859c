package store_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
)

// seriesDB holds two done points with series (one with a parameter the
// other lacks, flows of different lengths and sampling intervals) and a
// failed point, whose series an export must leave out.
func seriesDB(t *testing.T) *store.DB {
	t.Helper()
	d, _ := newDB(t)
	point := func(id string, seed uint64, params ...string) store.Result {
		r := store.Result{ID: id, GridID: testGrid.ID, Point: store.Point{Scenario: "testbed-s1", Seed: seed},
			Status: store.StatusDone, ModelVersion: "m1", Metrics: map[string]float64{"victim_gbps": 1}}
		for i := 0; i < len(params); i += 2 {
			r.Point.Params = append(r.Point.Params, store.Param{Name: params[i], Value: params[i+1]})
		}
		return r
	}
	a := point("pa", 1, "marking_rate", "10", "ccti_timer", "150us")
	a.Series = []store.Series{
		{Flow: "F2", Role: "contributor", SampleSeconds: 0.001, Gbps: []float64{0.1, 2.5, 3}},
		{Flow: "F1", Role: "victim", SampleSeconds: 0.001, Gbps: []float64{12.976128, 0}},
	}
	b := point("pb", 2, "marking_rate", "2")
	b.Series = []store.Series{{Flow: "H1->H2", Role: "background", SampleSeconds: 0.0005, Gbps: []float64{1, 2, 3}}}
	failed := point("pc", 1, "marking_rate", "3")
	failed.Status, failed.Err, failed.Metrics = store.StatusFailed, "deadlock", nil
	if err := d.SaveResults(t.Context(), []store.Result{a, b, failed}); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestExportSeriesCSV checks the long form row by row against what was
// stored: points in export order (marking_rate 2 before 10), a point's
// flows in stored order, times at the end of each interval as decimals,
// samples as the float32 they are stored as, in their shortest form
// (0.1, not 0.10000000149011612).
func TestExportSeriesCSV(t *testing.T) {
	d := seriesDB(t)
	var buf bytes.Buffer
	if err := d.ExportSeriesCSV(t.Context(), &buf, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `grid,grid_id,scenario,ccti_timer,marking_rate,seed,point,flow,role,time_s,gbps
fig11-14,grid-1,testbed-s1,,2,2,pb,H1->H2,background,0.0005,1
fig11-14,grid-1,testbed-s1,,2,2,pb,H1->H2,background,0.001,2
fig11-14,grid-1,testbed-s1,,2,2,pb,H1->H2,background,0.0015,3
fig11-14,grid-1,testbed-s1,150us,10,1,pa,F2,contributor,0.001,0.1
fig11-14,grid-1,testbed-s1,150us,10,1,pa,F2,contributor,0.002,2.5
fig11-14,grid-1,testbed-s1,150us,10,1,pa,F2,contributor,0.003,3
fig11-14,grid-1,testbed-s1,150us,10,1,pa,F1,victim,0.001,12.976128
fig11-14,grid-1,testbed-s1,150us,10,1,pa,F1,victim,0.002,0
`
	if buf.String() != want {
		t.Errorf("series CSV:\n%s\nwant:\n%s", buf.String(), want)
	}

	// Effective values fill a parameter a point does not set, as in
	// ExportCSV.
	buf.Reset()
	opt := store.ExportOptions{Effective: func(string, string, []store.Param) map[string]string {
		return map[string]string{"ccti_timer": "300us"}
	}}
	if err := d.ExportSeriesCSV(t.Context(), &buf, opt); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\nfig11-14,grid-1,testbed-s1,300us,2,2,pb,") {
		t.Errorf("the effective ccti_timer is not filled in:\n%s", buf.String())
	}
}

// TestExportSeriesJSONMatchesCSV checks that the JSON export holds the
// CSV's rows, key for key, numbers as numbers.
func TestExportSeriesJSONMatchesCSV(t *testing.T) {
	d := seriesDB(t)
	var c, j bytes.Buffer
	if err := d.ExportSeriesCSV(t.Context(), &c, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := d.ExportSeriesJSON(t.Context(), &j, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&j)
	dec.UseNumber()
	var objs []map[string]any
	if err := dec.Decode(&objs); err != nil {
		t.Fatalf("%v\n%s", err, j.String())
	}
	if len(objs) != len(records)-1 {
		t.Fatalf("%d JSON rows, %d CSV rows", len(objs), len(records)-1)
	}
	header := records[0]
	for i, o := range objs {
		for k, name := range header {
			cell := records[i+1][k]
			v, ok := o[name]
			switch {
			case cell == "" && ok:
				t.Errorf("row %d: %s = %v in JSON, empty in CSV", i, name, v)
			case cell == "":
			case !ok:
				t.Errorf("row %d: no %s in JSON (CSV %q)", i, name, cell)
			default:
				_, isNum := v.(json.Number)
				wantNum := name == "seed" || name == "time_s" || name == "gbps" || name == "marking_rate"
				if isNum != wantNum || (isNum && string(v.(json.Number)) != cell) || (!isNum && v != cell) {
					t.Errorf("row %d: %s = %#v in JSON, %q in CSV", i, name, v, cell)
				}
			}
		}
	}
	empty, _ := newDB(t)
	j.Reset()
	if err := empty.ExportSeriesJSON(t.Context(), &j, store.ExportOptions{}); err != nil || j.String() != "[]\n" {
		t.Errorf("empty database: %q, %v", j.String(), err)
	}
}

// TestExportSeriesStreams checks that a series export holds one point's
// series at a time: 40 points of two
// flows of 50 000 samples (32 MB as float64) export into a writer that
// fails after 2 MB, with the heap a few MB above where it started.
func TestExportSeriesStreams(t *testing.T) {
	d, _ := newDB(t)
	gbps := make([]float64, 50_000)
	for i := range gbps {
		gbps[i] = float64(i % 7)
	}
	var rs []store.Result
	for i := range 40 {
		r := store.Result{ID: fmt.Sprintf("p%02d", i), GridID: testGrid.ID, Point: store.Point{Scenario: "testbed-s1", Seed: uint64(i)},
			Status: store.StatusDone, ModelVersion: "m1", Metrics: map[string]float64{"victim_gbps": 1},
			Series: []store.Series{{Flow: "F1", Role: "victim", SampleSeconds: 0.001, Gbps: gbps},
				{Flow: "F2", Role: "contributor", SampleSeconds: 0.001, Gbps: gbps}}}
		rs = append(rs, r)
	}
	if err := d.SaveResults(t.Context(), rs); err != nil {
		t.Fatal(err)
	}
	rs, gbps = nil, nil
	for _, format := range []string{"csv", "json"} {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		w := &peakWriter{limit: 2 << 20}
		export := d.ExportSeriesCSV
		if format == "json" {
			export = d.ExportSeriesJSON
		}
		if err := export(t.Context(), w, store.ExportOptions{}); !errors.Is(err, errFull) {
			t.Fatalf("%s: %v, want the writer's error", format, err)
		}
		if grew := w.peak - int64(before.HeapAlloc); grew > 12<<20 {
			t.Errorf("%s: the heap grew by %d MB before 2 MB were written: the export does not stream", format, grew>>20)
		}
	}
}

var errFull = errors.New("writer full")

// peakWriter fails once limit bytes are written and notes the largest
// heap at any write.
type peakWriter struct {
	limit, written int64
	peak           int64
}

func (w *peakWriter) Write(p []byte) (int, error) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	w.peak = max(w.peak, int64(m.HeapAlloc))
	if w.written >= w.limit {
		return 0, errFull
	}
	w.written += int64(len(p))
	return len(p), nil
}

// TestExportSeriesTimes checks that sample times print as the decimals
// they are: the k-th sample of a 100 µs interval ends at k/10 000 s (k
// times 1e-4 in floating point would print 0.00030000000000000003).
func TestExportSeriesTimes(t *testing.T) {
	d, _ := newDB(t)
	r := store.Result{ID: "p", GridID: testGrid.ID, Point: store.Point{Scenario: "testbed-s1", Seed: 1},
		Status: store.StatusDone, ModelVersion: "m1", Metrics: map[string]float64{"victim_gbps": 1},
		Series: []store.Series{{Flow: "F1", Role: "victim", SampleSeconds: 1e-4, Gbps: make([]float64, 40)}}}
	if err := d.SaveResults(t.Context(), []store.Result{r}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := d.ExportSeriesCSV(t.Context(), &buf, store.ExportOptions{}); err != nil {
		t.Fatal(err)
	}
	records, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(records) != 41 {
		t.Fatalf("%d records, %v", len(records), err)
	}
	for k := 1; k <= 40; k++ {
		if got, want := records[k][len(records[k])-2], fmt.Sprintf("0.%04d", k); strings.TrimRight(got, "0") != strings.TrimRight(want, "0") {
			t.Errorf("sample %d ends at %s, want %s", k, got, want)
		}
	}
}
