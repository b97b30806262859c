package fabric

import (
	"errors"
	"fmt"
)

// NodeID indexes a Topology's nodes.
type NodeID int32

// Topology is a network to simulate: switches and hosts joined by links.
// Build one with AddSwitch, AddHost and Connect.
type Topology struct {
	Nodes []Node
	Links []Link

	// Kind names the generator that made the topology ("testbed", "fattree",
	// "clos", "mesh", "torus", "ibnetdiscover"); routing algorithms that
	// need a shape (ftree, dor) check it.
	Kind string
	// Dims are a mesh's or torus's extents, one per dimension; Wrap says the
	// dimensions wrap around (a torus).
	Dims []int
	Wrap bool
}

// Node is a switch or a host (an HCA with one port).
type Node struct {
	Name   string
	Host   bool
	Ports  int // number of ports; a host has 1
	linked []bool

	// Level is a tree switch's distance from the hosts: 1 for a leaf (edge)
	// switch, up to n for the top of an n-level tree; 0 where the generator
	// does not know (hosts, meshes, read fabrics).
	Level int
	// Coord is a mesh or torus router's position, one entry per dimension.
	Coord []int
	// GUID identifies the node as its topology file does: a switch's or
	// router's node GUID, a host's port GUID; 0 where the file gives none
	// (generated fabrics, ibsim net files). ReadLFTs matches a dump's
	// GUIDs with it.
	GUID uint64
	// SysGUID is a switch-like node's system image GUID as its topology
	// file gives it (ibnetdiscover's sysimgguid=): the switches of one
	// director chassis share it. 0 where the file gives none: the node is
	// a system of its own. minhop and updn spread a host's LIDs over
	// systems before nodes, as OpenSM does (spreadRoutes).
	SysGUID uint64
	// Adapter marks a switch-like node that is a channel adapter of the
	// fabric (a SHARP aggregation node): it is never a traffic host, but a
	// subnet manager gives it a LID as any adapter (WriteIBSimNet writes
	// it as an Hca).
	Adapter bool
}

// Link joins port APort of node A with port BPort of node B, full duplex.
type Link struct {
	A, B         NodeID
	APort, BPort int
	Gbps         float64 // data rate after encoding
}

// AddSwitch adds a switch with the given number of ports.
func (t *Topology) AddSwitch(name string, ports int) NodeID {
	t.Nodes = append(t.Nodes, Node{Name: name, Ports: ports, linked: make([]bool, ports)})
	return NodeID(len(t.Nodes) - 1)
}

// AddHost adds a host with one port.
func (t *Topology) AddHost(name string) NodeID {
	t.Nodes = append(t.Nodes, Node{Name: name, Host: true, Ports: 1, linked: make([]bool, 1)})
	return NodeID(len(t.Nodes) - 1)
}

// Connect links the lowest free ports of a and b at the given data rate.
func (t *Topology) Connect(a, b NodeID, gbps float64) error {
	pa, pb := t.freePort(a), t.freePort(b)
	if pa < 0 || pb < 0 {
		return fmt.Errorf("connect %s-%s: no free port", t.Nodes[a].Name, t.Nodes[b].Name)
	}
	t.Nodes[a].linked[pa] = true
	t.Nodes[b].linked[pb] = true
	t.Links = append(t.Links, Link{A: a, B: b, APort: pa, BPort: pb, Gbps: gbps})
	return nil
}

// ConnectPorts links port pa (counting from 0) of a with port pb of b at
// the given data rate.
func (t *Topology) ConnectPorts(a NodeID, pa int, b NodeID, pb int, gbps float64) error {
	for _, e := range []struct {
		n NodeID
		p int
	}{{a, pa}, {b, pb}} {
		nd := &t.Nodes[e.n]
		if e.p < 0 || e.p >= nd.Ports {
			return fmt.Errorf("connect %s-%s: %s has no port %d", t.Nodes[a].Name, t.Nodes[b].Name, nd.Name, e.p+1)
		}
		if nd.linked[e.p] {
			return fmt.Errorf("connect %s-%s: port %d of %s is already linked", t.Nodes[a].Name, t.Nodes[b].Name, e.p+1, nd.Name)
		}
	}
	if a == b {
		return fmt.Errorf("connect %s to itself", t.Nodes[a].Name)
	}
	t.Nodes[a].linked[pa] = true
	t.Nodes[b].linked[pb] = true
	t.Links = append(t.Links, Link{A: a, B: b, APort: pa, BPort: pb, Gbps: gbps})
	return nil
}

// Hosts returns the host nodes in topology order: host index i of routing
// and traffic patterns is Hosts()[i].
func (t *Topology) Hosts() []NodeID {
	var hs []NodeID
	for i := range t.Nodes {
		if t.Nodes[i].Host {
			hs = append(hs, NodeID(i))
		}
	}
	return hs
}

// Switches returns the switch nodes in topology order: switch index i of
// Routes is Switches()[i].
func (t *Topology) Switches() []NodeID {
	var ss []NodeID
	for i := range t.Nodes {
		if !t.Nodes[i].Host {
			ss = append(ss, NodeID(i))
		}
	}
	return ss
}

func (t *Topology) freePort(n NodeID) int {
	for i, used := range t.Nodes[n].linked {
		if !used {
			return i
		}
	}
	return -1
}

// Lookup returns the node called name, or -1.
func (t *Topology) Lookup(name string) NodeID {
	for i, n := range t.Nodes {
		if n.Name == name {
			return NodeID(i)
		}
	}
	return -1
}

// Neighbours lists, for each node, the nodes its links lead to.
func (t *Topology) Neighbours() [][]NodeID {
	adj := make([][]NodeID, len(t.Nodes))
	for _, l := range t.Links {
		adj[l.A] = append(adj[l.A], l.B)
		adj[l.B] = append(adj[l.B], l.A)
	}
	return adj
}

// HopsTo sets dist[v] to the number of links on a shortest path from node v
// to dst, or -1 where there is none, by a breadth-first search over adj
// (Neighbours). Hosts other than dst do not forward.
func (t *Topology) HopsTo(adj [][]NodeID, dst NodeID, dist []int) {
	for i := range dist {
		dist[i] = -1
	}
	dist[dst] = 0
	queue := []NodeID{dst}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if t.Nodes[u].Host && u != dst {
			continue
		}
		for _, v := range adj[u] {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
}

// ErrBadScenario is wrapped by errors about a scenario's topology or flows.
var ErrBadScenario = errors.New("bad scenario")
