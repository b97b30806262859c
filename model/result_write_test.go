package model_test

import (
	"bytes"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
)

// TestResultCSVIsLongFormAtIntervalEnds checks WriteCSV's documented
// layout on a hand-made result: a header, then per sample every flow in
// flow order, each sample stamped with the end of its interval (sample i
// covers (i·Sample, (i+1)·Sample]), numbers in their shortest exact form.
func TestResultCSVIsLongFormAtIntervalEnds(t *testing.T) {
	r := &model.Result{Sample: 250 * engine.Microsecond, Flows: []model.FlowResult{
		{Name: "F1", Gbps: []float64{13, 12.5, 1.0 / 3}},
		{Name: "F2", Gbps: []float64{0, 0.1, 1e-9}},
	}}
	var b bytes.Buffer
	if err := r.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "time_s,flow,throughput_gbps\n" +
		"0.00025,F1,13\n0.00025,F2,0\n" +
		"0.0005,F1,12.5\n0.0005,F2,0.1\n" +
		"0.00075,F1,0.3333333333333333\n0.00075,F2,0.000000001\n"
	if got := b.String(); got != want {
		t.Errorf("WriteCSV:\n%s\nwant\n%s", got, want)
	}
	// A run of apps only has no flows: the header alone.
	b.Reset()
	if err := (&model.Result{Sample: engine.Microsecond}).WriteCSV(&b); err != nil || b.String() != "time_s,flow,throughput_gbps\n" {
		t.Errorf("WriteCSV of a result with no flows: %q, %v; want the header alone", b.String(), err)
	}
	if got := (&model.Result{}).RefusedFlows(); got != nil {
		t.Errorf("RefusedFlows of a result with no flows = %v, want nil", got)
	}
}
