package workload

import (
	"fmt"
	"testing"
)

// TestMutVictimNames checks the names of the Clos hot-spot scenarios'
// victims: V<k>.<j> for hot node k's victims j = 1..4 (clos648Victims per
// hot node), each name once, as they name the flows in results.
// Kills clos648.go's `i%clos648Victims` to `*` and its `+1` to `-1`.
func TestMutVictimNames(t *testing.T) {
	for name, hots := range map[string]int{"clos648-hotspot": 8, "clos10368-hotspot": 32} {
		sc := LookupScenario(name)
		if sc == nil {
			t.Fatalf("no scenario %s", name)
		}
		want := map[string]bool{}
		for k := 1; k <= hots; k++ {
			for j := 1; j <= 4; j++ {
				want[fmt.Sprintf("V%d.%d", k, j)] = true
			}
		}
		n := 0
		for _, f := range sc.Flows {
			if f.Role != Victim {
				continue
			}
			n++
			if !want[f.Name] {
				t.Errorf("%s: victim %s, unexpected or twice", name, f.Name)
			}
			delete(want, f.Name)
		}
		if n != 4*hots || len(want) != 0 {
			t.Errorf("%s: %d victims, missing %v", name, n, want)
		}
	}
}

// TestMutContributorNames checks the names of the Clos hot-spot scenarios'
// contributors against closHotspot's comment: C<k>.<j> is hot node k's
// contributor on the j-th leaf after the hot node's (k and j from 1; 12
// contributors a hot node), each name once; C<k>.* all send to one host,
// another for each k.
// Kills clos648.go's `k+1` and `j+1` in the name turned into `k-1`, `j-1`
// (session 11's and 12's survivors clos648.go:131:34 and :39).
func TestMutContributorNames(t *testing.T) {
	for _, tc := range []struct {
		name                    string
		hots, leaves, hostsLeaf int
	}{
		{"clos648-hotspot", 8, 36, 18},
		{"clos10368-hotspot", 32, 144, 72},
	} {
		sc := LookupScenario(tc.name)
		if sc == nil {
			t.Fatalf("no scenario %s", tc.name)
		}
		leafOf := func(host string) int {
			var h int
			if _, err := fmt.Sscanf(host, "H%d", &h); err != nil {
				t.Fatalf("%s: host %q: %v", tc.name, host, err)
			}
			return (h - 1) / tc.hostsLeaf
		}
		byName := map[string]FlowSpec{}
		for _, f := range sc.Flows {
			if f.Role != Contributor {
				continue
			}
			if _, twice := byName[f.Name]; twice {
				t.Fatalf("%s: contributor %s twice", tc.name, f.Name)
			}
			byName[f.Name] = f
		}
		if len(byName) != 12*tc.hots {
			t.Fatalf("%s: %d contributors, want %d", tc.name, len(byName), 12*tc.hots)
		}
		hotOf := map[string]int{}
		for k := 1; k <= tc.hots; k++ {
			var hot string
			for j := 1; j <= 12; j++ {
				f, ok := byName[fmt.Sprintf("C%d.%d", k, j)]
				if !ok {
					t.Fatalf("%s: no contributor C%d.%d", tc.name, k, j)
				}
				if j == 1 {
					hot = f.Dst
				}
				if f.Dst != hot {
					t.Errorf("%s: C%d.%d sends to %s, C%d.1 to %s", tc.name, k, j, f.Dst, k, hot)
				}
				if want := (leafOf(hot) + j) % tc.leaves; leafOf(f.Src) != want {
					t.Errorf("%s: C%d.%d on leaf %d, want %d (the %d-th after the hot node's)", tc.name, k, j, leafOf(f.Src), want, j)
				}
			}
			if other, dup := hotOf[hot]; dup {
				t.Errorf("%s: C%d.* and C%d.* both send to %s", tc.name, other, k, hot)
			}
			hotOf[hot] = k
		}
	}
}

// TestMutClos648VictimsCrossTheFabric checks clos648-hotspot's victims
// against closHotspot's comment: each sends to the host at its hot node's
// position on the leaf half the fabric away from its own (36 leaves of 18:
// 18 leaves on), so never to its own leaf.
// Kills clos648.go's `sh.leaves/2` turned into `*2` (every victim sends
// within its own leaf).
func TestMutClos648VictimsCrossTheFabric(t *testing.T) {
	sp := clos648Hotspot()
	hostOf := func(name string) int {
		var h int
		if _, err := fmt.Sscanf(name, "H%d", &h); err != nil {
			t.Fatalf("host %q: %v", name, err)
		}
		return h - 1
	}
	victims := 0
	for _, f := range sp.Flows {
		if f.Role != Victim {
			continue
		}
		victims++
		var k, i int
		if _, err := fmt.Sscanf(f.Name, "V%d.%d", &k, &i); err != nil {
			t.Fatalf("victim %q: %v", f.Name, err)
		}
		src, dst := hostOf(f.Src), hostOf(f.Dst)
		wantLeaf := (src/18 + 18) % 36
		if dst/18 != wantLeaf || dst%18 != (82*(k-1))%18 {
			t.Errorf("%s: %s (leaf %d) to %s (leaf %d, position %d), want leaf %d, position %d",
				f.Name, f.Src, src/18, f.Dst, dst/18, dst%18, wantLeaf, (82*(k-1))%18)
		}
	}
	if victims != 32 {
		t.Errorf("%d victims, want 32", victims)
	}
}
