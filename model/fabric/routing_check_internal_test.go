package fabric

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// ringOfK builds n switches in a ring with k hosts each: switch s (named
// S<s>) has its hosts on ports 0..k-1, port k to the next switch and port
// k+1 from the one before; host s*k+j (named H<s*k+j>) is on port j of
// switch s.
func ringOfK(n, k int) *Topology {
	t := &Topology{}
	sw := make([]NodeID, n)
	for s := range n {
		sw[s] = t.AddSwitch(fmt.Sprintf("S%d", s), k+2)
	}
	for s := range n {
		mustLink(t, sw[s], k, sw[(s+1)%n], k+1)
	}
	for s := range n {
		for j := range k {
			mustLink(t, t.AddHost(fmt.Sprintf("H%d", s*k+j)), 0, sw[s], j)
		}
	}
	return t
}

// clockwiseOfK are routes on ringOfK(n, k) sending every packet clockwise
// (port k) to its destination's switch, and there to the host's port.
func clockwiseOfK(f *Fabric, k int) *Routes {
	r := f.newRoutes(0)
	for s := range r.LFT {
		for g := range r.LFT[s] {
			r.LFT[s][g] = int32(k)
			if g/k == s {
				r.LFT[s][g] = int32(g % k)
			}
		}
	}
	return r
}

// slTable returns an SL table of hosts × LIDs, every entry 0.
func slTable(hosts int) [][]uint8 {
	sls := make([][]uint8, hosts)
	for h := range sls {
		sls[h] = make([]uint8, hosts)
	}
	return sls
}

// TestMutCheckWalksEveryHostWithSLs: with per-path service levels, the
// deadlock check covers the channel dependencies of every route on the VL
// of its SL (routing_check.go's doc): hosts of one switch share their
// routes, but not their VLs, so a switch's third host is walked too.
// routing_check.go:65:39 (`r.SLs != nil` negated) walked only the first
// two hosts of each switch, as with one VL.
//
// On a ring of 3 switches with 3 hosts each routed clockwise, the routes
// of two switch hops from Si turn at S(i+1) from its port 5 (counting from
// 1) to its port 4, and the three turns close the cycle S0 port 4 -> S1
// port 4 -> S2 port 4. The SLs put every route on VL 0 except those of
// S2's hosts to S1's hosts (VL 1), but for H8's to H3: VL 0 holds the
// turns at S1 and S2, and the cycle closes only by H8, S2's third host,
// whose route to H3 is on VL 0. With that one entry on VL 1 too, no VL has a cycle.
// Then random SL tables (an SL per source host, a few per destination
// switch) on rings of 3 and 4 switches with 3 or 4 hosts each: the check refuses exactly the tables where some VL's dependencies,
// traced from every host to every LID (dependencies), have a cycle, names
// the first such VL, and the cycle it names is one of that VL's.
func TestMutCheckWalksEveryHostWithSLs(t *testing.T) {
	top := ringOfK(3, 3)
	f := NewFabric(top)
	r := clockwiseOfK(f, 3)
	r.SLs = slTable(9)
	for h := 6; h < 9; h++ { // S2's hosts
		for g := 3; g < 6; g++ { // to S1's hosts
			r.SLs[h][g] = 1
		}
	}
	r.SLs[8][3] = 0 // H8 to H3
	const want = "deadlock possible: channel cycle on VL 0: S0 port 4 -> S1 port 4 -> S2 port 4 -> S0 port 4"
	if err := f.check(r, 2); err == nil || err.Error() != want {
		t.Errorf("H8 to H3 on VL 0: %v, want %q", err, want)
	}
	r.SLs[8][3] = 1
	if err := f.check(r, 2); err != nil {
		t.Errorf("H8 to H3 on VL 1 too: %v, want no cycle", err)
	}

	rng := rand.New(rand.NewPCG(13, 65))
	refused, thirdHostMatters := 0, 0
	for c := range 300 {
		n, k, vls := 3+rng.IntN(2), 3+rng.IntN(2), 4+rng.IntN(4)
		top := ringOfK(n, k)
		f := NewFabric(top)
		r := clockwiseOfK(f, k)
		hosts := n * k
		r.SLs = slTable(hosts)
		for h := range hosts {
			v := uint8(rng.IntN(vls + 1)) // SL vls is VL 0 again
			for s := range n {
				if rng.IntN(10) == 0 {
					v = uint8(rng.IntN(vls))
				}
				for g := s * k; g < (s+1)*k; g++ {
					r.SLs[h][g] = v
				}
			}
		}
		// The reference: every route traced, its turns on its VL.
		deps := dependencies(t, f, r, vls)
		wantVL := -1
		for v := range vls {
			if !acyclic(deps[v]) {
				wantVL = v
				break
			}
		}
		// Whether the hosts after each switch's first two change it.
		firstTwo := *r
		firstTwo.SLs = slTable(hosts)
		for h := range hosts {
			if h%k < 2 {
				copy(firstTwo.SLs[h], r.SLs[h])
			} else {
				copy(firstTwo.SLs[h], r.SLs[h-h%k]) // as its switch's first host
			}
		}
		cyclic2 := false
		for _, d := range dependencies(t, f, &firstTwo, vls) {
			cyclic2 = cyclic2 || !acyclic(d)
		}
		if cyclic2 != (wantVL >= 0) {
			thirdHostMatters++
		}

		err := f.check(r, vls)
		if wantVL < 0 {
			if err != nil {
				t.Errorf("case %d (%d switches, %d hosts each, %d VLs): %v, want no cycle", c, n, k, vls, err)
			}
			continue
		}
		refused++
		var ce *cycleError
		if !errors.As(err, &ce) {
			t.Errorf("case %d (%d switches, %d hosts each, %d VLs): %v, want a cycle on VL %d", c, n, k, vls, err, wantVL)
			continue
		}
		if ce.vl != wantVL {
			t.Errorf("case %d: cycle on VL %d, want VL %d, the first with one", c, ce.vl, wantVL)
		}
		for i, p := range ce.ports {
			if q := ce.ports[(i+1)%len(ce.ports)]; !deps[ce.vl][[2]int32{p, q}] {
				t.Errorf("case %d: %v: no route on VL %d uses %s right after %s", c, err, ce.vl, ce.names[(i+1)%len(ce.names)], ce.names[i])
			}
		}
	}
	t.Logf("%d of 300 tables refused, %d decided by hosts after a switch's first two", refused, thirdHostMatters)
	if refused < 30 || refused > 270 || thirdHostMatters < 10 {
		t.Errorf("%d of 300 tables refused, %d decided by hosts after a switch's first two: the family no longer tells them apart", refused, thirdHostMatters)
	}
}
