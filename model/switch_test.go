package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// TestSwitchWakesStayBounded runs congested outputs with small packets,
// where stale evTxDone wake-ups once piled up (600 events per packet), and
// wants the events per packet near the testbed's usual 7-8.
func TestSwitchWakesStayBounded(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		message  int
		cc       bool
	}{
		{"testbed-s2", 100, false},
		{"testbed-s2", 100, true},
		{"testbed-s1", 256, true},
		{"testbed-s1", 64, false},
	} {
		name := tc.scenario + "/" + map[bool]string{true: "cc", false: "nocc"}[tc.cc]
		t.Run(name, func(t *testing.T) {
			c := DefaultConfig()
			c.Phase = engine.Millisecond
			c.MessageSize = tc.message
			c.CC.Enabled = tc.cc
			res, err := Run(LookupScenario(tc.scenario), c, 1)
			if err != nil {
				t.Fatal(err)
			}
			perPacket := float64(res.Events) / float64(res.Counters.Packets)
			if perPacket > 12 {
				t.Errorf("%.1f events per packet (%d events, %d packets), want at most 12", perPacket, res.Events, res.Counters.Packets)
			}
		})
	}
}
