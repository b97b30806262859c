package fabric

import (
	"fmt"
	"testing"
)

// BenchmarkFTreeLookup looks up random (switch, LID) pairs of a Clos in
// byte tables (what a run keeps up to FTreeTablesUpTo entries) and in the
// compact form (FTreeRouter.Port), each lookup's switch and LID drawn by an
// LCG: ns per lookup, the draw included, with nothing else competing for
// the cache, where even the 10 368-host Clos's 2.2 MB of tables stay. In a
// run of that Clos they compete with 20 MB of other state and a lookup is
// a miss (docs/scale.md, "ftree's forwarding kept compact").
func BenchmarkFTreeLookup(b *testing.B) {
	for _, c := range []struct {
		name string
		p    TopoParams
	}{
		{"clos648", TopoParams{Preset: "648"}},
		{"clos10368", TopoParams{Leaves: 144, Spines: 72, HostsPerLeaf: 72, HostGbps: 32, SwitchGbps: 32}},
	} {
		top, err := GenerateTopology("clos", c.p)
		if err != nil {
			b.Fatal(err)
		}
		_, r := routeFTree(b, top, 0, RoutingOptions{})
		lft := make([][]uint8, len(r.LFT))
		for s := range lft {
			lft[s] = make([]uint8, len(r.LFT[s]))
			for i, p := range r.LFT[s] {
				lft[s][i] = uint8(p)
			}
		}
		nSw, nLID := uint32(len(lft)), uint32(len(r.LFT[0]))
		for _, how := range []string{"tables", "compact"} {
			b.Run(fmt.Sprintf("%s/%s", c.name, how), func(b *testing.B) {
				x, sum := uint32(1), int32(0)
				for range b.N {
					x = x*1664525 + 1013904223
					s, lid := int32(x>>8%nSw), int32(x>>4%nLID)
					if how == "tables" {
						sum += int32(lft[s][lid])
					} else {
						sum += r.FTree.Port(s, lid)
					}
				}
				if sum == -1 {
					b.Log(sum)
				}
			})
		}
	}
}
