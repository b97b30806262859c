package fabric

import (
	"fmt"
	"strings"
	"testing"
)

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

// TestMutClosSpineOfExactlyMaxPorts: a Clos spine may have exactly
// MaxSwitchPorts ports (leaves × links_per_pair), not more: 2 leaves of
// 127 links to one spine give a spine of 254 ports, 128 links are refused.
func TestMutClosSpineOfExactlyMaxPorts(t *testing.T) {
	p := TopoParams{Leaves: 2, Spines: 1, HostsPerLeaf: 1, LinksPerPair: MaxSwitchPorts / 2, HostGbps: 8, SwitchGbps: 8}
	top, err := GenerateTopology("clos", p)
	if err != nil {
		t.Fatalf("a spine of %d ports: %v", MaxSwitchPorts, err)
	}
	for _, n := range top.Switches() {
		if nd := top.Nodes[n]; nd.Level == 2 && nd.Ports != MaxSwitchPorts {
			t.Errorf("spine %s has %d ports, want %d", nd.Name, nd.Ports, MaxSwitchPorts)
		}
	}
	p.LinksPerPair++
	if _, err := GenerateTopology("clos", p); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("want at most %d ports per spine", MaxSwitchPorts)) {
		t.Errorf("a spine of %d ports: error %v, want the limit named", 2*p.LinksPerPair, err)
	}
}

// TestMutAdaptiveGroupOfParallelLinks: a group holds every port one hop
// nearer the destination switch, parallel links to it included: on a Clos
// of 2 leaves and 1 spine with 2 links per pair, the spine's group towards
// each leaf is its two links to it, and each leaf's towards the other its
// two uplinks (ports counting from 1).
func TestMutAdaptiveGroupOfParallelLinks(t *testing.T) {
	top, err := GenerateTopology("clos", TopoParams{Leaves: 2, Spines: 1, HostsPerLeaf: 1, LinksPerPair: 2, HostGbps: 8, SwitchGbps: 8})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ARGroupsString(top, "minhop", 0, RoutingOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const want = "L1->L2: 2,3\nL2->L1: 2,3\nS1->L1: 1,2\nS1->L2: 3,4\n"
	if got != want {
		t.Errorf("groups\n%s\nwant\n%s", got, want)
	}
}
