package model

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestRouteRefusesADisconnectedTopology builds two islands, each a switch
// with two hosts, and wants NewNetwork to name a pair that cannot reach each
// other rather than leave a hole in a forwarding table.
func TestRouteRefusesADisconnectedTopology(t *testing.T) {
	sc := &workload.Scenario{Name: "islands", Phases: 1,
		Build: func(c *params.Config) (*fabric.Topology, error) {
			t := &fabric.Topology{}
			for _, island := range []string{"A", "B"} {
				sw := t.AddSwitch("S"+island, 4)
				for i := 1; i <= 2; i++ {
					if err := t.Connect(t.AddHost(island+string(rune('0'+i))), sw, c.HostLinkGbps); err != nil {
						panic(err)
					}
				}
			}
			return t, nil
		},
		Flows: []workload.FlowSpec{{Name: "F1", Src: "A1", Dst: "A2", Role: workload.Contributor}},
	}
	_, err := NewNetwork(sc, params.DefaultConfig(), 1)
	if !errors.Is(err, fabric.ErrBadScenario) || !strings.Contains(err.Error(), "cannot reach host") {
		t.Fatalf("err %v, want ErrBadScenario naming hosts that cannot reach each other", err)
	}
}

// TestRoutesLeadToTheirHosts: every forwarding-table entry of the testbed is
// a connected port of its switch leading one hop closer to the destination,
// to the host itself where the host hangs off the switch, else to the other
// switch.
func TestRoutesLeadToTheirHosts(t *testing.T) {
	for _, name := range []string{"testbed-s1", "testbed-s2"} {
		t.Run(name, func(t *testing.T) {
			n, err := NewNetwork(workload.LookupScenario(name), params.DefaultConfig(), 1)
			if err != nil {
				t.Fatal(err)
			}
			for s := range n.sws {
				sw := &n.sws[s]
				node := n.ports[sw.firstPort].node
				for h := range n.hcas {
					out := sw.out(int32(h))
					if out < sw.firstPort || out >= sw.firstPort+sw.nPorts {
						t.Fatalf("switch %d, HCA %d: output %d is not one of its ports", s, h, out)
					}
					peer := n.ports[out].peer
					if peer < 0 {
						t.Fatalf("switch %d, HCA %d: output %d is unconnected", s, h, out)
					}
					hostHere := n.ports[n.ports[n.hcas[h].port].peer].node == node
					if got := n.ports[peer].node; hostHere && got != n.hcas[h].node || !hostHere && n.ports[peer].host {
						t.Errorf("switch %d, HCA %d: output %d leads to node %d", s, h, out, got)
					}
				}
			}
		})
	}
}
