package fabric_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/fabric"
)

// Tests for the survivors of session 14's model/fabric sample (seed 141;
// docs/testing.md, "Session 14").

// An adapter whose description comment is a bare "#" is read as an
// adapter without a description (named by its GUID): the comment's text is
// not indexed when it is empty (ibnetdiscover.go:416).
func TestIBNetDiscoverBareComment(t *testing.T) {
	text := `Switch	8 "S-0000000000000001"		# "MF0;leaf1:IS4/U1" enhanced port 0 lid 1 lmc 0
[1]	"H-0000000000000010"[1](11) 		# "a" lid 3 4xQDR
[2]	"H-0000000000000020"[1](21) 		# "b" lid 4 4xQDR
Ca	1 "H-0000000000000010"		# "a"
[1](11) 	"S-0000000000000001"[1]		# lid 3 lmc 0 "MF0;leaf1:IS4/U1" lid 1 4xQDR
Ca	1 "H-0000000000000020"		#
[1](21) 	"S-0000000000000001"[2]		# lid 4 lmc 0 "MF0;leaf1:IS4/U1" lid 1 4xQDR
`
	topo, err := fabric.ParseIBNetDiscover("bare.txt", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	names := nodeNames(topo, topo.Hosts())
	if len(names) != 2 || !slices.Contains(names, "a") || slices.Contains(names, "") {
		t.Fatalf("hosts %q, want a and one named by its GUID", names)
	}
	for _, n := range names {
		if n != "a" && !strings.Contains(strings.ToLower(n), "20") {
			t.Errorf("host %q: want its GUID in its name", n)
		}
	}
}

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
