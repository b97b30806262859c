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
func (n *Network) route(t *Topology) error {
	dist := make([]int, len(t.Nodes))
	adj := t.neighbours()
	for s := range n.sws {
		n.sws[s].lft = make([]int32, len(n.hcas))
	}
	for h := range n.hcas {
		dst := n.hcas[h].node
		t.hopsTo(adj, dst, dist)
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
