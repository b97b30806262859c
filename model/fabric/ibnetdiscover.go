package fabric

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
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

// ibSpeeds are the lane speeds ibnetdiscover prints, slowest first; a
// port's speed is an index into it, plus one (0: unknown).
var ibSpeeds = []string{"SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"}

// linkWidths are the widths ibnetdiscover prints, in lanes.
var linkWidths = map[string]int{"1x": 1, "2x": 2, "4x": 4, "8x": 8, "12x": 12}

// ibsimWidths and ibsimSpeeds are the bits of ibsim's enabled-width and
// enabled-speed masks (a net file's width=, speed=, w= and s=), widest and
// fastest first: lanes, and speed as an index into ibSpeeds plus one.
var (
	ibsimWidths = []ibBit{{8, 12}, {4, 8}, {2, 4}, {1, 1}}
	ibsimSpeeds = []ibBit{{4, 3}, {2, 2}, {1, 1}}
)

// ibBit is a bit of an ibsim mask and the width or speed it stands for.
type ibBit struct{ bit, val uint8 }

// ibMaxLine is the longest line read; a longer one is not a topology file.
const ibMaxLine = 1 << 20

var (
	ibIDLine    = regexp.MustCompile(`^(vendid|devid|sysimgguid|switchguid|caguid|rtguid)=0x[0-9a-fA-F]+(\([0-9a-fA-F]+\))?(\s*#.*)?$`)
	ibIDKey     = regexp.MustCompile(`^(vendid|devid|sysimgguid|switchguid|caguid|rtguid|hcaguids)\s*[=+]`)
	ibNodeStart = regexp.MustCompile(`^(Switch|Ca|Rt|Hca)[\s\d]`)
	ibNodeLine  = regexp.MustCompile(`^(Switch|Ca|Rt|Hca)\s*(\d+)\s*"([^"]*)"(.*)$`)
	ibGUIDID    = regexp.MustCompile(`^([SHR])-([0-9a-fA-F]+)$`)
	ibPortLine  = regexp.MustCompile(`^\[(\d+)\](?:\[ext\s*\d+\])?\s*(?:\([0-9a-fA-F]+\))?\s*"([^"]*)"\s*(?:\[(\d+)\])?(?:\[ext\s*\d+\])?\s*(?:\([0-9a-fA-F]+\))?\s*(.*)$`)
	ibPortGUID  = regexp.MustCompile(`^\[\d+\](?:\[ext\s*\d+\])?\s*\(([0-9a-fA-F]+)\)`)
	ibLinkRate  = regexp.MustCompile(`^\s*lid\s+\d+\s+(\S+)`)
	ibMF0Name   = regexp.MustCompile(`^MF0;([^:]+):`)
	ibChassis   = regexp.MustCompile(`^(Chassis\s+\d+(\s+\(guid 0x[0-9a-fA-F]+\))?|Non-Chassis Nodes|Hostname:.*)$`)
	ibsimSet    = regexp.MustCompile(`^(width|speed)\s*=\s*(\S+)$`)
	ibsimOpt    = regexp.MustCompile(`([A-Za-z]+)\s*=\s*(\S*)`)
)

// ibKey identifies a node: by GUID in ibnetdiscover output, by its quoted
// id in an ibsim net file.
type ibKey struct {
	guid uint64
	name string
}

// ibNode is a node of a topology file.
type ibNode struct {
	kind  byte // 'S' switch, 'H' channel adapter, 'R' router
	key   ibKey
	ports []*ibPort // by port number, 1 to len-1; nil: not linked
	desc  string
	line  int
	fwd   bool   // a switch, router or aggregation node: a topology switch
	end   *ibEnd // a switch-like node's topology node
	// width and speed are, in an ibsim net file, the enabled masks its
	// ports start with (the file's width= and speed= before it).
	width, speed uint8
	sys          uint64 // the sysimgguid= line's GUID above the node, or 0
}

func (n *ibNode) id() string {
	if n.key.name != "" {
		return n.key.name
	}
	return fmt.Sprintf("%c-%016x", n.kind, n.key.guid)
}

// ibPort is one end of a link as a port line states it.
type ibPort struct {
	node     *ibNode
	port     int
	peer     ibKey
	peerKind byte
	peerPort int
	// width and speed: in ibnetdiscover output the active width in lanes
	// and the speed (index into ibSpeeds plus one); in an ibsim net file
	// the enabled masks.
	width, speed uint8
	line         int
	end          *ibEnd // a Ca's port: its topology node
	guid         uint64 // the port's own GUID where the line gives it
}

// ibEnd is a node of the topology: a switch-like node, or a linked port of
// a Ca (port, counting from 1).
type ibEnd struct {
	node *ibNode
	port int
	name string
	id   NodeID
}

func (p *ibPort) String() string { return fmt.Sprintf("%s[%d]", p.node.id(), p.port) }

// peerID names the node p links to as the file does.
func (p *ibPort) peerID() string {
	if p.peer.name != "" {
		return p.peer.name
	}
	return fmt.Sprintf("%c-%016x", p.peerKind, p.peer.guid)
}

// rate shows an ibnetdiscover port's width and speed as the file does.
func (p *ibPort) rate() string { return ibRate(p.width, p.speed) }

func ibRate(width, speed uint8) string {
	return fmt.Sprintf("%dx%s", width, ibSpeeds[speed-1])
}

var ibKinds = map[string]byte{"Switch": 'S', "Ca": 'H', "Hca": 'H', "Rt": 'R'}

// ibAggregationNode is in the description of a SHARP aggregation node, the
// Ca inside each Mellanox/NVIDIA Quantum switch ("Mellanox Technologies
// Aggregation Node"), linked to the switch's last port.
const ibAggregationNode = "Aggregation Node"

// ParseIBNetDiscover reads a fabric from text, as ReadIBNetDiscover does,
// and drops its warnings.
func ParseIBNetDiscover(name string, text []byte) (*Topology, error) {
	t, _, err := ReadIBNetDiscover(name, bytes.NewReader(text))
	return t, err
}

// ReadIBNetDiscover reads a fabric from r: what OFED's ibnetdiscover
// prints, with or without -g (grouping) or -f (full information), or an
// ibsim net file; name is the file's name for messages. It reads r line by
// line (lines up to 1 MiB), keeping the fabric and not the text, so that
// its memory grows with the fabric only. Errors are *TopologyFileError
// (name:line: reason), wrapping ErrBadScenario; warnings, each
// "name:line: what" or "name: what", tell what the reader worked around.
//
// ibnetdiscover output: node lines
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
// the width and speed, such as -f's "s=4 w=2 v=3", is ignored). The id
// lines (vendid=, devid=, sysimgguid=, switchguid=, caguid=, rtguid=) are
// checked for form; a sysimgguid= line gives the node that follows its
// system image GUID (Node.SysGUID), and the others are ignored, as are
// blank lines and lines
// starting with '#'. Of -g's grouping, the "Chassis N (guid ...)",
// "Non-Chassis Nodes" and "Hostname: ..." lines, the "# Chassis N" and
// "# TYPE SLOT" comments
// on id lines and the external port numbers ("[ext N]") are ignored, and a
// node listed again (-g lists a chassis's spine and line switches twice)
// must list the same links. Whitespace may be tabs, spaces or none, line
// ends LF or CRLF. Any other line (a log's header, a shell prompt, an
// error message of the tool) is skipped, and a warning counts the skipped
// lines and quotes the first three.
//
// Every link is listed at both ends, and both must agree on the peer; a
// port out of its node's range, a port listed twice, a peer the file does
// not list and an unknown width or speed ("4x???") are errors, and so is a
// fabric without a linked Ca port. Where the ends disagree on the width or
// the speed, the link runs at the narrower width and the slower speed, the
// most both ends support, with a warning. A link from a node to itself (a
// loopback cable or plug) is left out, its ports kept unused, with a
// warning. A link's data rate (Link.Gbps) is its width in lanes times the
// lane's data rate: SDR 2, DDR 4, QDR 8 Gbit/s (2.5, 5, 10 Gbit/s
// signalling with 8b/10b), FDR10 10, FDR 13.64, EDR 25 (10.3125, 14.0625,
// 25.78125 Gbit/s with 64b/66b), HDR 50, NDR 100 and XDR 200 Gbit/s.
//
// An ibsim net file (linux-rdma/ibsim's net-examples) has the same node and
// port lines with any quoted node id ("Switch1"), Hca for Ca, and no rates:
//
//	width=3
//	Switch	8 "Switch1"
//	[1]	"Hca1"[1]	w=2 s=3
//	Hca	2 "Hca1"
//	[1]	"Switch1"[1]
//
// A port line's peer port defaults to 1. A port's enabled widths and speeds
// are bit masks, ibsim's: width 1 1x, 2 4x, 4 8x, 8 12x; speed 1 SDR, 2
// DDR, 4 QDR; from the port's w= and s=, else the last width= and speed=
// before its node, else 4x (2) and SDR (1). A link runs at the widest
// width and the fastest speed both ends enable; none in common is an
// error. sysimgguid= gives the next node its system image GUID, as above;
// the guid lines (switchguid=, caguid=, hcaguids=, rtguid=, devid=) are
// ignored; aliases ('@'), module= and include are refused. A file is
// an ibsim net file when its first node's id is not a TYPE-GUID or its
// type is Hca.
//
// The topology: Kind "ibnetdiscover", Level 0 throughout. A switch keeps
// its port count and port numbers (port n of the file is port n-1 of the
// Topology). So do routers (Rt) and SHARP aggregation nodes (a Ca whose
// description holds "Aggregation Node"): they are part of the topology as
// switch-like nodes, never hosts, so no traffic starts or ends at them.
// Model hosts have one port, so each linked port of any other Ca becomes a
// host; a Ca's unlinked ports are dropped, and several linked ports of one
// Ca become several hosts (which do not share the Ca's I/O bandwidth). Node
// order does not depend on the file's order, which depends on where
// ibnetdiscover ran: switches come first, ordered by name with runs of
// digits compared as numbers ("leaf2" before "leaf10"); then routers and
// aggregation nodes, by name; then hosts, ordered by the switch-like node
// they link to and its port, so hosts of one leaf switch have consecutive
// host indices; hosts linked to no switch come last, by name.
//
// Names: a node is called by the first word of its description, or for a
// description of the form "MF0;NAME:..." (as managed Mellanox switches
// have) by NAME; characters other than letters, digits, '.', '_' and '-'
// become '_'. Where that name is empty or not unique, the whole description
// is used instead (spaces also becoming '_'), and where that is not unique
// either, the node's id ("S-0002c90200410a20"; in an ibsim file the quoted
// id). An ibsim node without a description is described by its id. A host
// made from a Ca with several linked ports gets "/PORT" appended
// ("node1/2").
func ReadIBNetDiscover(name string, r io.Reader) (*Topology, []string, error) {
	rd := &ibReader{name: name, nodes: map[ibKey]*ibNode{}, width: 2, speed: 1}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), ibMaxLine)
	ln := 0
	for sc.Scan() {
		ln++
		if err := rd.line(ln, sc.Text()); err != nil {
			return nil, nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, rd.fail(ln+1, "line longer than %d MiB: not a topology file", ibMaxLine>>20)
		}
		return nil, nil, rd.fail(0, "%v", err)
	}
	if rd.stray > 0 {
		rd.warn = append(rd.warn, fmt.Sprintf("%s: skipped %s not ibnetdiscover output: %s",
			name, counted(rd.stray, "line"), strings.Join(rd.strayQuotes, ", ")+more(rd.stray, len(rd.strayQuotes))))
	}
	t, err := rd.topology()
	if err != nil {
		return nil, nil, err
	}
	return t, rd.warn, nil
}

// counted is "1 line that is" or "N lines that are".
func counted(n int, what string) string {
	if n == 1 {
		return "1 " + what + " that is"
	}
	return fmt.Sprintf("%d %ss that are", n, what)
}

// more is ", and N more" for n items of which shown are listed.
func more(n, shown int) string {
	if n > shown {
		return fmt.Sprintf(", and %d more", n-shown)
	}
	return ""
}

// ibReader is the state of ReadIBNetDiscover.
type ibReader struct {
	name  string
	ibsim bool // an ibsim net file
	mode  bool // ibsim is decided (at the first node line)
	nodes map[ibKey]*ibNode
	order []*ibNode // file order
	ends  []*ibPort // file order
	dups  []*ibNode // nodes listed again, to compare with the first listing
	cur   *ibNode   // the node whose port lines follow
	// width and speed are an ibsim file's enabled masks for nodes to come.
	width, speed uint8
	sys          uint64   // the last sysimgguid= line's GUID, for the next node
	stray        int      // lines skipped
	strayQuotes  []string // the first three, quoted
	strayAbove   int      // the skipped line just above, or 0
	warn         []string
}

func (rd *ibReader) fail(line int, format string, args ...any) error {
	return &TopologyFileError{Name: rd.name, Line: line, Reason: fmt.Sprintf(format, args...)}
}

// line reads line ln, s.
func (rd *ibReader) line(ln int, s string) error {
	if ln == 1 {
		s = strings.TrimPrefix(s, "\ufeff")
	}
	s = strings.TrimSpace(s)
	switch {
	case s == "" || s[0] == '#' || ibChassis.MatchString(s):
		return nil
	case len(s) > 1 && s[0] == '[' && isDigit(s[1]):
		return rd.portLine(ln, s)
	case ibNodeStart.MatchString(s):
		rd.strayAbove = 0
		return rd.nodeLine(ln, s)
	case rd.mode && !rd.ibsim && ibIDKey.MatchString(s):
		if !ibIDLine.MatchString(s) {
			return rd.fail(ln, "malformed id line: want e.g. caguid=0x2c903000a1b30")
		}
		rd.idLine(s)
		return nil
	case ibIDKey.MatchString(s):
		rd.idLine(s)
		return nil
	case !(rd.mode && !rd.ibsim) && ibsimSet.MatchString(s):
		m := ibsimSet.FindStringSubmatch(s)
		v, err := strconv.ParseUint(m[2], 0, 8)
		if m[1] == "width" {
			if err != nil || v < 1 || v > 15 {
				return rd.fail(ln, "width=%s: want an ibsim width mask from 1 to 15 (1 1x, 2 4x, 4 8x, 8 12x)", m[2])
			}
			rd.width = uint8(v)
		} else {
			if err != nil || v < 1 || v > 7 {
				return rd.fail(ln, "speed=%s: want an ibsim speed mask from 1 to 7 (1 SDR, 2 DDR, 4 QDR)", m[2])
			}
			rd.speed = uint8(v)
		}
		rd.cur, rd.strayAbove = nil, 0
		return nil
	case !(rd.mode && !rd.ibsim) && (s[0] == '@' || strings.HasPrefix(s, "module") || strings.HasPrefix(s, "include")):
		return rd.fail(ln, "ibsim's aliases, module= and include are not supported: write the nodes out")
	}
	rd.stray++
	if len(rd.strayQuotes) < 3 {
		q := s
		if len(q) > 60 {
			q = q[:57] + "..."
		}
		rd.strayQuotes = append(rd.strayQuotes, fmt.Sprintf("line %d %q", ln, q))
	}
	rd.cur, rd.strayAbove = nil, ln
	return nil
}

// idLine reads an id line (vendid=, sysimgguid=, ...): a sysimgguid= line
// gives the next node its system image GUID.
func (rd *ibReader) idLine(s string) {
	rd.cur, rd.strayAbove = nil, 0
	if key, v, ok := strings.Cut(s, "="); ok && strings.TrimSpace(key) == "sysimgguid" {
		v, _, _ = strings.Cut(v, "#")
		v, _, _ = strings.Cut(v, "(")
		if g, err := strconv.ParseUint(strings.TrimSpace(v), 0, 64); err == nil {
			rd.sys = g
		}
	}
}

// nodeLine reads a Switch, Ca, Hca or Rt line.
func (rd *ibReader) nodeLine(ln int, s string) error {
	m := ibNodeLine.FindStringSubmatch(s)
	if m == nil {
		return rd.fail(ln, "malformed node line: want TYPE PORTS \"ID\" # \"DESCRIPTION\", e.g. Ca 2 \"H-0002c903000a1b30\" # \"node1 HCA-1\"")
	}
	kind := ibKinds[m[1]]
	g := ibGUIDID.FindStringSubmatch(m[3])
	if !rd.mode {
		rd.mode, rd.ibsim = true, g == nil || m[1] == "Hca"
	}
	n := &ibNode{kind: kind, line: ln, width: rd.width, speed: rd.speed, sys: rd.sys}
	rd.sys = 0
	if rd.ibsim {
		if m[3] == "" {
			return rd.fail(ln, "%s with an empty id", m[1])
		}
		n.key.name, n.desc = strings.Clone(m[3]), strings.Clone(ibsimDesc(m[4]))
		if n.desc == "" {
			n.desc = m[3]
		}
	} else {
		if g == nil {
			return rd.fail(ln, "%s node with id %q: want TYPE-GUID such as %c-0002c90200410a20 (ids of any other form are an ibsim net file's, and this file's first node is ibnetdiscover's)", m[1], m[3], kind)
		}
		if g[1][0] != kind {
			return rd.fail(ln, "%s node with id %s: want %c-", m[1], m[3], kind)
		}
		guid, ok := parseGUID(g[2])
		if !ok {
			return rd.fail(ln, "malformed GUID %q", g[2])
		}
		n.key.guid = guid
		if d := strings.TrimSpace(m[4]); strings.HasPrefix(d, "#") {
			d = strings.TrimSpace(d[1:])
			if i := strings.LastIndexByte(d, '"'); len(d) > 0 && d[0] == '"' && i > 0 {
				n.desc = strings.Clone(d[1:i]) // not the whole line
			}
		}
	}
	ports, err := strconv.Atoi(m[2])
	if err != nil || ports < 1 || ports > maxSwitchPorts {
		return rd.fail(ln, "%s with %s ports: want 1 to %d", m[1], m[2], maxSwitchPorts)
	}
	n.ports = make([]*ibPort, ports+1)
	n.fwd = kind != 'H' || strings.Contains(n.desc, ibAggregationNode)
	if prev := rd.nodes[n.key]; prev != nil {
		// ibnetdiscover -g lists a chassis's spine and line switches twice:
		// read the second listing and compare.
		n.end = &ibEnd{node: prev}
		rd.dups = append(rd.dups, n)
	} else {
		rd.nodes[n.key] = n
		rd.order = append(rd.order, n)
	}
	rd.cur = n
	return nil
}

// ibsimDesc is the description in the rest of an ibsim node line, after
// its id, as ibsim reads it: after '#', in quotes or up to " enhanced
// port", " base port", " lid" or " lmc".
func ibsimDesc(rest string) string {
	i := strings.IndexByte(rest, '#')
	if i < 0 {
		return ""
	}
	s := strings.TrimSpace(rest[i+1:])
	if strings.HasPrefix(s, `"`) {
		if j := strings.IndexByte(s[1:], '"'); j >= 0 {
			return s[1 : j+1]
		}
		return s[1:]
	}
	for _, w := range []string{" enhanced port ", " base port ", " lid ", " lmc "} {
		if j := strings.Index(s, w); j >= 0 {
			s = s[:j]
		}
	}
	return strings.TrimSpace(s)
}

// portLine reads a port line [N] ... of the current node.
func (rd *ibReader) portLine(ln int, s string) error {
	m := ibPortLine.FindStringSubmatch(s)
	if m == nil || !rd.ibsim && (m[3] == "" || !strings.HasPrefix(m[4], "#")) {
		if rd.ibsim {
			return rd.fail(ln, "malformed port line: want [PORT] \"NODEID\"[PORT] and options w=WIDTHS s=SPEEDS")
		}
		return rd.fail(ln, "malformed port line: want [PORT] \"TYPE-GUID\"[PORT] # ... lid N WIDTHxSPEED")
	}
	cur := rd.cur
	if cur == nil {
		if rd.strayAbove > 0 {
			return rd.fail(ln, "port line not under a Switch, Ca or Rt line (line %d above it was skipped as not ibnetdiscover output)", rd.strayAbove)
		}
		return rd.fail(ln, "port line not under a Switch, Ca or Rt line")
	}
	port, err := strconv.Atoi(m[1])
	if err != nil || port < 1 || port >= len(cur.ports) {
		return rd.fail(ln, "%s has no port %s (it has %d)", cur.id(), m[1], len(cur.ports)-1)
	}
	if prev := cur.ports[port]; prev != nil {
		return rd.fail(ln, "port %d of %s listed twice (first at line %d)", port, cur.id(), prev.line)
	}
	p := &ibPort{node: cur, port: port, line: ln, peerPort: 1}
	if m[3] != "" {
		if p.peerPort, err = strconv.Atoi(m[3]); err != nil {
			return rd.fail(ln, "malformed peer %q[%s]", m[2], m[3])
		}
	}
	if rd.ibsim {
		if m[2] == "" {
			return rd.fail(ln, "port line with an empty peer id")
		}
		p.peer.name = strings.Clone(m[2])
		p.width, p.speed = cur.width, cur.speed
		opts, _, _ := strings.Cut(m[4], "#")
		for _, o := range ibsimOpt.FindAllStringSubmatch(opts, -1) {
			v, err := strconv.ParseUint(o[2], 0, 8)
			switch {
			case o[1] == "w" && err == nil && v >= 1 && v <= 15:
				p.width = uint8(v)
			case o[1] == "s" && err == nil && v >= 1 && v <= 7:
				p.speed = uint8(v)
			case o[1] == "w" || o[1] == "s":
				return rd.fail(ln, "%s=%s: want an ibsim mask, w= from 1 to 15 (1 1x, 2 4x, 4 8x, 8 12x), s= from 1 to 7 (1 SDR, 2 DDR, 4 QDR)", o[1], o[2])
			default:
				return rd.fail(ln, "unknown port option %s=: want w= (enabled widths) or s= (enabled speeds)", o[1])
			}
		}
	} else {
		g := ibGUIDID.FindStringSubmatch(m[2])
		var peer uint64
		ok := g != nil
		if ok {
			peer, ok = parseGUID(g[2])
		}
		if !ok {
			return rd.fail(ln, "malformed peer %q[%s]", m[2], m[3])
		}
		p.peer.guid, p.peerKind = peer, g[1][0]
		r := ibLinkRate.FindStringSubmatch(m[4][strings.LastIndexByte(m[4], '"')+1:])
		if r == nil {
			return rd.fail(ln, "no link width and speed: want the comment to end in lid N WIDTHxSPEED, e.g. lid 3 4xQDR")
		}
		var ok2 bool
		if p.width, p.speed, ok2 = parseRate(r[1]); !ok2 {
			return rd.fail(ln, "unknown link width and speed %q: want 1x, 2x, 4x, 8x or 12x and SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR", r[1])
		}
	}
	if g := ibPortGUID.FindStringSubmatch(s); g != nil {
		p.guid, _ = parseGUID(g[1])
	}
	cur.ports[port] = p
	if cur.end == nil { // not a second listing
		rd.ends = append(rd.ends, p)
	}
	return nil
}

// parseRate reads a width and speed such as "4xQDR".
func parseRate(rate string) (width, speed uint8, ok bool) {
	i := strings.IndexByte(rate, 'x')
	if i < 0 {
		return 0, 0, false
	}
	w := linkWidths[rate[:i+1]]
	s := slices.Index(ibSpeeds, rate[i+1:])
	return uint8(w), uint8(s + 1), w > 0 && s >= 0
}

// topology checks and pairs the ends read and builds the topology.
func (rd *ibReader) topology() (*Topology, error) {
	// A second listing must list what the first did.
	for _, d := range rd.dups {
		n := d.end.node
		same := len(d.ports) == len(n.ports) && d.kind == n.kind
		for i := 1; same && i < len(d.ports); i++ {
			a, b := d.ports[i], n.ports[i]
			same = (a == nil) == (b == nil) && (a == nil || a.peer == b.peer && a.peerKind == b.peerKind &&
				a.peerPort == b.peerPort && a.width == b.width && a.speed == b.speed)
		}
		if !same {
			return nil, rd.fail(d.line, "node %s listed twice (first at line %d), with different ports", n.id(), n.line)
		}
	}

	// Pair the two ends of every link; a link is checked at its first end
	// in file order, and a disagreement is reported at the later line.
	var links [][2]*ibPort
	var gbps []float64
	paired := map[*ibPort]bool{}
	var loops []string
	var disagree []string
	for _, p := range rd.ends {
		if paired[p] {
			continue
		}
		peer := rd.nodes[p.peer]
		switch {
		case peer == nil:
			return nil, rd.fail(p.line, "%s links to %s, which the file does not list", p, p.peerID())
		case !rd.ibsim && peer.kind != p.peerKind:
			return nil, rd.fail(p.line, "%s links to %s, but line %d lists that node as %s", p, p.peerID(), peer.line, peer.id())
		case p.peerPort < 1 || p.peerPort >= len(peer.ports):
			return nil, rd.fail(p.line, "%s links to %s[%d], which has no such port (it has %d, line %d)", p, peer.id(), p.peerPort, len(peer.ports)-1, peer.line)
		}
		q := peer.ports[p.peerPort]
		if peer == p.node { // a loopback cable or plug: the ports stay unused
			paired[p] = true
			loop := fmt.Sprintf("%s-[%d] (line %d)", p, p.peerPort, p.line)
			if q != nil && q != p {
				if q.peer != p.peer || q.peerPort != p.port {
					return nil, rd.fail(q.line, "link ends disagree: line %d says %s links to %s[%d], but this line says %s links to %s[%d]",
						p.line, p, p.peerID(), p.peerPort, q, q.peerID(), q.peerPort)
				}
				paired[q] = true
			}
			loops = append(loops, loop)
			continue
		}
		if q == nil {
			return nil, rd.fail(p.line, "%s links to %s[%d], but %s (line %d) lists no link on port %d", p, peer.id(), p.peerPort, peer.id(), peer.line, p.peerPort)
		}
		later, earlier := q, p
		if later.line < earlier.line {
			later, earlier = earlier, later
		}
		if q.peer != p.node.key || (!rd.ibsim && q.peerKind != p.node.kind) || q.peerPort != p.port {
			return nil, rd.fail(later.line, "link ends disagree: line %d says %s links to %s[%d], but this line says %s links to %s[%d]",
				earlier.line, earlier, earlier.peerID(), earlier.peerPort, later, later.peerID(), later.peerPort)
		}
		var w, s uint8
		if rd.ibsim {
			w, s = ibsimActive(p.width&q.width, ibsimWidths), ibsimActive(p.speed&q.speed, ibsimSpeeds)
			if w == 0 || s == 0 {
				return nil, rd.fail(later.line, "%s and %s enable no width and speed in common: widths %d and %d, speeds %d and %d (ibsim masks)",
					earlier, later, earlier.width, later.width, earlier.speed, later.speed)
			}
		} else {
			w, s = min(p.width, q.width), min(p.speed, q.speed)
			if p.width != q.width || p.speed != q.speed {
				disagree = append(disagree, fmt.Sprintf("%s:%d: link ends disagree on width and speed: %s says %s at line %d, %s says %s here; the link runs at %s",
					rd.name, later.line, earlier, earlier.rate(), earlier.line, later, later.rate(), ibRate(w, s)))
			}
		}
		paired[q] = true
		links = append(links, [2]*ibPort{p, q})
		gbps = append(gbps, float64(w)*laneGbps[ibSpeeds[s-1]])
	}
	if len(loops) > 0 {
		rd.warn = append(rd.warn, fmt.Sprintf("%s: kept as unused ports %d loopback %s (a link from a node to itself): %s", rd.name, len(loops),
			map[bool]string{true: "cable", false: "cables"}[len(loops) == 1], strings.Join(loops[:min(3, len(loops))], ", ")+more(len(loops), 3)))
	}
	rd.warn = append(rd.warn, disagree[:min(3, len(disagree))]...)
	if len(disagree) > 3 {
		rd.warn = append(rd.warn, fmt.Sprintf("%s: and %d more links whose ends disagree on width and speed", rd.name, len(disagree)-3))
	}
	linked := map[*ibPort]bool{}
	for _, l := range links {
		linked[l[0]], linked[l[1]] = true, true
	}

	// The topology's nodes: switches in name order, routers and
	// aggregation nodes in name order, then hosts ordered by the
	// switch-like node and port they link to.
	var sws, fwds, hosts []*ibEnd
	for _, n := range rd.order {
		if n.fwd {
			if n.kind == 'S' {
				sws = append(sws, &ibEnd{node: n})
				continue
			}
			for _, p := range n.ports {
				if linked[p] {
					fwds = append(fwds, &ibEnd{node: n})
					break
				}
			}
			continue
		}
		for _, p := range n.ports {
			if linked[p] {
				e := &ibEnd{node: n, port: p.port}
				p.end = e
				hosts = append(hosts, e)
			}
		}
	}
	if len(hosts) == 0 {
		if rd.stray > 0 {
			return nil, rd.fail(0, "no hosts: no port of a Ca is linked (%d lines were skipped as not ibnetdiscover output)", rd.stray)
		}
		return nil, rd.fail(0, "no hosts: no port of a Ca is linked")
	}
	ibNames(slices.Concat(sws, fwds, hosts))
	byName := func(a, b *ibEnd) int { return naturalCompare(a.name, b.name) }
	slices.SortFunc(sws, byName)
	slices.SortFunc(fwds, byName)
	sws = append(sws, fwds...)
	t := &Topology{Kind: "ibnetdiscover"}
	t.Nodes = make([]Node, 0, len(sws)+len(hosts))
	t.Links = make([]Link, 0, len(links))
	rank := map[*ibNode]int{}
	for i, e := range sws {
		e.id = t.AddSwitch(e.name, len(e.node.ports)-1)
		t.Nodes[e.id].GUID, t.Nodes[e.id].Adapter = e.node.key.guid, e.node.kind == 'H'
		t.Nodes[e.id].SysGUID = e.node.sys
		e.node.end = e
		rank[e.node] = i
	}
	// attach is where a host links: its switch's rank and port, or after
	// every switch for a host linked to no switch.
	attach := func(e *ibEnd) (int, int) {
		p := e.node.ports[e.port]
		if r, ok := rank[rd.nodes[p.peer]]; ok {
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
		t.Nodes[e.id].GUID = e.node.ports[e.port].guid
	}
	end := func(p *ibPort) (NodeID, int) {
		if p.node.fwd {
			return p.node.end.id, p.port - 1
		}
		return p.end.id, 0
	}
	ln := linker{t: t}
	for i, l := range links {
		a, pa := end(l[0])
		b, pb := end(l[1])
		ln.link(a, pa, b, pb, gbps[i])
	}
	if ln.err != nil {
		return nil, rd.fail(0, "%v", ln.err)
	}
	return t, nil
}

// ibsimActive is the widest width or fastest speed in an ibsim mask, or 0.
func ibsimActive(mask uint8, bits []ibBit) uint8 {
	for _, b := range bits {
		if mask&b.bit != 0 {
			return b.val
		}
	}
	return 0
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
		count := map[string]int{}     // ends by name
		owner := map[string]*ibNode{} // a node by name without "/PORT"
		shared := map[string]bool{}   // names without "/PORT" of several nodes
		for _, e := range ends {
			base := name(e.node)
			if o := owner[base]; o == nil {
				owner[base] = e.node
			} else if o != e.node {
				shared[base] = true
			}
			e.name = base
			if linked[e.node] > 1 {
				e.name += "/" + strconv.Itoa(e.port)
			}
			count[e.name]++
		}
		bump := map[*ibNode]bool{}
		for _, e := range ends {
			if (count[e.name] > 1 || shared[name(e.node)]) && form[e.node] < 2 {
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
