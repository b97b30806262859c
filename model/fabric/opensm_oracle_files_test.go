package fabric

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// osmGUID finds the GUIDs ibsim gave the nodes in an opensm-lfts.dump: a
// switch's in its header, a host port's in a routed LID's comment.
var osmGUID = regexp.MustCompile(`(?:guid (0x[0-9a-fA-F]+) \('([^']*)'\)|portguid (0x[0-9a-fA-F]+): '([^']*)')`)

// TestOpenSMOracleWithFiles gives OpenSM's ftree a compute node file (-u)
// or a root file (-a) and ccsweep's ftree the same nodes by name, and
// checks, wherever OpenSM's ftree routed with them: the same hop count from
// every switch to every host, max routes per link and per switch link
// within 10 % of OpenSM's, and on the Clos networks the same tables, entry
// for entry (on the 4-ary 3-tree they differ: ftreeCounters). Where OpenSM's ftree failed with the files, it
// is logged (OpenSM then runs minhop; ccsweep's ftree may route). The
// fabrics: a 4-ary 3-tree with the hosts of its first two leaves, or of the
// last eleven, as compute nodes (ranked as OpenSM ranks, from every host,
// these route every host), a Clos with its spines as roots and half its
// leaves' hosts as compute nodes, and a Clos with a storage host on a spine
// given both files, as OpenSM needs there.
func TestOpenSMOracleWithFiles(t *testing.T) {
	script := opensmOracle(t)
	type variant struct {
		name string
		opts RoutingOptions
		// osmOK: OpenSM's ftree is expected to route with the files (the
		// test fails where it does not: a change of OpenSM's, or of the
		// fixture).
		osmOK bool
		// same: ccsweep's tables are OpenSM's, entry for entry (else they
		// differ: ftreeCounters).
		same bool
	}
	k4, err := GenerateTopology("fattree", TopoParams{K: 4, Levels: 3, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	clos, err := GenerateTopology("clos", TopoParams{Leaves: 8, Spines: 4, HostsPerLeaf: 4, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	storage := importedClos(4, 2, 2, 0, 1)
	mustLink(storage, storage.AddHost("storage"), 0, storage.Lookup("S0"), 4)
	hostNames := func(top *Topology) []string {
		var names []string
		for _, h := range top.Hosts() {
			names = append(names, top.Nodes[h].Name)
		}
		return names
	}
	k4Hosts, closHosts, storageHosts := hostNames(k4), hostNames(clos), hostNames(storage)
	cases := []struct {
		name     string
		top      *Topology
		variants []variant
	}{
		{"fattree-4ary-3tree", k4, []variant{
			{"first two leaves' hosts", RoutingOptions{ComputeNodes: k4Hosts[:8]}, true, false},
			{"the last 44 hosts", RoutingOptions{ComputeNodes: k4Hosts[20:]}, true, false},
		}},
		{"clos-8x4", clos, []variant{
			{"spines as roots", RoutingOptions{Roots: []string{"S1", "S2", "S3", "S4"}}, true, true},
			{"half the leaves' hosts", RoutingOptions{ComputeNodes: closHosts[:16]}, true, true},
		}},
		{"clos-storage-on-a-spine", storage, []variant{
			{"roots and compute nodes", RoutingOptions{Roots: []string{"S0", "S1"}, ComputeNodes: storageHosts[:len(storageHosts)-1]}, true, true},
			{"compute nodes alone", RoutingOptions{ComputeNodes: storageHosts[:len(storageHosts)-1]}, false, false},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			netFile := writeNet(t, c.top, dir)
			// minhop first, for the GUIDs ibsim gives the nodes.
			if out, err := exec.Command("bash", script, netFile, filepath.Join(dir, "plain"), "minhop").CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", script, err, out)
			}
			dump, err := os.ReadFile(filepath.Join(dir, "plain", "minhop.lfts"))
			if err != nil {
				t.Fatal(err)
			}
			guid := map[string]string{}
			for _, m := range osmGUID.FindAllStringSubmatch(string(dump), -1) {
				if m[1] != "" {
					guid[m[2]] = m[1]
				} else {
					guid[m[4]] = m[3]
				}
			}
			file := func(name string, nodes []string) string {
				t.Helper()
				var b strings.Builder
				for _, n := range nodes {
					g, ok := guid[n]
					if !ok {
						t.Fatalf("no GUID for %s in OpenSM's dump", n)
					}
					fmt.Fprintln(&b, g)
				}
				path := filepath.Join(dir, name)
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return path
			}
			f := NewFabric(c.top)
			for i, v := range c.variants {
				spec := "ftree:"
				if v.opts.Roots != nil {
					spec += " -a " + file(fmt.Sprintf("roots%d", i), v.opts.Roots)
				}
				if v.opts.ComputeNodes != nil {
					spec += " -u " + file(fmt.Sprintf("cn%d", i), v.opts.ComputeNodes)
				}
				out := filepath.Join(dir, fmt.Sprint(i))
				if o, err := exec.Command("bash", script, netFile, out, spec).CombinedOutput(); err != nil {
					t.Fatalf("%s %s: %v\n%s", script, spec, err, o)
				}
				r, u := osmTables(t, c.top, out, "ftree")
				info, cerr := InspectFabricWith(c.top, "ftree", 0, 1, v.opts)
				if r == nil {
					if v.osmOK {
						t.Errorf("%s: OpenSM's ftree failed (tables by %s)", v.name, u)
					}
					t.Logf("%s: OpenSM's ftree failed (tables by %s); ccsweep's ftree: %v", v.name, u, cerr)
					continue
				}
				if !v.osmOK {
					t.Errorf("%s: OpenSM's ftree routed, where this test expects it to fail", v.name)
				}
				if cerr != nil {
					t.Errorf("%s: ccsweep's ftree: %v; OpenSM's routed", v.name, cerr)
					continue
				}
				want, got := hopCounts(f, r), hopCounts(f, info.routes)
			hops:
				for s := range want {
					for g := range want[s] {
						if got[s][g] != want[s][g] {
							t.Errorf("%s: %d hops from switch %s to host %s, OpenSM's ftree %d",
								v.name, got[s][g], c.top.Nodes[f.sws[s]].Name, c.top.Nodes[f.hosts[g]].Name, want[s][g])
							break hops
						}
					}
				}
				o, b := f.balance(r), info.Balance
				for _, x := range []struct {
					what      string
					got, want int64
				}{{"max routes per link", b.Max, o.Max}, {"max routes per switch link", b.SwitchMax, o.SwitchMax}} {
					if float64(x.got) > 1.1*float64(x.want) {
						t.Errorf("%s: ccsweep's %s %d, more than 10 %% above OpenSM's %d", v.name, x.what, x.got, x.want)
					}
				}
				n, of, _, _ := f.differingEntries(info.routes, r)
				if v.same && n > 0 {
					t.Errorf("%s: %d of %d entries differ from OpenSM's ftree", v.name, n, of)
				}
				if !v.same && n == 0 {
					t.Errorf("%s: the same tables as OpenSM's ftree, where the test expects them to differ (%s)", v.name, ftreeCounters)
				}
				t.Logf("%s: ccsweep max %d switch max %d; OpenSM max %d switch max %d; %d of %d entries differ", v.name, b.Max, b.SwitchMax, o.Max, o.SwitchMax, n, of)
			}
		})
	}
}
