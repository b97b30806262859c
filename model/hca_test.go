package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestReceiveListHoldsOnlyTheDMAsBacklog: an HCA's list of payloads on
// their way to host memory (hcaState.arrived) holds what its receive DMA
// has not finished by the last receive, not every payload of a sampling
// interval. Each payload still being moved holds its packet's buffer, at
// least a credit of the HCA's input buffer, so at most hca_buffer_credits
// of them are being moved at any time; those finished since the HCA's last
// receive were being moved then, so the list never holds more than twice
// that. testbed-s1 delivers thousands of packets to its hot node in one 5
// ms sampling interval.
func TestReceiveListHoldsOnlyTheDMAsBacklog(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.Phase, cfg.Sample = 5*engine.Millisecond, 5*engine.Millisecond
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	limit := 2 * cfg.HCABufferCredits
	most := 0
	for t0 := engine.Time(0); t0 < n.End(); t0 += 97*engine.Microsecond + 13 {
		n.RunUntil(t0)
		for h := range n.hcas {
			most = max(most, len(n.hcas[h].arrived))
			if l := len(n.hcas[h].arrived); l > limit {
				t.Fatalf("at %v HCA %d keeps %d payloads on their way to memory; at most %d can be", t0, h, l, limit)
			}
		}
	}
	if n.counters.Packets < int64(4*limit) {
		t.Fatalf("%d packets sent: too few to tell", n.counters.Packets)
	}
	t.Logf("at most %d payloads on their way to memory (limit %d), %d packets", most, limit, n.counters.Packets)
}
