package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// Tests written against the survivors of gremlins runs on model's CC files
// (docs/testing.md, "Mutation testing"): transport.go.

// TestMutPacedGapAtAPacketsOwnTime checks the edge of paced_read aside
// (docs/model.md, "What the hardware adds"; transport.go's pacedGap): a
// paced QP whose IRD is at most its packet's own time reads its next
// payload ahead and waits its IRD only; one whose IRD exceeds it by a
// picosecond waits the read round trip, paced_read_latency (2.5 µs). At
// CCTI 5 on the testbed's CCT the IRD is ⌊7e6·25/106²⌋ = 15 574 ps. Under
// paced_read all even an IRD below the own time waits the round trip, and
// an unpaced QP (CCTI 0) waits nothing.
func TestMutPacedGapAtAPacketsOwnTime(t *testing.T) {
	const ird = 15574
	lat := 2500 * engine.Nanosecond
	for _, c := range []struct {
		read      string
		ccti      int32
		own, want engine.Time
	}{
		{"aside", 5, ird, ird},
		{"aside", 5, ird + 1, ird},
		{"aside", 5, ird - 1, lat},
		{"all", 5, ird, lat},
		{"all", 5, 10 * ird, lat},
		{"aside", 0, ird, 0},
	} {
		n := ccNetwork(t, map[string]any{"paced_read": c.read, "paced_read_latency": lat})
		f := &n.flows[0]
		n.setCCTI(f.cc.slot, c.ccti)
		if got := n.pacedGap(f, c.own); got != c.want {
			t.Errorf("paced_read %s, CCTI %d, own time %d ps: gap %d ps, want %d", c.read, c.ccti, c.own, got, c.want)
		}
	}
}
