package fabric

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func readSample(t testing.TB, path string) *Topology {
	t.Helper()
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	top, err := ParseIBNetDiscover(filepath.Base(path), text)
	if err != nil {
		t.Fatal(err)
	}
	return top
}

// TestReadLFTsOfOpenSMAndIBRoute reads the tables OpenSM 3.3.23 programmed
// on small.txt under ibsim, as OpenSM dumped them and as ibroute read them
// back from the switches (testdata/lfts/SOURCE.md). The expected ports are
// read off the files: S1 (GUID ...0a20) has H1-H3 on ports 1-3 and sends
// H4-H7 to port 19, its link to S2; S2 has H4-H7 on ports 1-4 and sends
// H1-H3 to port 19. The third case renames every adapter in the dump, so
// hosts are matched by port GUID alone.
func TestReadLFTsOfOpenSMAndIBRoute(t *testing.T) {
	top := readSample(t, filepath.Join("testdata", "ibnetdiscover", "small.txt"))
	want := map[string]map[string]int32{
		"S1": {"H1": 0, "H2": 1, "H3": 2, "H4": 18, "H5": 18, "H6": 18, "H7": 18},
		"S2": {"H1": 18, "H2": 18, "H3": 18, "H4": 0, "H5": 1, "H6": 2, "H7": 3},
	}
	dump, err := os.ReadFile(filepath.Join("testdata", "lfts", "small-opensm-lfts.dump"))
	if err != nil {
		t.Fatal(err)
	}
	ibroute, err := os.ReadFile(filepath.Join("testdata", "lfts", "small-ibroute.txt"))
	if err != nil {
		t.Fatal(err)
	}
	renamed := regexp.MustCompile(`(Channel Adapter portguid 0x[0-9a-f]+: )'[^']*'`).ReplaceAll(dump, []byte("${1}'renamed adapter'"))
	if bytes.Equal(renamed, dump) {
		t.Fatal("no adapter renamed")
	}
	for name, text := range map[string][]byte{"opensm-lfts.dump": dump, "ibroute": ibroute, "renamed": renamed} {
		t.Run(name, func(t *testing.T) {
			r, warn, err := ReadLFTs(top, name, bytes.NewReader(text))
			if err != nil {
				t.Fatal(err)
			}
			if len(warn) > 0 {
				t.Errorf("warnings %q", warn)
			}
			if r.LMC != 0 {
				t.Errorf("lmc %d, want 0", r.LMC)
			}
			f := NewFabric(top)
			for sw, ports := range want {
				s := f.sw[top.Lookup(sw)]
				for host, port := range ports {
					h := f.host[top.Lookup(host)]
					if got := r.LFT[s][h]; got != port {
						t.Errorf("%s to %s: port %d, want %d", sw, host, got+1, port+1)
					}
				}
			}
			if err := f.check(r, 1); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestReadLFTsRefuses: a switch's entry for a host removed leaves that host
// unreachable, and the error names the switch; a LID the tables give two
// hosts and a port the switch does not have are refused at their line.
func TestReadLFTsRefuses(t *testing.T) {
	top := readSample(t, filepath.Join("testdata", "ibnetdiscover", "small.txt"))
	dump, err := os.ReadFile(filepath.Join("testdata", "lfts", "small-opensm-lfts.dump"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(dump), "\n")
	edit := func(line int, to string) string {
		l := slices.Clone(lines)
		l[line-1] = to
		return strings.Join(l, "\n")
	}
	if !strings.HasPrefix(lines[7], "0x0009 019 ") || !strings.Contains(lines[7], "'H5 HCA-1'") {
		t.Fatalf("line 8 of the dump is %q, want S1's entry for H5", lines[7])
	}
	for _, c := range []struct{ name, text, want string }{
		{"no entry", edit(8, ""), "host H1 does not reach host H5 at LID 4: switch S1 has no route"},
		{"LID of two hosts", edit(8, "0x0005 019 # Channel Adapter portguid 0x0002c903000a1b51: 'H5 HCA-1'"), "lfts:8: LID 0x5 is host H5's here and host H1's elsewhere"},
		{"no such port", edit(8, "0x0009 037 # Channel Adapter portguid 0x0002c903000a1b51: 'H5 HCA-1'"), "lfts:8: switch S1 has no port 37 towards 'H5 HCA-1' (it has 36)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := InspectLFTs(top, "lfts", strings.NewReader(c.text), 1)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestLFTsRoundTrip writes every switch's table (WriteLFTs) and reads it
// back (ReadLFTs): the same table entry for entry, on a Clos with two
// LIDs per host (paths in LID order) and on an ibsim fabric whose adapters
// have two linked ports each (hosts "Hca1/1", "Hca1/2"), with each engine
// that routes it.
func TestLFTsRoundTrip(t *testing.T) {
	clos, err := GenerateTopology("clos", TopoParams{Leaves: 4, Spines: 2, HostsPerLeaf: 3, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	ibsim := readSample(t, filepath.Join("testdata", "ibnetdiscover", "ibsim-2sw2path4hca2port.txt"))
	for _, c := range []struct {
		name string
		top  *Topology
		alg  string
		lmc  int
	}{
		{"clos ftree lmc 1", clos, "ftree", 1},
		{"clos minhop lmc 2", clos, "minhop", 2},
		{"ibsim updn", ibsim, "updn", 0},
		{"ibsim minhop lmc 1", ibsim, "minhop", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			info, err := InspectFabric(c.top, c.alg, c.lmc, 1)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := info.WriteLFTs(&buf); err != nil {
				t.Fatal(err)
			}
			r, _, err := ReadLFTs(c.top, "round trip", &buf)
			if err != nil {
				t.Fatal(err)
			}
			if r.LMC != c.lmc {
				t.Fatalf("lmc %d, want %d", r.LMC, c.lmc)
			}
			for s := range r.LFT {
				if !slices.Equal(r.LFT[s], info.routes.LFT[s]) {
					t.Fatalf("switch %s: read %v, wrote %v", c.top.Nodes[info.f.sws[s]].Name, r.LFT[s], info.routes.LFT[s])
				}
			}
		})
	}
}

// TestIBSimNetReadsBack writes fabrics as ibsim net files and reads them
// with the ibsim reader: the same nodes (names, kinds, ports, system image
// GUIDs) and the same links port for port.
func TestIBSimNetReadsBack(t *testing.T) {
	ft, err := GenerateTopology("fattree", TopoParams{K: 3, Levels: 2, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	for name, top := range map[string]*Topology{
		"fattree":  ft,
		"cluster":  readSample(t, filepath.Join("..", "..", "examples", "fabrics", "cluster.txt")),
		"loopback": readSample(t, filepath.Join("testdata", "ibnetdiscover", "loopback.txt")),
		"chassis":  readSample(t, filepath.Join("testdata", "ibnetdiscover", "chassis.txt")),
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := top.WriteIBSimNet(&buf); err != nil {
				t.Fatal(err)
			}
			back, err := ParseIBNetDiscover("net", buf.Bytes())
			if err != nil {
				t.Fatalf("%v\n%s", err, buf.String())
			}
			links := func(tp *Topology) []string {
				var ls []string
				for _, l := range tp.Links {
					a := fmt.Sprintf("%s[%d]", tp.Nodes[l.A].Name, l.APort+1)
					b := fmt.Sprintf("%s[%d]", tp.Nodes[l.B].Name, l.BPort+1)
					if tp.Nodes[l.A].Host {
						a = tp.Nodes[l.A].Name
					}
					if tp.Nodes[l.B].Host {
						b = tp.Nodes[l.B].Name
					}
					ls = append(ls, min(a, b)+" "+max(a, b))
				}
				slices.Sort(ls)
				return ls
			}
			if got, want := links(back), links(top); !slices.Equal(got, want) {
				t.Errorf("links read back %v, want %v", got, want)
			}
			for _, n := range top.Nodes {
				b := back.Lookup(n.Name)
				if b < 0 || back.Nodes[b].Host != n.Host || back.Nodes[b].Ports != n.Ports || back.Nodes[b].SysGUID != n.SysGUID {
					t.Errorf("node %s (host %v, %d ports, system %#x) not read back as such", n.Name, n.Host, n.Ports, n.SysGUID)
				}
			}
		})
	}
}

// TestSimRoutedByLFTs: a simulation routed by a scenario's tables
// (RoutesFromLFTs) refuses tables whose LIDs per host are not the
// scenario's, and tables that leave a host unreachable, naming the switch;
// the tables as dumped pass.
func TestSimRoutedByLFTs(t *testing.T) {
	top := readSample(t, filepath.Join("testdata", "ibnetdiscover", "small.txt"))
	dump, err := os.ReadFile(filepath.Join("testdata", "lfts", "small-opensm-lfts.dump"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RoutesFromLFTs(top, "d", dump, 0, 1, false); err != nil {
		t.Errorf("the dump as is: %v", err)
	}
	if _, err := RoutesFromLFTs(top, "d", dump, 1, 1, false); err == nil || !strings.Contains(err.Error(), "the tables give every host 1 LIDs (lmc 0), the scenario has lmc 1") {
		t.Errorf("lmc 1: %v", err)
	}
	broken := strings.Replace(string(dump), "0x0009 019 # Channel Adapter", "# removed", 1)
	if _, err := RoutesFromLFTs(top, "d", []byte(broken), 0, 1, false); err == nil || !strings.Contains(err.Error(), "switch S1 has no route") {
		t.Errorf("an entry removed: %v", err)
	}
}

// FuzzReadLFTs wants the reader of forwarding-table dumps never to panic,
// to refuse only with a TopologyFileError (an error that names the file and
// line and wraps ErrBadScenario), and to return only tables a run can use:
// a row per switch, a column per LID, every entry a port the switch has or
// NoRoute. What it accepts, the reachability and deadlock check then reads
// without panicking.
func FuzzReadLFTs(f *testing.F) {
	top := readSample(f, filepath.Join("testdata", "ibnetdiscover", "small.txt"))
	for _, file := range []string{"small-opensm-lfts.dump", "small-ibroute.txt"} {
		text, err := os.ReadFile(filepath.Join("testdata", "lfts", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		r, _, err := ReadLFTs(top, "fuzz.dump", bytes.NewReader(text))
		if err != nil {
			var fe *TopologyFileError
			if !errors.As(err, &fe) || !errors.Is(err, ErrBadScenario) || fe.Name != "fuzz.dump" {
				t.Fatalf("error %v is not a TopologyFileError of fuzz.dump", err)
			}
			return
		}
		sws := top.Switches()
		lids := len(top.Hosts()) << r.LMC
		if len(r.LFT) != len(sws) {
			t.Fatalf("%d rows for %d switches", len(r.LFT), len(sws))
		}
		for s, row := range r.LFT {
			if len(row) != lids {
				t.Fatalf("switch %d: %d entries for %d LIDs", s, len(row), lids)
			}
			for lid, p := range row {
				if p != NoRoute && (p < 0 || int(p) >= top.Nodes[sws[s]].Ports) {
					t.Fatalf("switch %d, LID %d: port %d of %d", s, lid, p, top.Nodes[sws[s]].Ports)
				}
			}
		}
		_, _ = describeFabric(NewFabric(top), r, "lfts", nil, 1)
	})
}

// TestMutLFTEntryBeforeAnyHeader: a table entry before the first switch
// header belongs to no switch and is refused at its line, not given to some
// switch. Kills lftread.go's `cur := int32(-1)` turned into `+1`.
func TestMutLFTEntryBeforeAnyHeader(t *testing.T) {
	top := readSample(t, filepath.Join("testdata", "ibnetdiscover", "small.txt"))
	dump, err := os.ReadFile(filepath.Join("testdata", "lfts", "small-opensm-lfts.dump"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(dump), "\n")
	if !strings.HasPrefix(lines[7], "0x0009 019 ") {
		t.Fatalf("line 8 of the dump is %q, want an entry", lines[7])
	}
	text := lines[7] + "\n" + string(dump)
	const want = "lfts:1: entry before any switch header"
	if _, _, err := ReadLFTs(top, "lfts", strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}
