package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// The busiest link is found among every connected port, the one whose
// peer is global port 0 included: on a star whose switch comes first (its
// port 0 faces H1), H1 sends greedily to H2 and H3, so H1's link carries
// both flows and each switch port to H2 or H3 one of them. max_link_util
// is then at least the two flows' payload over H1's link rate (headers
// come on top); the links to H2 and H3 carry about half of that.
// Kills stats.go's `p.peer < 0` turned into `<=` (H1's link left out).
func TestMutBusiestLinkMayFacePortZero(t *testing.T) {
	sc := starScenario("two-out", 3)
	sc.Flows = []workload.FlowSpec{
		{Name: "A", Src: "H1", Dst: "H2", Role: workload.Contributor},
		{Name: "B", Src: "H1", Dst: "H3", Role: workload.Contributor},
	}
	cfg := appConfig(engine.Millisecond)
	n, err := NewNetwork(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if h1 := n.hcas[0].port; n.ports[h1].peer != 0 {
		t.Fatalf("H1's port faces global port %d, not 0: the test no longer covers the port facing port 0", n.ports[h1].peer)
	}
	r, err := Run(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	from, to := r.Window()
	payload := r.MeanGbps(0, from, to) + r.MeanGbps(1, from, to)
	if want := payload / cfg.HostLinkGbps; r.Stats.MaxLinkUtil < want || want < 0.5 {
		t.Fatalf("max_link_util %v; want at least the flows' %v Gbit/s over H1's %v Gbit/s link, %v", r.Stats.MaxLinkUtil, payload, cfg.HostLinkGbps, want)
	}
}

// The window's largest switch buffer fill starts from what the switches'
// input buffers hold when the window begins, the buffer behind every
// port that faces a switch (the one facing global port 0 included) and
// no adapter's buffer: on a star whose switch comes first, H1's port faces
// port 0; its buffer at S1 holds 5 credits, S1's port to H2 says 9 are
// used at H2's adapter, every other buffer 1.
// Kills stats.go's `p.peer >= 0` turned into `> 0` in startWindow (H1's
// buffer left out); `!p.toHost` negated takes H2's adapter's 9.
func TestMutWindowStartsFromTheSwitchBuffers(t *testing.T) {
	sc := starScenario("fill", 3)
	sc.Flows = []workload.FlowSpec{{Name: "A", Src: "H1", Dst: "H2", Role: workload.Contributor}}
	n, err := NewNetwork(sc, appConfig(engine.Millisecond), 1)
	if err != nil {
		t.Fatal(err)
	}
	h1, h2 := n.hcas[0].port, n.hcas[1].port
	if n.ports[h1].peer != 0 {
		t.Fatalf("H1's port faces global port %d, not 0", n.ports[h1].peer)
	}
	for p := range n.ports {
		n.lane(int32(p), 0).used = 1
	}
	n.lane(h1, 0).used = 5
	n.lane(n.ports[h2].peer, 0).used = 9 // S1's port to H2: H2's adapter's buffer
	n.startWindow()
	if n.stats.maxBuf != 5 {
		t.Fatalf("largest switch buffer fill at the window's start: %d credits, want H1's 5", n.stats.maxBuf)
	}
}

// A flow that starts at the run's end (StartPhase = Phases) sends nothing
// in the window: it is neither a sender (sender_gbps) nor offered load.
// On a star, A from H1 runs throughout and B from H2 starts at the end.
// Kills stats.go's `f.start >= s.to` turned into `>`.
func TestMutFlowStartingAtTheEndIsNoSender(t *testing.T) {
	sc := starScenario("late", 3)
	sc.Flows = []workload.FlowSpec{
		{Name: "A", Src: "H1", Dst: "H3", Role: workload.Contributor},
		{Name: "B", Src: "H2", Dst: "H3", Role: workload.Contributor, StartPhase: 1},
	}
	cfg := appConfig(engine.Millisecond)
	r, err := Run(sc, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stats.SenderGbps != cfg.HostLinkGbps || r.Stats.OfferedGbps != cfg.HostLinkGbps {
		t.Errorf("sender_gbps %v, offered %v; want one host link, %v, each (B starts at the end)", r.Stats.SenderGbps, r.Stats.OfferedGbps, cfg.HostLinkGbps)
	}
}

// TestMutLatValueIsTheMiddleOfItsBucket checks latValue against the
// buckets latBucket makes, found by brute force over every latency up to
// 2^14 ps: a bucket holding one latency is exact, a wider one's value is
// the middle of the interval [lo, hi+1) its latencies cover.
// Kills stats.go's `b < 2*latSub` turned into `<=` (bucket 64 holds 64
// and 65 ps: its middle is 65, the mutant says 64).
func TestMutLatValueIsTheMiddleOfItsBucket(t *testing.T) {
	lo, hi := map[int]int{}, map[int]int{}
	for u := 0; u < 1<<14; u++ {
		b := latBucket(engine.Time(u))
		if _, ok := lo[b]; !ok {
			lo[b] = u
		}
		hi[b] = u
	}
	last := latBucket(1<<14 - 1) // may be cut short by the range: left out
	for b, l := range lo {
		if b == last {
			continue
		}
		want := float64(l)
		if hi[b] > l {
			want = float64(l+hi[b]+1) / 2
		}
		if got := latValue(b); got != want {
			t.Errorf("bucket %d holds %d-%d ps: latValue %v, want %v", b, l, hi[b], got, want)
		}
	}
}

// TestMutWindowStartsFromTheBuffersHeld checks that the window's largest
// switch buffer fill starts from what the switches' input buffers hold as
// it begins (stats.go's startWindow): a buffer already at its peak when the
// window starts and draining after it must count. A port's lane is the
// buffer at its far end (link.go counts credits at the sender), so the
// lanes of an HCA's port and of a switch port facing a switch are switch
// input buffers, and the lane of a switch port facing a host is the HCA's,
// not counted.
// Kills stats.go's `p.peer >= 0` negated (only unconnected ports read)
// and `!p.toHost` negated (the host-facing lane, the fullest, read).
func TestMutWindowStartsFromTheBuffersHeld(t *testing.T) {
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), params.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	sw, toHost, hca := -1, -1, -1
	for i := range n.ports {
		p := &n.ports[i]
		switch {
		case p.peer < 0:
		case p.host:
			hca = i
		case p.toHost:
			toHost = i
		case sw < 0:
			sw = i
		}
	}
	if sw < 0 || toHost < 0 || hca < 0 {
		t.Fatalf("testbed-s1 has no port of each kind: switch %d, to host %d, HCA %d", sw, toHost, hca)
	}
	n.lane(int32(sw), 0).used = 7
	n.lane(int32(hca), 0).used = 11
	n.lane(int32(toHost), 0).used = 13
	n.startWindow()
	if n.stats.maxBuf != 11 {
		t.Errorf("largest fill as the window starts = %d credits, want 11 (the leaf's input from the HCA)", n.stats.maxBuf)
	}
}
