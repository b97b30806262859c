package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFabricJSON reads fabric --json on the testbed: 7 hosts on two
// switches joined by one link (S1 has H1-H3, S2 H4-H7). All-to-all, S1's
// link to S2 carries 3·4 routes and S2's back 4·3; a host link carries the
// 6 other hosts' routes; so the 9 directed links out of switches carry
// 12, 12 and seven times 6: max 12, mean 66/9, p99 12.
func TestFabricJSON(t *testing.T) {
	out, stderr, code := ccsweep(t, "fabric", "testbed-s1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]any{"hosts": 7.0, "switches": 2.0, "routing": "minhop",
		"max_routes_per_link": 12.0, "mean_routes_per_link": 66.0 / 9, "p99_routes_per_link": 12.0,
		"balanced_links": 9.0, "max_routes_per_switch_link": 12.0, "deadlock_free": true}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	links, ok := got["links"].([]any)
	if !ok || len(links) != 2 {
		t.Fatalf("links %v, want two rates (16 Gbit/s host links, 32 Gbit/s switch link)", got["links"])
	}
	out, stderr, code = ccsweep(t, "fabric", "testbed-s1", "--json", "--routing", "updn")
	if code != 0 || !strings.Contains(out, `"routing": "updn"`) {
		t.Fatalf("--routing updn: exit %d %s %s", code, stderr, out)
	}
}

// TestFabricClos648 checks the text output on the 648-port Clos under
// ftree (d-mod-k: 630 routes on every switch link, 647 on host links) and
// that the imported copy of it, without levels, is routed ftree the same
// way from the switches ranked from its adapters (the spines its roots).
func TestFabricClos648(t *testing.T) {
	out, stderr, code := ccsweep(t, "fabric", "clos648-uniform")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"hosts       648\n", "switches    54\n", "levels      2\n", "roots       18: ",
		"deadlock    free on 1 VLs\n", "(1944 links): max 647, mean 635.7, p99 647\n", "(1296): max 630, mean 630.0\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, stderr, code = ccsweep(t, "fabric", filepath.Join("examples", "scenarios", "clos648-imported.toml"), "--routing", "ftree")
	if code != 0 || !strings.Contains(out, "roots       18: spine1 spine2 ") || !strings.Contains(out, "(1296): max 630, mean 630.0\n") {
		t.Errorf("ftree on the imported fabric (ranked from the adapters): exit %d, %q\n%s", code, stderr, out)
	}
}

// TestFabricLFTs writes the testbed's tables in opensm-lfts.dump's format:
// one block per switch, the hosts' LIDs 1-7 and the switches' 8 and 9.
func TestFabricLFTs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "opensm-lfts.dump")
	out, stderr, code := ccsweep(t, "fabric", "testbed-s1", "--lfts", path)
	if code != 0 || !strings.Contains(out, "hosts       7") {
		t.Fatalf("exit %d: %s %s", code, stderr, out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dump := string(b)
	if !strings.HasPrefix(dump, "Unicast lids [0x0-0x9] of switch Lid 8 guid 0x") ||
		!strings.Contains(dump, "\nUnicast lids [0x0-0x9] of switch Lid 9 guid 0x") ||
		strings.Count(dump, "9 lids dumped\n") != 2 {
		t.Fatalf("dump:\n%s", dump)
	}
	// S1 reaches H1 (LID 1) on its port 1 and S2's hosts through its
	// link to S2; each switch lists 7 host LIDs and its own.
	if !strings.Contains(dump, "0x0001 001 # Channel Adapter portguid 0x") || strings.Count(dump, "# Channel Adapter") != 14 ||
		!strings.Contains(dump, "0x0008 000 # Switch portguid") {
		t.Fatalf("dump:\n%s", dump)
	}
}

// TestFabricBadInput wants exit status 2 and one line for bad input.
func TestFabricBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"fabric"},
		{"fabric", "no-such-scenario"},
		{"fabric", "testbed-s1", "--routing", "spf"},
		{"fabric", "testbed-s1", "extra"},
		{"fabric", "testbed-s1", "--routing", "dor"},
		{"fabric", "testbed-s1", "--lfts", t.TempDir()},
		// The tables may not overwrite the scenario or its fabric.
		{"fabric", "examples/scenarios/cluster-incast.toml", "--lfts", "examples/scenarios/cluster-incast.toml"},
		{"fabric", "examples/scenarios/cluster-incast.toml", "--lfts", "examples/fabrics/cluster.txt"},
	} {
		t.Run(strings.Join(args[1:], " "), func(t *testing.T) {
			before := fileSums(t, "examples/scenarios/cluster-incast.toml", "examples/fabrics/cluster.txt")
			_, stderr, code := ccsweep(t, args...)
			if after := fileSums(t, "examples/scenarios/cluster-incast.toml", "examples/fabrics/cluster.txt"); after != before {
				t.Fatalf("an input changed")
			}
			if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ccsweep: ") {
				t.Errorf("exit %d, stderr %q; want 2 and one line", code, stderr)
			}
		})
	}
}

// TestFabricOutputsNameOneFileEach checks that fabric refuses two outputs
// that name one file, and an output over the tables it reads, writing
// nothing.
func TestFabricOutputsNameOneFileEach(t *testing.T) {
	dir := t.TempDir()
	both := filepath.Join(dir, "both")
	tables := filepath.Join(dir, "tables.dump")
	if _, stderr, code := ccsweep(t, "fabric", "testbed-s1", "--lfts", tables); code != 0 {
		t.Fatalf("writing the tables: exit %d, %s", code, stderr)
	}
	want, err := os.ReadFile(tables)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"fabric", "testbed-s1", "--lfts", both, "--ibsim", both},
		{"fabric", "testbed-s1", "--read-lfts", tables, "--lfts", tables},
		{"fabric", "testbed-s1", "--read-lfts", tables, "--ibsim", tables},
	} {
		t.Run(strings.Join(args[2:], " "), func(t *testing.T) {
			_, stderr, code := ccsweep(t, args...)
			if code != 2 || strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want 2 and one line", code, stderr)
			}
			if _, err := os.Stat(both); !os.IsNotExist(err) {
				t.Errorf("%s was written (%v)", both, err)
			}
			if got, _ := os.ReadFile(tables); string(got) != string(want) {
				t.Errorf("the tables read were overwritten")
			}
		})
	}
}

// fileSums is the files' contents, joined, to see that none changed.
func fileSums(t *testing.T, paths ...string) string {
	t.Helper()
	var b strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// TestFabricPrintsEachScenarioProblemOnItsLine checks that a scenario file
// with two problems gets one stderr line per problem, each naming its
// file and line, as sim prints them.
func TestFabricPrintsEachScenarioProblemOnItsLine(t *testing.T) {
	scen := filepath.Join(t.TempDir(), "two.toml")
	os.WriteFile(scen, []byte("[topology]\nkind = \"fattree\"\nk = 4\nlevels = 2\n[[flow]]\nsrc = 0\ndst = 1\n"), 0o644)
	_, stderr, code := ccsweep(t, "fabric", scen)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if code != 2 || len(lines) != 2 || !strings.Contains(lines[0], "two.toml:6: flow[0].src") || !strings.Contains(lines[1], "two.toml:7: flow[0].dst") {
		t.Errorf("exit %d, stderr %q; want 2 and the two problems on their lines", code, stderr)
	}
}

// TestFabricComparesReadTablesWithTheEngine: --read-lfts also counts the
// entries in which the tables read differ from the scenario's own routing
// engine: none for the engine's own dump (--lfts), some for another
// engine's, in text and JSON.
func TestFabricComparesReadTablesWithTheEngine(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "tree.toml")
	if err := os.WriteFile(scen, []byte("[topology]\nkind = \"fattree\"\nk = 4\nlevels = 3\n[[traffic]]\npattern = \"uniform\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	own, minhop := filepath.Join(dir, "ftree.dump"), filepath.Join(dir, "minhop.dump")
	for _, args := range [][]string{{"fabric", scen, "--lfts", own}, {"fabric", scen, "--routing", "minhop", "--lfts", minhop}} {
		if out, stderr, code := ccsweep(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s %s", args, code, stderr, out)
		}
	}
	out, stderr, code := ccsweep(t, "fabric", scen, "--read-lfts", own)
	if want := "vs ftree    0 of 3072 entries differ (every switch's entry for every host LID): the same tables\n"; code != 0 || !strings.HasSuffix(out, want) {
		t.Errorf("its own tables: exit %d, %s\n%s\nwant the last line %q", code, stderr, out, want)
	}
	out, stderr, code = ccsweep(t, "fabric", scen, "--read-lfts", minhop, "--json")
	var doc struct {
		ComparedWith     string `json:"compared_with"`
		EntriesCompared  int    `json:"entries_compared"`
		EntriesDiffering *int   `json:"entries_differing"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil {
		t.Fatalf("minhop's tables, --json: exit %d, %v: %s\n%s", code, err, stderr, out)
	}
	if doc.ComparedWith != "ftree" || doc.EntriesCompared != 3072 || doc.EntriesDiffering == nil || *doc.EntriesDiffering == 0 || *doc.EntriesDiffering >= 3072 {
		t.Errorf("minhop's tables against ftree: %+v (differing %v), want ftree, 3072 compared, some differing", doc, doc.EntriesDiffering)
	}
	// Without --read-lfts nothing is compared.
	out, _, _ = ccsweep(t, "fabric", scen, "--json")
	if strings.Contains(out, "compared_with") {
		t.Errorf("an engine's own description compares: %s", out)
	}
}

// TestFabricNamesAMissingTablesFile: --read-lfts of a file that is not there
// is bad input named by its flag and path, in one line.
func TestFabricNamesAMissingTablesFile(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone.dump")
	_, stderr, code := ccsweep(t, "fabric", "testbed-s1", "--read-lfts", gone)
	if want := "ccsweep: --read-lfts " + gone + ": no such file or directory\n"; code != 2 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, want)
	}
}
