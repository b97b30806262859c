package model

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// TestDORComputedMatchesTheTables: on every small complete mesh and torus
// (1 to 3 dimensions of 1 to 6 routers, 1 or 2 hosts a router, lmc 0 to
// 2), dor computed from coordinates gives every switch the output port of
// dimensionOrder's table for every LID and every path the table's service
// level, and those tables pass the check that follows every route on the
// VLs dor asks for: the construction that lets a run skip the tables and
// the check holds where the check can still be run.
func TestDORComputedMatchesTheTables(t *testing.T) {
	var shapes [][]int
	for a := 1; a <= 6; a++ {
		shapes = append(shapes, []int{a})
		for b := 1; b <= 6; b++ {
			shapes = append(shapes, []int{a, b})
		}
	}
	shapes = append(shapes, []int{2, 3, 4}, []int{5, 1, 3}, []int{3, 3, 3}, []int{4, 2, 5}, []int{6, 5, 2})
	cases := 0
	for _, dims := range shapes {
		for _, wrap := range []bool{false, true} {
			for _, hpr := range []int{1, 2} {
				if hpr == 2 && len(dims) == 3 {
					continue
				}
				top := gridTopo(dims, wrap, hpr)
				for lmc := range 3 {
					f := newFabric(top)
					d, err := f.dorSetup(lmc)
					if err != nil {
						t.Fatalf("%v wrap %v: %v", dims, wrap, err)
					}
					if d.need > maxVLs {
						continue
					}
					name := fmt.Sprintf("%s %s, %d hosts a router, lmc %d", top.Kind, dimsString(dims), hpr, lmc)
					if !d.complete(f) {
						t.Fatalf("%s: not complete", name)
					}
					r, err := f.dimensionOrder(lmc, d.need)
					if err != nil {
						t.Fatalf("%s: tables: %v", name, err)
					}
					for s := range f.sws {
						for lid, want := range r.LFT[s] {
							if got := d.port(int32(s), int32(lid)); got != want {
								t.Fatalf("%s: switch %s, LID %d: computed port %d, table %d", name, top.Nodes[f.sws[s]].Name, lid, got, want)
							}
						}
					}
					for h := range f.hosts {
						for lid := range len(f.hosts) << lmc {
							if got, want := d.sl(h, lid), r.SL(h, lid); got != want {
								t.Fatalf("%s: host %d, LID %d: computed SL %d, table %d", name, h, lid, got, want)
							}
						}
					}
					if err := f.check(r, d.need); err != nil {
						t.Fatalf("%s: the check refuses dor's tables on %d VLs: %v", name, d.need, err)
					}
					c, err := computeRoutes(top, "dor", lmc, d.need, RoutingOptions{}, true)
					if err != nil || c.dor == nil || c.LFT != nil || c.sl != nil {
						t.Fatalf("%s: computeRoutes: %v, dor %v, %d tables", name, err, c != nil && c.dor != nil, len(c.LFT))
					}
					cases++
				}
			}
		}
	}
	t.Logf("%d meshes and tori", cases)
}

// TestDORFallsBackToTables: where dor's routes do not all exist by
// construction, a run routes by tables and the check, as before: a grid
// with points no switch holds (its routes still exist: the same tables),
// and a mesh missing a link (the same error, naming the link).
func TestDORFallsBackToTables(t *testing.T) {
	holes := gridTopo([]int{3, 3}, false, 1)
	holes.Dims = []int{3, 4} // row y = 3 is empty
	cut := gridTopo([]int{3, 3}, false, 1)
	for i, l := range cut.Links {
		if cut.Nodes[l.A].Name == "R0.0" && cut.Nodes[l.B].Name == "R1.0" {
			cut.Links = slices.Delete(cut.Links, i, i+1)
			break
		}
	}
	for _, c := range []struct {
		name string
		top  *Topology
		err  string
	}{
		{"holes", holes, ""},
		{"cut", cut, "bad scenario: routing dor: switch R1.0 at [1 0] has no link to its neighbour down along x"},
	} {
		want, wantErr := ComputeRoutes(c.top, "dor", 0, 1)
		got, err := computeRoutes(c.top, "dor", 0, 1, RoutingOptions{}, true)
		if c.err != "" {
			if wantErr == nil || err == nil || err.Error() != c.err || wantErr.Error() != c.err {
				t.Errorf("%s: computed %v, tables %v; want %q", c.name, err, wantErr, c.err)
			}
			continue
		}
		if wantErr != nil || err != nil || got.dor != nil || !slices.EqualFunc(got.LFT, want.LFT, slices.Equal) {
			t.Errorf("%s: %v, %v; want the tables", c.name, err, wantErr)
		}
		if dorComputed(c.top, 0) || NetworkBytes(c.top, 0, "dor") <= int64(len(c.top.Nodes))*bytesPerNode {
			t.Errorf("%s: the memory estimate counts no tables", c.name)
		}
	}
}

// TestDORMeshKeepsNoForwardingTables builds dor meshes of 1 000 and 8 000
// hosts: a switch keeps no table, and the live heap per host of the larger
// is within 20 % of the smaller's (a byte per switch and LID, 8 KB a host
// at 8 000 hosts, would double it).
func TestDORMeshKeepsNoForwardingTables(t *testing.T) {
	perHost := map[int]float64{}
	for _, dims := range [][]int{{25, 40}, {80, 100}} {
		sc := meshScenario(t, dims)
		cfg := sc.Config()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n, err := NewNetwork(sc, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		for s := range n.sws {
			if n.sws[s].lft != nil {
				t.Fatalf("mesh %v: switch %d keeps a table of %d LIDs", dims, s, len(n.sws[s].lft))
			}
		}
		hosts := len(n.hcas)
		perHost[hosts] = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(hosts)
		runtime.KeepAlive(n)
		t.Logf("mesh %v: %.0f bytes of live heap a host", dims, perHost[hosts])
	}
	if perHost[8000] > 1.2*perHost[1000] {
		t.Errorf("live heap a host: %.0f at 1 000 hosts, %.0f at 8 000", perHost[1000], perHost[8000])
	}
}
