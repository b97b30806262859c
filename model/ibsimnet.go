package model

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// WriteIBSimNet writes t as an ibsim net file (linux-rdma/ibsim's
// net-examples format), so that OpenSM run on ibsim routes the same fabric
// (.ci/opensm-oracle.sh): every node in topology order, as
//
//	Switch	36 "leaf1"
//	[1]	"H1"[1]
//	Hca	1 "H1"
//	[1]	"leaf1"[1]
//
// with its linked ports, counting from 1. The quoted id is the node's name,
// which ibsim also makes its node description, so the tables OpenSM dumps
// name ccsweep's nodes (ReadLFTs matches them by name, as the net file has
// no GUIDs). Every host is an Hca of one port (the ports of a multi-port
// adapter become adapters of their own); a switch-like node that is an
// adapter (Node.Adapter: a SHARP aggregation node) is an Hca of its ports;
// any other switch-like node (switches, routers) is a Switch. Link rates
// are not written: ibsim's masks stop at QDR, and OpenSM's minhop, updn
// and ftree do not weigh rates. ibsim uses the first port of the file as
// the subnet manager's: the first switch's port 0.
func (t *Topology) WriteIBSimNet(w io.Writer) error {
	for _, n := range t.Nodes {
		if strings.ContainsAny(n.Name, "\"\n") || n.Name == "" {
			return fmt.Errorf("%w: node name %q cannot be an ibsim id", ErrBadScenario, n.Name)
		}
	}
	type end struct {
		node NodeID
		port int
	}
	peers := make([][]end, len(t.Nodes))
	for i, n := range t.Nodes {
		peers[i] = make([]end, n.Ports)
		for p := range peers[i] {
			peers[i][p].node = -1
		}
	}
	for _, l := range t.Links {
		peers[l.A][l.APort] = end{l.B, l.BPort}
		peers[l.B][l.BPort] = end{l.A, l.APort}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# ibsim net file written by ccsweep (model.WriteIBSimNet): %d nodes, %d links\n", len(t.Nodes), len(t.Links))
	for i, n := range t.Nodes {
		kind := "Switch"
		if n.Host || n.Adapter {
			kind = "Hca"
		}
		fmt.Fprintf(bw, "\n%s\t%d \"%s\"\n", kind, n.Ports, n.Name)
		for p, e := range peers[i] {
			if e.node >= 0 {
				fmt.Fprintf(bw, "[%d]\t\"%s\"[%d]\n", p+1, t.Nodes[e.node].Name, e.port+1)
			}
		}
	}
	return bw.Flush()
}
