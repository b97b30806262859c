package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// A credit update addresses its port in 20 bits: every port index of a
// network of maxPorts ports survives packing with any VL and credit count,
// so a network of exactly maxPorts ports is accepted and one more refused.
// Kills the port-count check's `n > maxPorts` turned into `>=` (which
// refused 2^20 ports although their indexes fit).
func TestMaxPortsIsWhatCreditUpdatesAddress(t *testing.T) {
	for _, p := range []int32{0, 1, 4095, 4096, maxPorts / 2, maxPorts - 2, maxPorts - 1} {
		for _, vl := range []VL{0, 1, 14, 15} {
			for _, c := range []int32{0, 1, 69, 255} {
				if gp, gvl, gc := unpackCredit(packCredit(p, vl, c)); gp != p || gvl != vl || gc != c {
					t.Fatalf("credit update for port %d, VL %d, %d credits unpacks as port %d, VL %d, %d credits", p, vl, c, gp, gvl, gc)
				}
			}
		}
	}
	// One port more would need a 21st bit: its index packs as port 0's.
	if gp, _, _ := unpackCredit(packCredit(maxPorts, 0, 1)); gp == maxPorts {
		t.Fatalf("port %d survives packing; maxPorts (%d) is below what credit updates address", maxPorts, maxPorts)
	}
	for _, n := range []int{1, maxPorts - 1, maxPorts} {
		if err := checkPorts(n); err != nil {
			t.Errorf("%d ports: %v; want them accepted", n, err)
		}
	}
	err := checkPorts(maxPorts + 1)
	if !errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(err.Error(), "1048577 ports; credit updates address at most 1048576") {
		t.Errorf("%d ports: %v; want a bad-scenario error naming the count and the limit", maxPorts+1, err)
	}
}
