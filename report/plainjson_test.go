package report

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"
)

// lineWith returns a line chart of the report's kind whose data points
// hold the given values, with axis options set.
func lineWith(vals ...float64) *charts.Line {
	c := charts.NewLine()
	c.SetGlobalOptions(
		charts.WithXAxisOpts(opts.XAxis{Name: "ccti_timer (µs)", Type: "value", Min: 0}),
		charts.WithYAxisOpts(opts.YAxis{Name: "victim_gbps", Type: "value"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true)}),
	)
	var data []opts.LineData
	for i, v := range vals {
		data = append(data, opts.LineData{Value: []any{float64(i), v}})
	}
	c.AddSeries("mean", data, charts.WithLineChartOpts(opts.LineChart{Smooth: opts.Bool(false)}))
	return c
}

// TestOptionOfNonFiniteIsNull checks that a chart option holding NaN or an
// infinity, in the chart's data or in what optionOf merges in, comes out
// as valid JSON with null in those places and every finite value intact,
// instead of a panic.
func TestOptionOfNonFiniteIsNull(t *testing.T) {
	var out json.RawMessage
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("optionOf panicked on a non-finite number: %v", r)
			}
		}()
		out = optionOf(lineWith(1.5, math.NaN(), math.Inf(1), math.Inf(-1), 2.5),
			map[string]any{"series": []any{map[string]any{"markLine": map[string]any{"data": []any{map[string]any{"yAxis": math.Inf(1)}}}}}})
	}()
	if !json.Valid(out) {
		t.Fatalf("option is not JSON: %s", out)
	}
	var got struct {
		Series []struct {
			Data []struct {
				Value []*float64 `json:"value"`
			} `json:"data"`
			MarkLine struct {
				Data []map[string]*float64 `json:"data"`
			} `json:"markLine"`
		} `json:"series"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Series) != 1 || len(got.Series[0].Data) != 5 {
		t.Fatalf("option lost its series or points: %s", out)
	}
	want := []*float64{ptr(1.5), nil, nil, nil, ptr(2.5)}
	for i, d := range got.Series[0].Data {
		if len(d.Value) != 2 || d.Value[0] == nil || *d.Value[0] != float64(i) {
			t.Errorf("point %d: x = %v, want %d", i, d.Value, i)
			continue
		}
		if (d.Value[1] == nil) != (want[i] == nil) || (want[i] != nil && *d.Value[1] != *want[i]) {
			t.Errorf("point %d: y = %v, want %v", i, deref(d.Value[1]), deref(want[i]))
		}
	}
	if ml := got.Series[0].MarkLine.Data; len(ml) != 1 || ml[0]["yAxis"] != nil {
		t.Errorf("the merged markLine's infinite yAxis should be null: %s", out)
	}
	if !strings.Contains(string(out), `"animation":false`) {
		t.Errorf("optionOf's own settings are lost on the non-finite path: %s", out)
	}
}

// TestMarshalFiniteMatchesEncodingJSON checks the non-finite path against
// encoding/json itself: on options that json.Marshal accepts, the plain
// values marshalFinite falls back to marshal to the same JSON values (struct tags,
// omitempty, embedded structs, float32 and Marshalers alike), so a chart
// with one infinite number differs from its finite twin only there.
func TestMarshalFiniteMatchesEncodingJSON(t *testing.T) {
	type inner struct {
		A float32 `json:"a"`
		B string  `json:"b,omitempty"`
	}
	type Embedded struct {
		E int `json:"e"`
	}
	type outer struct {
		Embedded
		Name    string          `json:"name"`
		Skip    int             `json:"-"`
		Empty   []int           `json:"empty,omitempty"`
		Nil     *inner          `json:"nil"`
		In      inner           `json:"in"`
		Plain   int             // no tag: the field's name
		Map     map[string]any  `json:"map"`
		Raw     json.RawMessage `json:"raw"`
		Bytes   []byte          `json:"bytes"`
		Arr     [2]float64      `json:"arr"`
		Marsh   map[int]shout   `json:"marsh"`
		private int
	}
	v := outer{Embedded: Embedded{7}, Name: "x", Skip: 3, In: inner{A: 0.1}, Plain: 4,
		Map: map[string]any{"k": []any{1.25, "s", nil, true}}, Raw: json.RawMessage(`{"r":1}`),
		Bytes: []byte("hi"), Arr: [2]float64{1e-7, 3}, Marsh: map[int]shout{1: "yes"}, private: 1}
	for _, c := range []any{v, lineWith(1, 2, 3).JSON()} {
		want, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(plainJSON(reflect.ValueOf(c)))
		if err != nil {
			t.Fatal(err)
		}
		var g, w any
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &w); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) { // a struct's keys come out sorted, as optionOf's anyway do
			t.Errorf("plain values marshal to\n%s\nencoding/json gives\n%s", got, want)
		}
	}
}

// shout is a json.Marshaler: it writes itself in capitals.
type shout string

func (s shout) MarshalJSON() ([]byte, error) { return json.Marshal(strings.ToUpper(string(s))) }

func ptr(v float64) *float64 { return &v }

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
