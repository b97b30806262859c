package grids

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
)

// TestScenarioRoutingFiles: a scenario's [routing] names OpenSM's root GUID
// file (spine1's GUID: updn climbs to it alone, 18 x 630 = 11340 routes on
// each leaf's link to it), or the tables ibroute read from the switches
// (routing "lfts": S1 sends H4-H7 to port 19, so its link to S2 carries
// the 3 x 4 routes from its hosts to S2's: 12). Both files are read
// relative to the scenario. A root file line that is no GUID, and lfts
// beside an algorithm, are problems of the file.
func TestScenarioRoutingFiles(t *testing.T) {
	dir := t.TempDir()
	copyIn := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyIn(filepath.Join("..", "examples", "fabrics", "clos648.txt"), "clos648.txt")
	copyIn(filepath.Join("..", "model", "fabric", "testdata", "ibnetdiscover", "small.txt"), "small.txt")
	copyIn(filepath.Join("..", "model", "fabric", "testdata", "lfts", "small-ibroute.txt"), "small-ibroute.txt")
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("roots.txt", "# spine1\n0x0002c90300100065\n")
	traffic := "[[traffic]]\npattern = \"uniform\"\narrival = \"poisson\"\nload = 0.1\n"
	inspect := func(path string) *fabric.FabricInfo {
		t.Helper()
		sc, err := LoadScenario(path)
		if err != nil {
			t.Fatal(err)
		}
		info, err := model.InspectScenario(sc, sc.Config(), "")
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	info := inspect(write("roots.toml", "[topology]\nkind = \"ibnetdiscover\"\nfile = \"clos648.txt\"\n[routing]\nroot_guid_file = \"roots.txt\"\n"+traffic))
	if !slices.Equal(info.Roots, []string{"spine1"}) || info.Balance.SwitchMax != 11340 {
		t.Errorf("root_guid_file: roots %v, max %d; want [spine1], 11340", info.Roots, info.Balance.SwitchMax)
	}
	info = inspect(write("lfts.toml", "[topology]\nkind = \"ibnetdiscover\"\nfile = \"small.txt\"\n[routing]\nlfts = \"small-ibroute.txt\"\n"+traffic))
	if info.Routing != "lfts" || info.Balance.SwitchMax != 12 {
		t.Errorf("lfts: routing %s, max %d; want lfts, 12", info.Routing, info.Balance.SwitchMax)
	}
	write("bad-roots.txt", "spine1\n")
	// The tables without switch S1's route to H2: a problem of the lfts
	// file, reported at the scenario's routing.lfts line (5), not at
	// [topology].
	ibroute, err := os.ReadFile(filepath.Join(dir, "small-ibroute.txt"))
	if err != nil {
		t.Fatal(err)
	}
	write("holed.txt", strings.Replace(string(ibroute), "0x0006 002 : (Channel Adapter portguid 0x0002c903000a1b21: 'H2 HCA-1')\n", "", 1))
	for name, c := range map[string]struct{ text, want string }{
		"lfts with a hole":   {"[routing]\nlfts = \"holed.txt\"\n", "lfts-with-a-hole.toml:5: routing.lfts: holed.txt: host "},
		"no GUID":            {"[routing]\nroot_guid_file = \"bad-roots.txt\"\n", `bad-roots.txt:1: "spine1": want one GUID a line`},
		"lfts and algorithm": {"[routing]\nalgorithm = \"minhop\"\nlfts = \"small-ibroute.txt\"\n", "give algorithm or lfts, not both"},
	} {
		_, err := LoadScenario(write(strings.ReplaceAll(name, " ", "-")+".toml", "[topology]\nkind = \"ibnetdiscover\"\nfile = \"small.txt\"\n"+c.text+traffic))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
