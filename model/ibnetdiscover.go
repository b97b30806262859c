package model

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// TopologyFileError is an error in a topology file: the file's name, the
// line (counting from 1; 0 for the file as a whole) and what is wrong. It
// wraps ErrBadScenario.
type TopologyFileError struct {
	Name   string
	Line   int
	Reason string
}

// Error returns "name:line: reason", or "name: reason" for the whole file.
func (e *TopologyFileError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %s", e.Name, e.Reason)
	}
	return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Reason)
}

// Unwrap returns ErrBadScenario.
func (e *TopologyFileError) Unwrap() error { return ErrBadScenario }

// laneGbps is the data rate of one lane at each speed ibnetdiscover
// prints: signalling rate times encoding efficiency (8b/10b up to QDR,
// 64b/66b for FDR10, FDR and EDR) and, for the PAM4 speeds HDR, NDR and
// XDR, the IBTA's data rates.
var laneGbps = map[string]float64{
	"SDR":   2.5 * 8 / 10,
	"DDR":   5.0 * 8 / 10,
	"QDR":   10.0 * 8 / 10,
	"FDR10": 10.3125 * 64 / 66,
	"FDR":   14.0625 * 64 / 66,
	"EDR":   25.78125 * 64 / 66,
	"HDR":   50,
	"NDR":   100,
	"XDR":   200,
}

// linkWidths are the widths ibnetdiscover prints, in lanes.
var linkWidths = map[string]int{"1x": 1, "2x": 2, "4x": 4, "8x": 8, "12x": 12}

var (
	ibIDLine   = regexp.MustCompile(`^(vendid|devid|sysimgguid|switchguid|caguid|rtguid)=0x[0-9a-fA-F]+(\([0-9a-fA-F]+\))?$`)
	ibNodeLine = regexp.MustCompile(`^(Switch|Ca|Rt)\s+(\d+)\s+"([SHR])-([0-9a-fA-F]+)"(?:\s*#\s*"(.*)"(.*))?$`)
	ibPortLine = regexp.MustCompile(`^\[(\d+)\](?:\([0-9a-fA-F]+\))?\s*"([SHR])-([0-9a-fA-F]+)"\[(\d+)\]\s*(?:\([0-9a-fA-F]+\))?\s*#(.*)$`)
	ibLinkRate = regexp.MustCompile(`^\s*lid\s+\d+\s+(\S+)`)
	ibMF0Name  = regexp.MustCompile(`^MF0;([^:]+):`)
)

// ibNode is a node of an ibnetdiscover file.
type ibNode struct {
	kind  byte // 'S' switch, 'H' channel adapter, 'R' router
	guid  uint64
	ports []*ibPort // by port number, 1 to len-1; nil: not linked
	desc  string
	line  int
	end   *ibEnd // a switch's topology node
}

func (n *ibNode) id() string { return fmt.Sprintf("%c-%016x", n.kind, n.guid) }

// ibPort is one end of a link as a port line states it.
type ibPort struct {
	node     *ibNode
	port     int
	peer     uint64
	peerKind byte
	peerPort int
	rate     string // e.g. "4xQDR"
	gbps     float64
	line     int
	end      *ibEnd // a Ca's or Rt's port: its topology node
}

// ibEnd is a node of the topology: a switch, or a linked port of a Ca or Rt
// (port, counting from 1).
type ibEnd struct {
	node *ibNode
	port int
	name string
	id   NodeID
}

func (p *ibPort) String() string { return fmt.Sprintf("%s[%d]", p.node.id(), p.port) }

var ibKinds = map[string]byte{"Switch": 'S', "Ca": 'H', "Rt": 'R'}

// ParseIBNetDiscover reads a fabric from the text that OFED's
// ibnetdiscover prints by default; name is the file's name for messages.
// Errors are *TopologyFileError (name:line: reason), wrapping
// ErrBadScenario.
//
// What it reads: node lines
//
//	Switch	36 "S-0002c90200410a20"		# "MF0;sw1:IS4/U1" enhanced port 0 lid 3 lmc 0
//	Ca	2 "H-0002c903000a1b3e"		# "node1 HCA-1"
//	Rt	1 "R-..."		# "..."
//
// (type, number of ports, node GUID with its type letter, the node
// description in quotes) and, after a node line, its port lines
//
//	[1]	"H-0002c903000a1b3e"[1](2c903000a1b3f) 		# "node1 HCA-1" lid 5 4xQDR
//	[1](2c903000a1b3f) 	"S-0002c90200410a20"[1]		# lid 5 lmc 0 "MF0;sw1:IS4/U1" lid 3 4xQDR
//
// (local port, optional port GUID, the peer node and port, then a comment
// whose part after its last quote is "lid N WIDTHxSPEED"; anything after
// the width and speed, such as ibnetdiscover -f's "s=4 w=2 v=3", is
// ignored). The id lines (vendid=, devid=, sysimgguid=, switchguid=,
// caguid=, rtguid=) are checked for form and otherwise ignored, as are
// blank lines and lines starting with '#'. Any other line is an error; so
// is the output of ibnetdiscover -g (chassis grouping, "[ext N]").
//
// Every link is listed at both ends, and both must agree on the peer and
// on the width and speed; a port out of its node's range, a port listed
// twice, a peer the file does not list, a link from a node to itself, an
// unknown width or speed ("4x???") and a fabric without a linked Ca or Rt
// port are errors. A link's data rate (Link.Gbps) is its width in lanes
// times the lane's data rate: SDR 2, DDR 4, QDR 8 Gbit/s (2.5, 5, 10 Gbit/s
// signalling with 8b/10b), FDR10 10, FDR 13.64, EDR 25 (10.3125, 14.0625,
// 25.78125 Gbit/s with 64b/66b), HDR 50, NDR 100 and XDR 200 Gbit/s.
//
// The topology: Kind "ibnetdiscover", Level 0 throughout. A switch keeps
// its port count and port numbers (port n of the file is port n-1 of the
// Topology). Model hosts have one port, so each linked port of a Ca or Rt
// becomes a host; a Ca's unlinked ports are dropped, and several linked
// ports of one Ca become several hosts (which do not share the Ca's I/O
// bandwidth). Node order does not depend on the file's order, which
// depends on where ibnetdiscover ran: switches come first, ordered by name
// with runs of digits compared as numbers ("leaf2" before "leaf10"); then
// hosts, ordered by the switch they link to and that switch's port, so
// hosts of one leaf switch have consecutive host indices; hosts linked to
// no switch come last, by name.
//
// Names: a node is called by the first word of its description, or for a
// description of the form "MF0;NAME:..." (as managed Mellanox switches
// have) by NAME; characters other than letters, digits, '.', '_' and '-'
// become '_'. Where that name is empty or not unique, the whole description
// is used instead (spaces also becoming '_'), and where that is not unique
// either, the node's ibnetdiscover id ("S-0002c90200410a20"). A host made
// from a Ca with several linked ports gets "/PORT" appended ("node1/2").
func ParseIBNetDiscover(name string, text []byte) (*Topology, error) {
	nodes := map[uint64]*ibNode{}
	var order []*ibNode // file order
	var ends []*ibPort  // file order
	var cur *ibNode
	fail := func(line int, format string, args ...any) error {
		return &TopologyFileError{Name: name, Line: line, Reason: fmt.Sprintf(format, args...)}
	}
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for ln := 1; sc.Scan(); ln++ {
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "" || s[0] == '#':
		case ibIDLine.MatchString(s):
			cur = nil
		case strings.HasPrefix(s, "["):
			m := ibPortLine.FindStringSubmatch(s)
			if m == nil {
				return nil, fail(ln, "malformed port line: want [PORT] \"TYPE-GUID\"[PORT] # ... lid N WIDTHxSPEED")
			}
			if cur == nil {
				return nil, fail(ln, "port line not under a Switch, Ca or Rt line")
			}
			port, err := strconv.Atoi(m[1])
			if err != nil || port < 1 || port >= len(cur.ports) {
				return nil, fail(ln, "%s has no port %s (it has %d)", cur.id(), m[1], len(cur.ports)-1)
			}
			if prev := cur.ports[port]; prev != nil {
				return nil, fail(ln, "port %d of %s listed twice (first at line %d)", port, cur.id(), prev.line)
			}
			peer, ok := parseGUID(m[3])
			peerPort, err := strconv.Atoi(m[4])
			if !ok || err != nil {
				return nil, fail(ln, "malformed peer %q[%s]", m[2]+"-"+m[3], m[4])
			}
			p := &ibPort{node: cur, port: port, peer: peer, peerKind: m[2][0], peerPort: peerPort, line: ln}
			r := ibLinkRate.FindStringSubmatch(m[5][strings.LastIndexByte(m[5], '"')+1:])
			if r == nil {
				return nil, fail(ln, "no link width and speed: want the comment to end in lid N WIDTHxSPEED, e.g. lid 3 4xQDR")
			}
			p.rate = r[1]
			if p.gbps = rateGbps(r[1]); p.gbps == 0 {
				return nil, fail(ln, "unknown link width and speed %q: want 1x, 2x, 4x, 8x or 12x and SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR", r[1])
			}
			cur.ports[port] = p
			ends = append(ends, p)
		default:
			m := ibNodeLine.FindStringSubmatch(s)
			if m == nil {
				return nil, fail(ln, "unrecognized line: want a Switch, Ca or Rt line, a port line [N] ..., an id line such as caguid=0x..., or a comment")
			}
			if kind := ibKinds[m[1]]; m[3][0] != kind {
				return nil, fail(ln, "%s node with id %s-%s: want %c-", m[1], m[3], m[4], kind)
			}
			ports, err := strconv.Atoi(m[2])
			if err != nil || ports < 1 || ports > maxSwitchPorts {
				return nil, fail(ln, "%s with %s ports: want 1 to %d", m[1], m[2], maxSwitchPorts)
			}
			guid, ok := parseGUID(m[4])
			if !ok {
				return nil, fail(ln, "malformed GUID %q", m[4])
			}
			if prev := nodes[guid]; prev != nil {
				return nil, fail(ln, "node %s listed twice (first at line %d)", prev.id(), prev.line)
			}
			cur = &ibNode{kind: m[3][0], guid: guid, ports: make([]*ibPort, ports+1), desc: m[5], line: ln}
			nodes[guid] = cur
			order = append(order, cur)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fail(0, "%v", err)
	}

	// Pair the two ends of every link; a link is checked at its first end
	// in file order, and a disagreement is reported at the later line.
	var links [][2]*ibPort
	paired := map[*ibPort]bool{}
	for _, p := range ends {
		if paired[p] {
			continue
		}
		peer := nodes[p.peer]
		switch {
		case peer == nil:
			return nil, fail(p.line, "%s links to %c-%016x, which the file does not list", p, p.peerKind, p.peer)
		case peer.kind != p.peerKind:
			return nil, fail(p.line, "%s links to %c-%016x, but line %d lists that node as %s", p, p.peerKind, p.peer, peer.line, peer.id())
		case peer == p.node:
			return nil, fail(p.line, "%s links %s to itself", p, peer.id())
		case p.peerPort < 1 || p.peerPort >= len(peer.ports):
			return nil, fail(p.line, "%s links to %s[%d], which has no such port (it has %d, line %d)", p, peer.id(), p.peerPort, len(peer.ports)-1, peer.line)
		}
		q := peer.ports[p.peerPort]
		if q == nil {
			return nil, fail(p.line, "%s links to %s[%d], but %s (line %d) lists no link on port %d", p, peer.id(), p.peerPort, peer.id(), peer.line, p.peerPort)
		}
		later, earlier := q, p
		if later.line < earlier.line {
			later, earlier = earlier, later
		}
		if q.peer != p.node.guid || q.peerKind != p.node.kind || q.peerPort != p.port {
			return nil, fail(later.line, "link ends disagree: line %d says %s links to %c-%016x[%d], but this line says %s links to %c-%016x[%d]",
				earlier.line, earlier, earlier.peerKind, earlier.peer, earlier.peerPort, later, later.peerKind, later.peer, later.peerPort)
		}
		if q.rate != p.rate {
			return nil, fail(later.line, "link ends disagree on width and speed: %s says %s at line %d, %s says %s here", earlier, earlier.rate, earlier.line, later, later.rate)
		}
		paired[q] = true
		links = append(links, [2]*ibPort{p, q})
	}

	// The topology's nodes: switches in name order, then hosts ordered by
	// the switch and port they link to.
	var sws, hosts []*ibEnd
	for _, n := range order {
		if n.kind == 'S' {
			sws = append(sws, &ibEnd{node: n})
			continue
		}
		for _, p := range n.ports {
			if p != nil {
				e := &ibEnd{node: n, port: p.port}
				p.end = e
				hosts = append(hosts, e)
			}
		}
	}
	if len(hosts) == 0 {
		return nil, fail(0, "no hosts: no port of a Ca or Rt is linked")
	}
	ibNames(slices.Concat(sws, hosts))
	slices.SortFunc(sws, func(a, b *ibEnd) int { return naturalCompare(a.name, b.name) })
	t := &Topology{Kind: "ibnetdiscover"}
	t.Nodes = make([]Node, 0, len(sws)+len(hosts))
	t.Links = make([]Link, 0, len(links))
	rank := map[*ibNode]int{}
	for i, e := range sws {
		e.id = t.AddSwitch(e.name, len(e.node.ports)-1)
		e.node.end = e
		rank[e.node] = i
	}
	// attach is where a host links: its switch's rank and port, or after
	// every switch for a host linked to no switch.
	attach := func(e *ibEnd) (int, int) {
		p := e.node.ports[e.port]
		if r, ok := rank[nodes[p.peer]]; ok {
			return r, p.peerPort
		}
		return len(sws), 0
	}
	slices.SortFunc(hosts, func(a, b *ibEnd) int {
		ra, pa := attach(a)
		rb, pb := attach(b)
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(pa, pb), naturalCompare(a.name, b.name))
	})
	for _, e := range hosts {
		e.id = t.AddHost(e.name)
	}
	end := func(p *ibPort) (NodeID, int) {
		if p.node.kind == 'S' {
			return p.node.end.id, p.port - 1
		}
		return p.end.id, 0
	}
	ln := linker{t: t}
	for _, l := range links {
		a, pa := end(l[0])
		b, pb := end(l[1])
		ln.link(a, pa, b, pb, l[0].gbps)
	}
	if ln.err != nil {
		return nil, fail(0, "%v", ln.err)
	}
	return t, nil
}

// naturalCompare orders names as people number things: runs of digits
// compare as numbers ("leaf2" before "leaf10"), the rest byte by byte;
// names equal that way compare as strings.
func naturalCompare(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			i0, j0 := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			x, y := strings.TrimLeft(a[i0:i], "0"), strings.TrimLeft(b[j0:j], "0")
			if c := cmp.Or(cmp.Compare(len(x), len(y)), strings.Compare(x, y)); c != 0 {
				return c
			}
			continue
		}
		if a[i] != b[j] {
			return cmp.Compare(a[i], b[j])
		}
		i++
		j++
	}
	return cmp.Or(cmp.Compare(len(a)-i, len(b)-j), strings.Compare(a, b))
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseGUID reads a GUID of at most 16 hex digits.
func parseGUID(s string) (uint64, bool) {
	g, err := strconv.ParseUint(s, 16, 64)
	return g, err == nil && len(s) <= 16
}

// rateGbps returns the data rate of a link ibnetdiscover shows as e.g.
// "4xQDR", or 0 if the width or speed is unknown.
func rateGbps(rate string) float64 {
	i := strings.IndexByte(rate, 'x')
	if i < 0 {
		return 0
	}
	return float64(linkWidths[rate[:i+1]]) * laneGbps[rate[i+1:]]
}

// ibNames names ends as ParseIBNetDiscover documents: each node starts
// with its short name and moves to the longer forms while a name of it is
// empty, shared, or another node's ibnetdiscover id. Ids are unique and
// hold no '/' (which sanitized names lack too), so the loop ends.
func ibNames(ends []*ibEnd) {
	linked := map[*ibNode]int{}
	ids := map[string]bool{}
	for _, e := range ends {
		linked[e.node]++
		ids[e.node.id()] = true
	}
	form := map[*ibNode]int{} // 0 short, 1 whole description, 2 id
	name := func(n *ibNode) string {
		for ; form[n] < 2; form[n]++ {
			s := ibShortName(n.desc)
			if form[n] == 1 {
				s = ibSanitize(n.desc)
			}
			if s != "" && !ids[s] {
				return s
			}
		}
		return n.id()
	}
	for {
		count := map[string]int{}
		for _, e := range ends {
			e.name = name(e.node)
			if linked[e.node] > 1 {
				e.name += "/" + strconv.Itoa(e.port)
			}
			count[e.name]++
		}
		bump := map[*ibNode]bool{}
		for _, e := range ends {
			if count[e.name] > 1 && form[e.node] < 2 {
				bump[e.node] = true
			}
		}
		if len(bump) == 0 {
			return
		}
		for n := range bump {
			form[n]++
		}
	}
}

// ibShortName is the short name of a node description: NAME of
// "MF0;NAME:...", or else the first word.
func ibShortName(desc string) string {
	if m := ibMF0Name.FindStringSubmatch(desc); m != nil {
		return ibSanitize(m[1])
	}
	if f := strings.Fields(desc); len(f) > 0 {
		return ibSanitize(f[0])
	}
	return ""
}

// ibSanitize replaces the characters of s that a node name must not have
// (anything but letters, digits, '.', '_' and '-') with '_'.
func ibSanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, strings.TrimSpace(s))
}
