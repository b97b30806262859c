package fabric

import (
	"fmt"
	"testing"
)

// BenchmarkRoute times ComputeRoutes, the routing and its check, on the
// 648-port Clos (36 leaves of 18 hosts and 18 spines: 54 36-port switches),
// a 16-ary 3-tree (4096 hosts, 768 32-port switches) and tori, and reports
// the hosts routed. Run it with
// go test -run '^$' -bench Route -benchtime 3x ./model
func BenchmarkRoute(b *testing.B) {
	for _, c := range []struct {
		name  string
		build func() *Topology
		algs  []string
		vls   int
	}{
		{"clos648", func() *Topology { return closTopo(36, 18, 18) }, []string{"minhop", "updn", "ftree"}, 1},
		{"fattree16x3", func() *Topology { return kAryNTree(16, 3) }, []string{"minhop", "updn", "ftree"}, 1},
		{"torus16x16", func() *Topology { return gridTopo([]int{16, 16}, true, 1) }, []string{"updn", "dor"}, 4},
		{"torus8x8x8", func() *Topology { return gridTopo([]int{8, 8, 8}, true, 1) }, []string{"updn", "dor"}, 8},
	} {
		top := c.build()
		for _, alg := range c.algs {
			b.Run(fmt.Sprintf("%s/%s", c.name, alg), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := ComputeRoutes(top, alg, 0, c.vls); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(top.Hosts())), "hosts")
			})
		}
	}
}
