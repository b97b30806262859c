package model

import (
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// This file and mechanism_<scheme>_test.go hold the mechanism tests: each
// CC scheme's documented response (SPEC §2, references 001, 003, 004 and
// the schemes' doc comments) driven through the real code on a tiny
// network, with the expected state worked by hand from the documented
// formula (the arithmetic is in the comments), never from the code's own
// helpers.

// hooked runs a network's events and shows each one to before (ahead of
// the network handling it) and after (once it has).
type hooked struct {
	n             *Network
	before, after func(e engine.Event)
}

func (h hooked) Handle(e engine.Event) {
	if h.before != nil {
		h.before(e)
	}
	h.n.Handle(e)
	if h.after != nil {
		h.after(e)
	}
}

// runHooked advances n to t (at most to its end) through a hooked handler.
func runHooked(n *Network, t engine.Time, before, after func(engine.Event)) {
	n.sim.Run(min(t, n.end), hooked{n, before, after})
}

// hostPort returns the port of host name's HCA.
func hostPort(t *testing.T, n *Network, name string) int32 {
	t.Helper()
	topo, err := n.scenario.Build(&n.cfg)
	if err != nil {
		t.Fatal(err)
	}
	id := topo.Lookup(name)
	if id < 0 {
		t.Fatalf("no host %s", name)
	}
	return n.nodePort(id)
}

// hcaOf returns the HCA index of host name.
func hcaOf(t *testing.T, n *Network, name string) int32 {
	t.Helper()
	p := hostPort(t, n, name)
	for h := range n.hcas {
		if n.hcas[h].port == p {
			return int32(h)
		}
	}
	t.Fatalf("no HCA on host %s's port", name)
	return -1
}

// startRecorder returns an after-hook that records when flow fi starts a
// packet (its sent bytes grow), and the times recorded so far.
func startRecorder(n *Network, fi int32) (func(engine.Event), *[]engine.Time) {
	var starts []engine.Time
	sent := n.flows[fi].sent
	return func(engine.Event) {
		if s := n.flows[fi].sent; s != sent {
			sent = s
			starts = append(starts, n.sim.Now())
		}
	}, &starts
}
