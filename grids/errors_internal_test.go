package grids

import (
	"testing"

	"github.com/ccsweep/ccsweep/model/params"
)

// A step range has at most MaxAxisValues values: exactly that many are
// returned, one more is refused with the count. Called directly: a grid
// of a million values takes tens of seconds to parse. The step is a power
// of two, so that the ends are exact.
func TestStepRangeValueLimit(t *testing.T) {
	p := params.LookupParam("hca_msg_rate")
	step := &node{val: 0.0078125, line: 3}
	ps := &problems{file: "g.toml"}
	raw, ok := stepRange(ps, "sweep.hca_msg_rate", p, 0.0, 7812.4921875, step) // 999999 steps
	if !ok || len(raw) != MaxAxisValues || len(ps.list) != 0 {
		t.Fatalf("%d values, %v, %v; want %d", len(raw), ok, ps.list, MaxAxisValues)
	}
	if raw[len(raw)-1] != 7812.4921875 {
		t.Errorf("last value %v, want 7812.4921875", raw[len(raw)-1])
	}
	raw, ok = stepRange(ps, "sweep.hca_msg_rate", p, 0.0, 7812.5, step)
	want := "step 0.0078125 gives 1000001 values, more than the limit of 1000000"
	if ok || raw != nil || len(ps.list) != 1 || ps.list[0].Msg != want {
		t.Errorf("%d values: %v, %v, want %q", MaxAxisValues+1, ok, ps.list, want)
	}
}
