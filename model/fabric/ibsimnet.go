package fabric

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteIBSimNet writes t as an ibsim net file (linux-rdma/ibsim's
// net-examples format), so that OpenSM run on ibsim routes the same fabric
// (.ci/opensm-oracle.sh): the hosts and other adapters, then the switches,
// each in topology order, as
//
//	Switch	36 "leaf1"
//	[1]	"H1"[1]
//	Hca	1 "H1"
//	[1]	"leaf1"[1]
//
// with its linked ports, counting from 1. The quoted id is the node's name,
// which ibsim also makes its node description, so the tables OpenSM dumps
// name ccsweep's nodes (ReadLFTs matches them by name where the GUIDs ibsim
// gave them are not the fabric's). Every host is a port of an Hca: the hosts NAME/PORT of an
// imported multi-port adapter are ports PORT of one Hca NAME, as the
// fabric has them, any other host an Hca of one port; a switch-like node that is an
// adapter (Node.Adapter: a SHARP aggregation node) is an Hca of its ports,
// described as "NAME Aggregation Node" so that it reads back as one;
// any other switch-like node (switches, routers) is a Switch, after a
// switchguid= line with its GUID where every switch has one (an import)
// and a sysimgguid= line where it has a system image GUID (Node.SysGUID:
// the switches of a chassis), which ibsim gives it. Link rates
// are not written: ibsim's masks stop at QDR, and OpenSM's minhop, updn
// and ftree do not weigh rates. ibsim uses the first port of the file as
// the subnet manager's: the first host's, as OpenSM runs on a host. (A
// first node of type Hca also makes ReadIBNetDiscover read the file as an
// ibsim net file whatever the switches are called.)
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
	// The ports of a multi-port adapter (hosts NAME/PORT of an imported
	// fabric, fabric.adapters) are one Hca NAME with those ports.
	f := NewFabric(t)
	adapter := f.adapters()
	id := make([]string, len(t.Nodes)) // the node's ibsim id
	port := make([]int, len(t.Nodes))  // a host's port of its Hca, counting from 1
	members := map[int32][]NodeID{}    // an adapter's hosts
	for i, n := range t.Nodes {
		id[i], port[i] = n.Name, 1
	}
	for h, n := range f.hosts {
		members[adapter[h]] = append(members[adapter[h]], n)
	}
	for _, hs := range members {
		if len(hs) < 2 {
			continue
		}
		for _, n := range hs {
			name := t.Nodes[n].Name
			i := strings.LastIndexByte(name, '/')
			id[n] = name[:i]
			port[n], _ = strconv.Atoi(name[i+1:])
		}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# ibsim net file written by ccsweep (model.WriteIBSimNet): %d nodes, %d links\n", len(t.Nodes), len(t.Links))
	// peerPort is the port, counting from 1, of end e in the file.
	peerPort := func(e end) int {
		if t.Nodes[e.node].Host {
			return port[e.node]
		}
		return e.port + 1
	}
	// Switches keep their GUIDs where every one has one (an import), so
	// that OpenSM orders them as on the fabric itself (routingOrder).
	switchGUIDs := true
	for _, n := range t.Nodes {
		if !n.Host && !n.Adapter && n.GUID == 0 {
			switchGUIDs = false
		}
	}
	written := map[string]bool{}
	for _, adapters := range []bool{true, false} {
		for i, n := range t.Nodes {
			if (n.Host || n.Adapter) != adapters || written[id[i]] {
				continue
			}
			written[id[i]] = true
			if n.Host {
				// The adapter's hosts, one port each.
				hs := []NodeID{NodeID(i)}
				if h := f.host[i]; len(members[adapter[h]]) > 1 {
					hs = members[adapter[h]]
				}
				ports := 0
				for _, x := range hs {
					ports = max(ports, port[x])
				}
				fmt.Fprintf(bw, "\nHca\t%d \"%s\"\n", ports, id[i])
				for _, x := range hs {
					if e := peers[x][0]; e.node >= 0 {
						fmt.Fprintf(bw, "[%d]\t\"%s\"[%d]\n", port[x], id[e.node], peerPort(e))
					}
				}
				continue
			}
			kind := "Switch"
			if n.Adapter {
				kind = "Hca"
			}
			fmt.Fprintln(bw)
			if kind == "Switch" && switchGUIDs {
				fmt.Fprintf(bw, "switchguid=%#x\n", n.GUID)
			}
			if n.SysGUID != 0 {
				fmt.Fprintf(bw, "sysimgguid=%#x\n", n.SysGUID)
			}
			if n.Adapter {
				// The description keeps it an aggregation node when read back.
				fmt.Fprintf(bw, "%s\t%d \"%s\" # \"%s %s\"\n", kind, n.Ports, n.Name, n.Name, ibAggregationNode)
			} else {
				fmt.Fprintf(bw, "%s\t%d \"%s\"\n", kind, n.Ports, n.Name)
			}
			for p, e := range peers[i] {
				if e.node >= 0 {
					fmt.Fprintf(bw, "[%d]\t\"%s\"[%d]\n", p+1, id[e.node], peerPort(e))
				}
			}
		}
	}
	return bw.Flush()
}
