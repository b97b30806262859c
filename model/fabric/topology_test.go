package fabric_test

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// ConnectPorts counts ports from 0: a switch of 4 ports has ports 0 to 3,
// and port 4 is refused by name, on either end (topology.go:91).
func TestConnectPortsRefusesOnePast(t *testing.T) {
	tp := &fabric.Topology{}
	s1, s2 := tp.AddSwitch("s1", 4), tp.AddSwitch("s2", 4)
	for _, tc := range []struct{ pa, pb int }{{4, 0}, {0, 4}, {-1, 0}} {
		if err := tp.ConnectPorts(s1, tc.pa, s2, tc.pb, 40); err == nil || !strings.Contains(err.Error(), "has no port") {
			t.Errorf("ports %d-%d: %v, want no such port", tc.pa, tc.pb, err)
		}
	}
	if err := tp.ConnectPorts(s1, 3, s2, 3, 40); err != nil {
		t.Errorf("ports 3-3 (the last): %v", err)
	}
	if len(tp.Links) != 1 {
		t.Errorf("%d links, want 1", len(tp.Links))
	}
}
