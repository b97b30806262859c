package workload

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// Tests written after session 12's measurement of model/workload
// (docs/testing.md, "Results of 2026-11-26 (session 12): model/workload"),
// against its LIVED mutants; not counted in that figure.

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

// TestMutGOALSlashCommentAtLineStart checks that '//' starts a comment
// (ParseGOAL's comment) wherever it is on a line, the first column
// included, as '#' does.
// Kills goal.go's `i >= 0` to `i > 0` for "//" (session 12's survivor
// goal.go:165:40: a line starting with // read as an operation).
func TestMutGOALSlashCommentAtLineStart(t *testing.T) {
	tr := goalOK(t, "// a schedule\nnum_ranks 2 // two\n# ranks\nrank 0 {\n// first\na: calc 5 //ns\n}\n//\n")
	if tr.Ranks != 2 || len(tr.Ops[0]) != 1 || tr.Ops[0][0].Dur != 5*engine.Nanosecond || len(tr.Ops[1]) != 0 {
		t.Errorf("ranks %d, programs %v; want 2, rank 0 one calc of 5 ns", tr.Ranks, tr.Ops)
	}
}

// TestMutHPCCContributorsParameter checks testbed-hpcc's own parameter
// against docs/apps.md: contributors, 0 to 4, default 4, keeps that many of
// F2-F5 in order (0: the uncongested baseline); it is listed among the
// scenario's parameters beside those its spec gives, in name order.
// Kills scenfile.go's `len(spec.own) > 0` negated (the built-in's own
// parameters dropped; LIVED in session 12's second sample, seed 44),
// the own setter keeping the last n flows, and the merged list sorted in
// reverse.
func TestMutHPCCContributorsParameter(t *testing.T) {
	sc := LookupScenario("testbed-hpcc")
	if sc == nil {
		t.Fatal("no scenario testbed-hpcc")
	}
	var names []string
	for _, p := range sc.ScenarioParams() {
		names = append(names, p.Name)
	}
	if !slices.Contains(names, "contributors") || !slices.IsSorted(names) {
		t.Fatalf("parameters %v: want contributors among them, sorted", names)
	}
	p := sc.Param("contributors")
	if p == nil || p.Min != 0 || p.Max != 4 {
		t.Fatalf("contributors: %+v, want a parameter from 0 to 4", p)
	}
	c := sc.Config()
	if v := sc.Get(&c, "contributors"); v != 4 {
		t.Errorf("contributors' default %v, want 4", v)
	}
	all := []string{"F2", "F3", "F4", "F5"}
	for n := 0; n <= 4; n++ {
		set(t, sc, &c, "contributors", n)
		var got []string
		for _, f := range sc.FlowsFor(&c) {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, all[:n]) {
			t.Errorf("contributors = %d: flows %v, want %v", n, got, all[:n])
		}
	}
	if err := sc.Set(&c, "contributors", 5); err == nil {
		t.Error("contributors = 5 accepted (0-4)")
	}
}
