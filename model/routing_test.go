package model

import (
	"errors"
	"strings"
	"testing"
)

// TestRouteRefusesADisconnectedTopology builds two islands, each a switch
// with two hosts, and wants NewNetwork to name a pair that cannot reach each
// other rather than leave a hole in a forwarding table.
func TestRouteRefusesADisconnectedTopology(t *testing.T) {
	sc := &Scenario{Name: "islands", Phases: 1,
		Build: func(c *Config) *Topology {
			t := &Topology{}
			for _, island := range []string{"A", "B"} {
				sw := t.AddSwitch("S"+island, 4)
				for i := 1; i <= 2; i++ {
					if err := t.Connect(t.AddHost(island+string(rune('0'+i))), sw, c.HostLinkGbps); err != nil {
						panic(err)
					}
				}
			}
			return t
		},
		Flows: []FlowSpec{{Name: "F1", Src: "A1", Dst: "A2", Role: Contributor}},
	}
	_, err := NewNetwork(sc, DefaultConfig(), 1)
	if !errors.Is(err, ErrBadScenario) || !strings.Contains(err.Error(), "cannot reach host") {
		t.Fatalf("err %v, want ErrBadScenario naming hosts that cannot reach each other", err)
	}
}
