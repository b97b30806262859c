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

// TestConnectPortsNamesThePortCountingFromOne: ports count from 0 in the
// API and from 1 where a person reads them, as in ibnetdiscover's output:
// port index 4 of a 4-port switch is "port 5". Kills topology.go's
// `e.p+1` in that message turned into `e.p-1`.
func TestConnectPortsNamesThePortCountingFromOne(t *testing.T) {
	top := &fabric.Topology{}
	s := top.AddSwitch("S", 4)
	h := top.AddHost("H")
	err := top.ConnectPorts(h, 0, s, 4, 10)
	if want := "connect H-S: S has no port 5"; err == nil || err.Error() != want {
		t.Errorf("err %v, want %q", err, want)
	}
}
