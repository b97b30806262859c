package workload

import (
	"fmt"
	"testing"
)

// TestMutClos10368HotNodes checks clos10368-hotspot's hot nodes against its
// description (clos10368.go): hot node k (0-31) on leaf 9k/2 rounded down,
// at position 37k mod 72, 72 hosts a leaf; the hot nodes are the
// contributors' destinations.
// Kills clos10368.go's `9*k/2*clos10368HostsPerLeaf + 37*k%...` with `+` to
// `-` (still distinct leaves and positions, but other hosts).
func TestMutClos10368HotNodes(t *testing.T) {
	sc := LookupScenario("clos10368-hotspot")
	if sc == nil {
		t.Fatal("no scenario clos10368-hotspot")
	}
	want := map[string]bool{}
	for k := 0; k < 32; k++ {
		leaf, pos := 9*k/2, 37*k%72
		want[fmt.Sprintf("H%d", leaf*72+pos+1)] = true
	}
	got := map[string]bool{}
	for _, f := range sc.Flows {
		if f.Role == Contributor {
			got[f.Dst] = true
		}
	}
	for h := range want {
		if !got[h] {
			t.Errorf("hot node %s has no contributor", h)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d hot nodes, want %d", len(got), len(want))
	}
}
