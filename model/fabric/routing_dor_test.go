package fabric

import (
	"fmt"
	"slices"
	"strings"
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
					f := NewFabric(top)
					d, err := f.dorSetup(lmc)
					if err != nil {
						t.Fatalf("%v wrap %v: %v", dims, wrap, err)
					}
					if d.need > MaxVLs {
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
							if got := d.Port(int32(s), int32(lid)); got != want {
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
					c, err := ComputeRunRoutes(top, "dor", lmc, d.need, RoutingOptions{}, true)
					if err != nil || c.DOR == nil || c.LFT != nil || c.SLs != nil {
						t.Fatalf("%s: ComputeRunRoutes: %v, dor %v, %d tables", name, err, c != nil && c.DOR != nil, len(c.LFT))
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
		got, err := ComputeRunRoutes(c.top, "dor", 0, 1, RoutingOptions{}, true)
		if c.err != "" {
			if wantErr == nil || err == nil || err.Error() != c.err || wantErr.Error() != c.err {
				t.Errorf("%s: computed %v, tables %v; want %q", c.name, err, wantErr, c.err)
			}
			continue
		}
		if wantErr != nil || err != nil || got.DOR != nil || !slices.EqualFunc(got.LFT, want.LFT, slices.Equal) {
			t.Errorf("%s: %v, %v; want the tables", c.name, err, wantErr)
		}
		if DORComputed(c.top, 0) {
			t.Errorf("%s: dor computes from coordinates where a run must keep tables", c.name)
		}
	}
}

// TestMutDORSecondHalfwayPathCrossesTheDateline: with LMC, path p of a host
// where p/R is odd (R orders) takes a halfway dimension with a dateline bit
// the way across the dateline (routing_dor.go's doc). On a ring of 6
// routers (one dimension, so R = 1; 6 routers: a dateline bit) with lmc 1,
// H0 (on R0) reaches H3 (on R3, halfway) by R1, R2 on LID path 0, the way
// without the dateline, and by R5, R4 on path 1, across the dateline
// between R0 and R5, with the dateline bit in its SL; H0 to H2 (not
// halfway) takes R1 on both paths.
func TestMutDORSecondHalfwayPathCrossesTheDateline(t *testing.T) {
	top := gridTopo([]int{6}, true, 1)
	r, err := ComputeRoutes(top, "dor", 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFabric(top)
	routers := func(dst, p int) string {
		var names []string
		for _, gp := range trace(t, f, r, 0, r.LID(dst, p))[1:] {
			if pp := f.peer[gp]; f.host[f.owner[pp]] < 0 {
				names = append(names, top.Nodes[f.owner[pp]].Name)
			}
		}
		return strings.Join(names, " ")
	}
	for _, c := range []struct {
		dst, p int
		want   string
		sl     int
	}{{3, 0, "R1 R2 R3", 0}, {3, 1, "R5 R4 R3", 1}, {2, 0, "R1 R2", 0}, {2, 1, "R1 R2", 0}} {
		if got := routers(c.dst, c.p); got != c.want {
			t.Errorf("H0 to H%d, path %d: by %s, want %s", c.dst, c.p, got, c.want)
		}
		if sl := r.SL(0, r.LID(c.dst, c.p)); sl != c.sl {
			t.Errorf("H0 to H%d, path %d: SL %d, want %d", c.dst, c.p, sl, c.sl)
		}
	}
}

// TestMutDORSizeOneDimensionIsNoOrder: a dimension of one router has no
// hop to take, so it adds no dimension order: a 4x1 mesh has one active
// dimension, and with lmc 1 its two paths per host still need one VL.
// Kills routing_dor.go's `n > 1` (an active dimension) turned into
// `n >= 1`, which counted two orders and asked for 2 VLs.
func TestMutDORSizeOneDimensionIsNoOrder(t *testing.T) {
	for _, dims := range [][]int{{4, 1}, {1, 4}} {
		top := gridTopo(dims, false, 1)
		if _, err := ComputeRoutes(top, "dor", 1, 1); err != nil {
			t.Errorf("mesh %v, lmc 1, 1 VL: %v", dims, err)
		}
	}
}
