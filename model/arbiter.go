package model

import "math/bits"

// nextInputCommitted is nextInput under ArbitrationCommit: the input
// output pt waits for on VL vl and its VoQ's slot, once the head's credits
// are there, or -1. Without a commitment it commits to the first input
// with a packet from the round-robin pointer on. The committed VoQ keeps
// its head until takeVoQ serves it (nothing else takes a VoQ's packets).
func (n *Network) nextInputCommitted(sw *switchState, pt *port, vl VL) (in, slot int32) {
	ln := n.lane(sw.firstPort+pt.local, vl)
	if ln.commit == 0 {
		first := firstReady(n.ready[n.readyWord(sw.firstPort+pt.local, vl):][:sw.words], ln.rrIn)
		if first < 0 {
			return -1, -1
		}
		ln.commit = first + 1
	}
	in = ln.commit - 1
	slot = n.voqs.find(voqKey(sw.firstPort+pt.local, vl, in))
	if n.voqs.at(slot).credits > ln.credits {
		return -1, -1
	}
	ln.commit = 0
	return in, slot
}

// firstReady returns the first set bit of words at or after bit start,
// wrapping round to the bits below it, or -1 if none is set.
func firstReady(words []uint64, start int32) int32 {
	n := len(words)
	w0, below := int(start>>6), uint64(1)<<(start&63)-1
	for i := 0; i <= n; i++ {
		w := (w0 + i) % n
		m := words[w]
		if i == 0 {
			m &^= below
		} else if i == n {
			m &= below
		}
		if m != 0 {
			return int32(w<<6 | bits.TrailingZeros64(m))
		}
	}
	return -1
}
