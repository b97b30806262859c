package fabric

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMutFtreeUpChoiceDividesByTheLeavesUpPorts checks ftree's documented
// choice going up above the leaves: a level-2 switch takes choice
// floor(d / U_1) mod c among its c equal up ports, U_1 being the greatest
// number of up ports of a leaf. The tree is irregular, and its switch 0 is
// a level-2 switch every leaf links to (generated trees number the leaves
// first): leaves A, B, C, D (level 1, hosts 2g and 2g+1 on leaf g) each
// link up to M0 (switch 0), A and B also to M1, C and D also to M2, so
// U_1 = 2; M1 and M2 link up to T0 and T1 (level 3). M1 reaches C and D
// only going up (over T0 or T1, then M2), and so does M2 for A and B: hosts
// d = 0, 1 (4, 5) go by T0, d = 2, 3 (6, 7) by T1 (d mod 2 would alternate).
func TestMutFtreeUpChoiceDividesByTheLeavesUpPorts(t *testing.T) {
	top := &Topology{Kind: "fattree"}
	sw := addLeveled(top, 6, leveled{"M0", 2}, leveled{"M1", 2}, leveled{"M2", 2}, leveled{"A", 1}, leveled{"B", 1},
		leveled{"C", 1}, leveled{"D", 1}, leveled{"T0", 3}, leveled{"T1", 3})
	for _, l := range [][2]string{
		{"A", "M0"}, {"B", "M0"}, {"C", "M0"}, {"D", "M0"},
		{"A", "M1"}, {"B", "M1"}, {"C", "M2"}, {"D", "M2"},
		{"M1", "T0"}, {"M1", "T1"}, {"M2", "T0"}, {"M2", "T1"},
	} {
		if err := top.Connect(sw[l[0]], sw[l[1]], testGbps); err != nil {
			t.Fatal(err)
		}
	}
	for g := range 8 {
		if err := top.Connect(top.AddHost(fmt.Sprintf("H%d", g)), sw[string(rune('A'+g/2))], testGbps); err != nil {
			t.Fatal(err)
		}
	}
	r, err := ComputeRoutes(top, "ftree", 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	// M1's ports: 0 to A, 1 to B, 2 to T0, 3 to T1; M2's the same with C, D.
	for _, c := range []struct {
		sw   string
		want [8]int32 // local port towards host d; -1: not checked here
	}{
		{"M1", [8]int32{-1, -1, -1, -1, 2, 2, 3, 3}},
		{"M2", [8]int32{2, 2, 3, 3, -1, -1, -1, -1}},
	} {
		s := int(sw[c.sw]) // switches were added first: node ID = switch index
		for d, want := range c.want {
			if want >= 0 && r.LFT[s][d] != want {
				t.Errorf("%s towards host %d: local port %d, want %d", c.sw, d, r.LFT[s][d], want)
			}
		}
	}
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

// TestMutClosLeafOfExactlyMaxPorts: a Clos leaf may have exactly
// MaxSwitchPorts ports (hosts plus uplinks), not one more. Kills
// topogen.go's `p.HostsPerLeaf+uplinks > maxSwitchPorts` turned into `>=`.
func TestMutClosLeafOfExactlyMaxPorts(t *testing.T) {
	p := TopoParams{Leaves: 2, Spines: 2, HostsPerLeaf: MaxSwitchPorts - 2, HostGbps: 8, SwitchGbps: 8}
	top, err := GenerateTopology("clos", p)
	if err != nil {
		t.Fatalf("leaves of %d ports: %v", MaxSwitchPorts, err)
	}
	for _, n := range top.Switches() {
		if nd := top.Nodes[n]; nd.Level == 1 && nd.Ports != MaxSwitchPorts {
			t.Errorf("leaf %s has %d ports, want %d", nd.Name, nd.Ports, MaxSwitchPorts)
		}
	}
	p.HostsPerLeaf++
	if _, err := GenerateTopology("clos", p); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("want at most %d ports per leaf", MaxSwitchPorts)) {
		t.Errorf("leaves of %d ports: error %v, want the limit named", MaxSwitchPorts+1, err)
	}
}

// TestMutLMC7IsAccepted: lmc runs from 0 to 7 (up to 128 LIDs a host), both
// ends included. Kills routing.go checkRouting's `lmc > 7` turned into `>=`
// (a survivor of session 11's measurement sample, killed after it).
func TestMutLMC7IsAccepted(t *testing.T) {
	r, err := ComputeRoutes(testbedTopo(), "minhop", 7, 1)
	if err != nil {
		t.Fatalf("lmc 7: %v", err)
	}
	if r.LMC != 7 || len(r.LFT[0]) != len(testbedTopo().Hosts())<<7 {
		t.Errorf("lmc 7: LMC %d, %d LIDs a table, want 7 and %d", r.LMC, len(r.LFT[0]), len(testbedTopo().Hosts())<<7)
	}
	if _, err := ComputeRoutes(testbedTopo(), "minhop", 8, 1); err == nil || !strings.Contains(err.Error(), "lmc 8: want 0 to 7") {
		t.Errorf("lmc 8: error %v, want it refused", err)
	}
}
