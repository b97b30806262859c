package model

import (
	"runtime"
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
			if tc.cc {
				c.CC.Scheme = SchemeIB
			}
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

// TestSteadyStateAllocatesAlmostNothing pins the simulator's hot path: after
// a warm-up, the rest of a testbed-s1 run with CC on (every flow active, the
// hot spot congested, 1 ms samples taken) allocates at most once per 10 000
// events. Nothing allocates per event or per packet (that would be 10 000
// times more); what remains is capacity growth of the event queue's buckets
// and the VoQs on rare load peaks, which fades as the run goes on (14
// allocations in the last 60 ms, 1.4 M events, when this test was written).
// It counts every malloc over the span, as testing.AllocsPerRun does per
// call, since AllocsPerRun's integer mean would round such a rate to 0.
func TestSteadyStateAllocatesAlmostNothing(t *testing.T) {
	c := DefaultConfig()
	c.Phase = 120 * engine.Millisecond
	c.CC.Scheme = SchemeIB
	n, err := NewNetwork(LookupScenario("testbed-s1"), c, 1)
	if err != nil {
		t.Fatal(err)
	}
	n.RunUntil(540 * engine.Millisecond) // all five flows joined at 480 ms
	events := n.Events()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n.RunUntil(n.End())
	runtime.ReadMemStats(&after)
	events = n.Events() - events
	allocs := after.Mallocs - before.Mallocs
	t.Logf("%d allocations in the last 60 ms (%d events)", allocs, events)
	if allocs > events/10000 {
		t.Fatalf("%d allocations in %d events, want at most one per 10 000", allocs, events)
	}
}
