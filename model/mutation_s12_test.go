package model

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/workload"
)

// Tests written against the survivors of session 12's sample of model
// (seed 53; docs/testing.md, "Sampled runs"), after that sample's figure
// was recorded.

// TestMutHotspotNoneHot mirrors TestMutHotspotAllHot: with
// hotspot_fraction 0 every sender's whole load goes to the cold hosts, and
// no sender gets a hot part (a source of load 0 would be a flow of its own
// in the results). Kills traffic.go's hot part `f > 0` turned into `>=`.
func TestMutHotspotNoneHot(t *testing.T) {
	srcs := expandOn16(t, workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotspotMode: "traffic", HotNodes: 2, HotspotFraction: 0, Load: 0.5})
	if len(srcs) != 14 {
		t.Errorf("%d sources, want one per sender that is not hot (14)", len(srcs))
	}
	for _, s := range srcs {
		if s.load != 0.5 || strings.HasSuffix(s.name, ":hot") {
			t.Errorf("%s: load %v; want only cold sources with the whole load", s.name, s.load)
		}
	}
}

// TestMutHotspotEveryOtherHostHotNamesItsField: when a sender has no cold
// host to send its uniform part to, the error names the field the scenario
// set the hot nodes with: hot (a list) or hot_nodes (a count). Kills
// traffic.go's `len(ts.Hot) > 0` negated in that message.
func TestMutHotspotEveryOtherHostHotNamesItsField(t *testing.T) {
	names, index := hostList(3)
	for _, tc := range []struct {
		ts    workload.TrafficSpec
		field string
	}{
		{workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotspotMode: "traffic", Hot: []string{"H1", "H2"}, HotspotFraction: 0.5, Load: 0.5}, "hot"},
		{workload.TrafficSpec{Name: "h", Pattern: "hotspot", HotspotMode: "traffic", HotNodes: 2, HotspotFraction: 0.5, Load: 0.5}, "hot_nodes"},
	} {
		_, err := expandTraffic(&tc.ts, names, index, nil)
		if err == nil || !strings.Contains(err.Error(), tc.field+": ") || !strings.Contains(err.Error(), "every other host is hot") {
			t.Errorf("hot %v, hot_nodes %d on 3 hosts: error %v; want it at %s", tc.ts.Hot, tc.ts.HotNodes, err, tc.field)
		}
	}
}
