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

// A requester asks for an ACK on every ack_req_packets-th packet of a
// message, counted from the message's start, and on its last packet
// (transport.go's ackRequested, hca.go's packet index): with messages of
// five MTU packets and ack_req_packets 4, packets 4 and 5 of each message
// ask, and no other. (With 32-packet messages and 16, the test above,
// counting from the message's end asks on the same packets.)
// Kills hca.go's `f.msgSize-f.msgLeft` turned into `+` (packets 2 and 5).
func TestMutAckRequestsCountFromTheMessageStart(t *testing.T) {
	n := ccNetwork(t, map[string]any{"ack_req_packets": int64(4), "message_size": int64(5 * 2048), "mtu": int64(2048)})
	h4 := hostPort(t, n, "H4")
	var asked []int // packet numbers within their message, in arrival order
	seen := 0
	before := func(e engine.Event) {
		if e.Kind != evArrive {
			return
		}
		if pk := &n.pkts[e.Arg]; pk.kind == kindData && pk.flow == 0 && pk.inPort == h4 {
			seen++
			if pk.ackReq {
				asked = append(asked, (seen-1)%5+1)
			}
		}
	}
	runHooked(n, 100*engine.Microsecond, before, nil)
	if seen < 15 {
		t.Fatalf("only %d packets of F1 reached H4", seen)
	}
	for i, p := range asked {
		if p != 4+i%2 {
			t.Fatalf("packets asking for an ACK, by number within their message: %v; want 4, 5, 4, 5, ...", asked)
		}
	}
	if len(asked) != 2*(seen/5)+min(seen%5/4, 1) {
		t.Fatalf("%d packets asked for an ACK of %d that arrived: %v", len(asked), seen, asked)
	}
}
