package model

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
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
			c := params.DefaultConfig()
			c.Phase = engine.Millisecond
			c.MessageSize = tc.message
			if tc.cc {
				c.CC.Scheme = params.SchemeIB
			}
			res, err := Run(workload.LookupScenario(tc.scenario), c, 1)
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
	c := params.DefaultConfig()
	c.Phase = 120 * engine.Millisecond
	c.CC.Scheme = params.SchemeIB
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), c, 1)
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

// TestVoQTableMatchesAMap drives the VoQ table through random insertions,
// changes and removals against a Go map of the same VoQs: every key the map
// holds is found with its VoQ, every other key is not, and the count
// agrees. Keys are drawn from few outputs of consecutive ports, so that
// probe runs are long, cross the table's end and outlive the growth from
// its 64 first slots, where a removal that shifts a run wrong loses a VoQ
// or keeps a stale one.
func TestVoQTableMatchesAMap(t *testing.T) {
	var tab voqTable
	tab.init(1)
	want := map[uint32]voq{}
	rng := rand.New(rand.NewPCG(7, 9))
	key := func() uint32 { return voqKey(1000+rng.Int32N(6), VL(rng.IntN(3)), rng.Int32N(40)) }
	grew := false
	for step := range 40000 {
		k := key()
		switch op := rng.IntN(3); {
		case op == 0 || len(want) < 20 && op == 1: // make it, or change it
			q := tab.at(tab.get(k))
			q.head, q.fill = int32(step), 0
			if step%5 == 0 { // a VoQ that keeps a fill when empty
				q.fill = 1
			}
			want[k] = *q
		default: // empty it and release it
			i := tab.find(k)
			if _, ok := want[k]; ok != (i >= 0) {
				t.Fatalf("step %d: key %#x in the map %v, found at %d", step, k, ok, i)
			}
			if i < 0 {
				continue
			}
			q := tab.at(i)
			q.head = -1
			tab.release(i)
			if q := want[k]; q.fill == 0 {
				delete(want, k)
			} else {
				q.head = -1
				want[k] = q
			}
		}
		grew = grew || len(tab.slots) > 64
		if step%97 != 0 {
			continue
		}
		for out := int32(1000); out < 1006; out++ {
			for vl := range VL(3) {
				for in := range int32(40) {
					k := voqKey(out, vl, in)
					q, ok := want[k]
					i := tab.find(k)
					if ok != (i >= 0) || ok && *tab.at(i) != q {
						t.Fatalf("step %d: key %#x: map %v %+v, table slot %d", step, k, ok, q, i)
					}
				}
			}
		}
		if tab.live != len(want) {
			t.Fatalf("step %d: table counts %d VoQs, the map holds %d", step, tab.live, len(want))
		}
	}
	t.Logf("%d slots, %d VoQs at the end", len(tab.slots), len(want))
	if !grew || len(want) < 40 {
		t.Fatalf("the table never grew or held few VoQs (%d slots, %d VoQs)", len(tab.slots), len(want))
	}
}
