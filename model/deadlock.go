package model

import (
	"errors"
	"fmt"

	"github.com/ccsweep/ccsweep/engine"
)

// ErrDeadlock is wrapped by the error of a run that deadlocked: some flow
// has payload in the network and none of it reaches the destination for
// a long simulated interval (deadlockWindow). Only a routing whose channel
// dependencies form a cycle (allow_deadlock = true) can deadlock; the check
// refuses any other, and only runs that allow one are watched.
var ErrDeadlock = errors.New("deadlock")

// deadlockWindow is how long a flow's packets may sit in the network
// without any of them reaching the destination before the run is declared
// deadlocked: 1 ms, or twice the time the slowest link or adapter of the
// run takes to pass one MTU-sized packet of every flow, if longer (under
// round-robin arbitration a flow among all flows into one adapter gets one
// packet in that time). A packet crosses a fabric in microseconds and CC
// delays injections, not packets already sent; so that long without a
// single delivery of a flow whose packets are in flight is no congestion:
// with credit-based flow control, a cycle of full buffers, nothing of it
// moves again. (Other flows may still move: a deadlock stops the flows
// whose packets wait in the cycle.)
func (n *Network) deadlockWindow() engine.Time {
	gbps := min(n.cfg.HostLinkGbps, n.cfg.SwitchLinkGbps)
	for h := range n.hcas {
		gbps = min(gbps, n.hostIOGbps(h))
	}
	turn := engine.Time(2*float64(len(n.flows))*float64(n.cfg.MTU+64)*8/gbps) * engine.Nanosecond
	return max(engine.Millisecond, turn)
}

// progressWatch follows each flow's deliveries between looks (RunProgress).
type progressWatch struct {
	reached []int64       // a flow's payload bytes that reached its destination, at since
	since   []engine.Time // when reached last grew, or the flow last had none in flight
	scratch []int64
}

// reachedBytes returns, for every flow, the payload that has reached its
// destination so far, counted or not yet settled: it grows with every
// delivery.
func (n *Network) reachedBytes(b []int64) []int64 {
	b = b[:0]
	for i := range n.flows {
		b = append(b, n.flows[i].delivered)
	}
	for h := range n.hcas {
		for _, d := range n.hcas[h].arrived {
			b[d.flow] += int64(d.bytes)
		}
	}
	return b
}

// deadlocked returns an error wrapping ErrDeadlock, naming the flow, when
// a flow has payload in the network and none of it has reached the
// destination for deadlockWindow; it only reads the network, and only
// where the scenario allows a deadlock-prone routing.
func (n *Network) deadlocked(w *progressWatch) error {
	if !n.allowDeadlock {
		return nil
	}
	now := n.sim.Now()
	w.scratch = n.reachedBytes(w.scratch)
	if w.reached == nil {
		w.reached = make([]int64, len(n.flows))
		w.since = make([]engine.Time, len(n.flows))
	}
	for i, b := range w.scratch {
		f := &n.flows[i]
		if b != w.reached[i] || f.sent == b {
			w.reached[i], w.since[i] = b, now
			continue
		}
		if now-w.since[i] >= n.deadlockWindow() {
			return fmt.Errorf("%w: flow %s (%s to %s) has %d payload bytes in the network and none reached %s from %v to %v of simulated time: the routing's channel cycle closed (allow_deadlock)",
				ErrDeadlock, f.spec.Name, f.spec.Src, f.spec.Dst, f.sent-b, f.spec.Dst, w.since[i], now)
		}
	}
	return nil
}
