package grids_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestGridSweepsRouting: routing and roots are axes of a grid on a scenario
// file and on a built-in fabric scenario, and each point is routed as its
// values say. The expected balances are OpenSM's on the same fabrics
// (docs/fabrics.md, "OpenSM as the oracle"): on the 4-ary 3-tree the
// busiest switch-to-switch link carries 192 routes under minhop and updn
// and 60 under ftree; on the 648-port Clos read from ibnetdiscover, updn
// with spine1 as its only root carries 18 × 630 = 11340 on each leaf's
// link to it, and 630 with the roots it finds.
func TestGridSweepsRouting(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fabric, err := os.ReadFile(filepath.Join("..", "examples", "fabrics", "clos648.txt"))
	if err != nil {
		t.Fatal(err)
	}
	write("clos648.txt", string(fabric))
	traffic := "[[traffic]]\nname = \"bg\"\npattern = \"uniform\"\narrival = \"poisson\"\nload = 0.1\n"
	write("ft.toml", "[topology]\nkind = \"fattree\"\nk = 4\nlevels = 3\n"+traffic)
	write("clos.toml", "[topology]\nkind = \"ibnetdiscover\"\nfile = \"clos648.txt\"\n[routing]\nalgorithm = \"updn\"\n"+traffic)

	check := func(grid string, want map[string]int64) {
		t.Helper()
		g, err := grids.Parse(write("g.toml", grid), []byte(grid))
		if err != nil {
			t.Fatal(err)
		}
		points := g.Points()
		if len(points) != len(want) {
			t.Fatalf("%d points, want %d", len(points), len(want))
		}
		for _, pt := range points {
			key := ""
			for _, a := range g.Axes() {
				name := a.Name
				v, _ := pt.Value(name)
				key += name + "=" + v + " "
			}
			cfg, err := grids.PointConfig(pt)
			if err != nil {
				t.Fatal(err)
			}
			info, err := model.InspectScenario(workload.LookupScenario(pt.Scenario), cfg, "")
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			w, ok := want[key]
			if !ok {
				t.Fatalf("unexpected point %q", key)
			}
			if r, _ := pt.Value("routing"); r != "" && info.Routing != r {
				t.Errorf("%s: routed by %s", key, info.Routing)
			}
			if info.Balance.SwitchMax != w {
				t.Errorf("%s: busiest switch link %d routes, want %d", key, info.Balance.SwitchMax, w)
			}
		}
	}
	check("name = \"r\"\nscenario = \"ft.toml\"\n[sweep]\nrouting = [\"minhop\", \"updn\", \"ftree\"]\n",
		map[string]int64{"routing=minhop ": 192, "routing=updn ": 192, "routing=ftree ": 60})
	check("name = \"r\"\nscenario = \"clos.toml\"\n[sweep]\nroots = [\"\", \"spine1\"]\n",
		map[string]int64{"roots= ": 630, "roots=spine1 ": 11340})
	// A built-in fabric scenario: its generated Clos under two engines.
	check("name = \"r\"\nscenario = \"clos648-uniform\"\n[sweep]\nrouting = [\"minhop\", \"ftree\"]\n",
		map[string]int64{"routing=minhop ": 630, "routing=ftree ": 630})
}
