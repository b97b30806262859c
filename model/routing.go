package model

import "fmt"

// noRoute marks a forwarding-table entry of a switch that cannot reach the
// destination. route refuses a topology where any host cannot reach another,
// so such a switch is cut off from every host and no packet ever reads it.
const noRoute = -1

// route fills every switch's linear forwarding table with min-hop routes:
// a breadth-first search from each destination HCA, ties broken by the
// lowest port number, so routes are deterministic. It returns an error
// wrapping ErrBadScenario, naming a pair, if some host cannot reach another.
func (n *Network) route(t *Topology, first []int32) error {
	dist := make([]int, len(t.Nodes))
	for s := range n.sws {
		n.sws[s].lft = make([]int32, len(n.hcas))
	}
	for h := range n.hcas {
		for i := range dist {
			dist[i] = -1
		}
		dst := n.hcas[h].node
		dist[dst] = 0
		queue := []NodeID{dst}
		for len(queue) > 0 {
			u := queue[0]
			queue = queue[1:]
			if t.Nodes[u].Host && u != dst {
				continue // hosts do not forward
			}
			for p := int32(0); p < int32(t.Nodes[u].Ports); p++ {
				peer := n.ports[first[u]+p].peer
				if peer < 0 {
					continue
				}
				v := n.ports[peer].node
				if dist[v] < 0 {
					dist[v] = dist[u] + 1
					queue = append(queue, v)
				}
			}
		}
		for o := range n.hcas {
			if src := n.hcas[o].node; dist[src] < 0 {
				return fmt.Errorf("%w: host %s cannot reach host %s: the topology is not connected",
					ErrBadScenario, t.Nodes[src].Name, t.Nodes[dst].Name)
			}
		}
		for s := range n.sws {
			sw := &n.sws[s]
			node := n.ports[sw.firstPort].node
			sw.lft[h] = noRoute
			if dist[node] < 0 {
				continue
			}
			for p := int32(0); p < sw.nPorts; p++ {
				peer := n.ports[sw.firstPort+p].peer
				if peer >= 0 && dist[n.ports[peer].node] == dist[node]-1 {
					sw.lft[h] = sw.firstPort + p
					break
				}
			}
		}
	}
	return nil
}
