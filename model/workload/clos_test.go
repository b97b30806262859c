package workload

import (
	"fmt"
	"testing"
)

// TestClos10368HotspotLayout checks clos10368-hotspot's flows against its
// description (clos10368.go), from the scenario alone (building the
// network would take a second): every host sends once, 32 hot nodes on
// distinct leaves and positions, twelve contributors each from the twelve
// leaves after the hot node's, and each victim beside a contributor on its
// leaf, sent to a cold host at that contributor's hot node's position, so
// that ftree's d-mod-k (destination position mod 72 spines) takes both up
// the same leaf link to the same spine.
func TestClos10368HotspotLayout(t *testing.T) {
	const leaves, per = 144, 72
	sc := LookupScenario("clos10368-hotspot")
	if sc == nil {
		t.Fatal("no scenario clos10368-hotspot")
	}
	cfg := sc.Config()
	topo, err := sc.Build(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	if h, s := len(topo.Hosts()), len(topo.Switches()); h != leaves*per || s != leaves+72 {
		t.Fatalf("%d hosts, %d switches; want %d, %d", h, s, leaves*per, leaves+72)
	}
	idx := func(name string) int {
		var h int
		if _, err := fmt.Sscanf(name, "H%d", &h); err != nil || h < 1 || h > leaves*per {
			t.Fatalf("host %q", name)
		}
		return h - 1
	}
	sends := make([]int, leaves*per)
	hot := map[int][]int{} // hot host -> contributor hosts
	type flow struct{ src, dst int }
	var victims []flow
	for _, f := range sc.Flows {
		src, dst := idx(f.Src), idx(f.Dst)
		sends[src]++
		switch f.Role {
		case Contributor:
			hot[dst] = append(hot[dst], src)
		case Victim:
			victims = append(victims, flow{src, dst})
		default:
			t.Errorf("flow %s has role %v", f.Name, f.Role)
		}
	}
	if len(sc.Traffic) != 1 || sc.Traffic[0].Load != 0.07 {
		t.Fatalf("traffic %+v; want one Poisson background at 7 %%", sc.Traffic)
	}
	for _, name := range sc.Traffic[0].Sources {
		sends[idx(name)]++
	}
	for h, n := range sends {
		if n != 1 {
			t.Errorf("H%d is the source of %d flows; want 1", h+1, n)
		}
	}
	hotLeaves, hotPos := map[int]bool{}, map[int]bool{}
	for h, cs := range hot {
		hotLeaves[h/per], hotPos[h%per] = true, true
		from := map[int]bool{}
		for _, c := range cs {
			if d := (c/per - h/per + leaves) % leaves; d < 1 || d > 12 {
				t.Errorf("hot node H%d: contributor H%d on leaf %d, not one of the 12 after its own", h+1, c+1, c/per)
			}
			from[c/per] = true
		}
		if len(cs) != 12 || len(from) != 12 {
			t.Errorf("hot node H%d: %d contributors from %d leaves; want 12 from 12", h+1, len(cs), len(from))
		}
	}
	if len(hot) != 32 || len(hotLeaves) != 32 || len(hotPos) != 32 {
		t.Fatalf("%d hot nodes on %d leaves at %d positions; want 32, 32, 32", len(hot), len(hotLeaves), len(hotPos))
	}
	if len(victims) != 128 {
		t.Errorf("%d victims; want 128", len(victims))
	}
	for _, v := range victims {
		if _, isHot := hot[v.dst]; isHot {
			t.Errorf("victim H%d sends to hot node H%d", v.src+1, v.dst+1)
		}
		shared := false
		for h, cs := range hot {
			for _, c := range cs {
				shared = shared || c/per == v.src/per && h%per == v.dst%per
			}
		}
		if !shared || v.dst/per == v.src/per {
			t.Errorf("victim H%d->H%d shares no leaf uplink with a contributor", v.src+1, v.dst+1)
		}
	}
}
