package model

import "fmt"

// NodeID indexes a Topology's nodes.
type NodeID int32

// Topology is a network to simulate: switches and hosts joined by links.
// Build one with AddSwitch, AddHost and Connect.
type Topology struct {
	Nodes []Node
	Links []Link
}

// Node is a switch or a host (an HCA with one port).
type Node struct {
	Name   string
	Host   bool
	Ports  int // number of ports; a host has 1
	linked []bool
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

// neighbours lists, for each node, the nodes its links lead to.
func (t *Topology) neighbours() [][]NodeID {
	adj := make([][]NodeID, len(t.Nodes))
	for _, l := range t.Links {
		adj[l.A] = append(adj[l.A], l.B)
		adj[l.B] = append(adj[l.B], l.A)
	}
	return adj
}

// hopsTo sets dist[v] to the number of links on a shortest path from node v
// to dst, or -1 where there is none, by a breadth-first search over adj
// (neighbours). Hosts other than dst do not forward.
func (t *Topology) hopsTo(adj [][]NodeID, dst NodeID, dist []int) {
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
