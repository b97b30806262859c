package model

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// propWorkSeeds is how many of TestProperties' seeds
// TestPropertyWorkConserving replays event by event.
const propWorkSeeds = 60

// TestPropertyWorkConserving checks that switch outputs are work
// conserving, on drawn scenarios (TestProperties' seeds 1..propWorkSeeds)
// and at every instant of the run, not only at a few: once every event of
// an instant has been handled, no output whose link is free and that waits
// for no wake-up leaves a VoQ head it has the credits for: with
// arbitration fit, trySwitch passes over only heads beyond its credits;
// with commit, an output waits, on each VL with packets, for the credits
// of the one head it committed to, and only while it lacks them.
//
// A bug that delays a packet without losing it passes every count the
// instant checks make; this is the property it breaks.
func TestPropertyWorkConserving(t *testing.T) {
	fit := 0 // seeds with arbitration fit
	for seed := uint64(1); seed <= propWorkSeeds; seed++ {
		pc, n, err := drawPropNetwork(seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if !n.commit {
			fit++
		}
		last := engine.Time(-1) // the instant whose events have all been handled
		var bad error
		before := func(e engine.Event) {
			if bad == nil && e.At > last && last >= 0 {
				bad = idleOutputWithWork(n, last)
			}
			last = e.At
		}
		runHooked(n, pc.instants[len(pc.instants)-1], before, nil)
		if bad != nil {
			t.Errorf("seed %d (replay: go test ./model -run TestPropertyWorkConserving; the scenario is TestProperties' -prop.seed %d): %v\nscenario:\n%s",
				seed, seed, bad, pc)
		}
	}
	if fit < propWorkSeeds/4 || fit > propWorkSeeds*3/4 {
		t.Errorf("%d of %d seeds drew arbitration fit; want about half", fit, propWorkSeeds)
	}
}

// idleOutputWithWork returns an error naming a switch output that is idle
// at instant at (its link free, no wake-up due) while one of its VoQ heads
// fits in its credits, or nil.
func idleOutputWithWork(n *Network, at engine.Time) error {
	for s := range n.sws {
		sw := &n.sws[s]
		for out := int32(0); out < sw.nPorts; out++ {
			o := sw.firstPort + out
			pt := &n.ports[o]
			if pt.queued == 0 || pt.linkFree > at || pt.txWakeAt != 0 {
				continue
			}
			for v := 0; v < n.nVL; v++ {
				ln := n.lane(o, VL(v))
				cr := ln.credits
				if n.commit {
					// The output waits for the credits of the head it
					// committed to, and only if it lacks them.
					if ln.waiting == 0 {
						continue
					}
					if ln.commit == 0 {
						return fmt.Errorf("at %v switch %d output %d has been idle since %v with %d packets waiting on VL %d and no input committed to",
							at, s, out, pt.linkFree, ln.waiting, v)
					}
					q := n.voqs.at(n.voqs.find(voqKey(o, VL(v), ln.commit-1)))
					if q.credits <= cr {
						return fmt.Errorf("at %v switch %d output %d has been idle since %v, committed to input %d on VL %d whose head of %d credits fits its %d credits",
							at, s, out, pt.linkFree, ln.commit-1, v, q.credits, cr)
					}
					continue
				}
				r := n.readyWord(sw.firstPort+out, VL(v))
				for w := 0; w < int(sw.words); w++ {
					for m := n.ready[r+w]; m != 0; m &= m - 1 {
						in := int32(w<<6 | bits.TrailingZeros64(m))
						q := n.voqs.at(n.voqs.find(voqKey(o, VL(v), in)))
						if q.credits <= cr {
							return fmt.Errorf("at %v switch %d output %d has been idle since %v, its VoQ from input %d on VL %d holding a head of %d credits and the output %d credits",
								at, s, out, pt.linkFree, in, v, q.credits, cr)
						}
					}
				}
			}
		}
	}
	return nil
}
