package fabric

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Reading forwarding tables a subnet manager computed.
//
// ReadLFTs reads what WriteLFTs writes and OpenSM dumps (opensm-lfts.dump,
// see lftdump.go), and the output of infiniband-diags' ibroute and
// dump_lfts.sh, which differ only in the header's description being in
// parentheses without quotes and in entry lines of the form
//
//	0x0005 002 : (Channel Adapter portguid 0x0002c903000a1b41: 'node1 HCA-1')
//
// plus column titles ("Lid  Out   Destination", "Port     Info"), which
// are skipped, as are blank lines, "N lids dumped" / "N valid lids dumped"
// trailers and lines starting with '#'.

var (
	lftHeader = regexp.MustCompile(`^Unicast lids \[(?:0x)?[0-9a-fA-F]+-(?:0x)?[0-9a-fA-F]+\] of switch (?:Lid|DR path|lid)?\s*(\S+)\s+guid 0x([0-9a-fA-F]+) \((.*)\):$`)
	lftEntry  = regexp.MustCompile(`^0x([0-9a-fA-F]+)\s+(\d+)\s*[#:]\s*\(?\s*(Channel Adapter|Switch|Router)\s+portguid 0x([0-9a-fA-F]+):\s*'(.*)'\)?\s*$`)
	lftSkip   = regexp.MustCompile(`^(\d+ (valid )?lids dumped|Lid\s+Out\s+Destination|Port\s+Info|.*\bno more valid lids\b.*)$`)
)

// lftEntryLine is one routed LID of a switch in a dump.
type lftEntryLine struct {
	sw   int32 // switch index
	lid  int   // the dump's LID
	port int   // the dump's port, 0 the switch itself
	line int
	guid uint64 // the destination's port GUID
}

// ReadLFTs reads the forwarding tables of t's switches from r (name is the
// file's name for messages): an opensm-lfts.dump, or ibroute or
// dump_lfts.sh output (see above). The LMC is the number of LIDs each host
// has in the dump (2^LMC, the same for every host), and host h's path p is
// its p-th LID in increasing order.
//
// Switches and hosts are matched by GUID where t has GUIDs (Node.GUID, an
// imported fabric's), else by name: a dump's description in quotes equal
// to a node's name (what WriteLFTs and OpenSM on a net file of
// WriteIBSimNet give), else its short name as ParseIBNetDiscover makes it.
// A switch of the dump that matches none of t's is an error; LIDs of
// switches, routers and adapters that are not hosts (SHARP aggregation
// nodes) are skipped, and a Channel Adapter the fabric does not have is
// skipped with a warning. The ports of a multi-port adapter (hosts
// NAME/PORT) that a dump gives one description match in increasing port
// GUID order. A host with no LID in the dump, a LID given to two hosts and
// a port a switch does not have are errors. The tables are
// not checked: InspectLFTs and a scenario's [routing] lfts check that
// every host reaches every other.
func ReadLFTs(t *Topology, name string, r io.Reader) (*Routes, []string, error) {
	fail := func(line int, format string, args ...any) error {
		return &TopologyFileError{Name: name, Line: line, Reason: fmt.Sprintf(format, args...)}
	}
	f := NewFabric(t)
	byGUID := map[uint64]NodeID{}
	byName := map[string]NodeID{}
	for i, n := range t.Nodes {
		if n.GUID != 0 {
			byGUID[n.GUID] = NodeID(i)
		}
		byName[n.Name] = NodeID(i)
	}
	// match finds the node a dump names by GUID and description, or -1.
	match := func(guid uint64, desc string) NodeID {
		if n, ok := byGUID[guid]; ok {
			return n
		}
		if n, ok := byName[desc]; ok {
			return n
		}
		if n, ok := byName[ibShortName(desc)]; ok {
			return n
		}
		return -1
	}
	var entries []lftEntryLine
	descOf := map[uint64]string{} // an adapter port's description by port GUID
	var guids []uint64            // in order of appearance
	var unknown []string
	nUnknown := 0
	cur := int32(-1)
	seen := make([]int, len(f.sws)) // line of a switch's header, 0: not yet
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), ibMaxLine)
	ln := 0
	for sc.Scan() {
		ln++
		s := strings.TrimSpace(sc.Text())
		if ln == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		switch {
		case s == "" || s[0] == '#' || lftSkip.MatchString(s):
			continue
		case strings.HasPrefix(s, "Unicast lids"):
			m := lftHeader.FindStringSubmatch(s)
			if m == nil {
				return nil, nil, fail(ln, "malformed switch header: want Unicast lids [0x0-0xMAX] of switch Lid L guid 0xGUID ('DESCRIPTION'):")
			}
			guid, _ := strconv.ParseUint(m[2], 16, 64)
			desc := strings.Trim(m[3], "'")
			n := match(guid, desc)
			if n < 0 || t.Nodes[n].Host {
				return nil, nil, fail(ln, "switch 0x%016x '%s' is not a switch of the fabric", guid, desc)
			}
			cur = f.sw[n]
			if seen[cur] > 0 {
				return nil, nil, fail(ln, "switch %s listed twice (first at line %d)", t.Nodes[n].Name, seen[cur])
			}
			seen[cur] = ln
		case strings.HasPrefix(s, "0x"):
			m := lftEntry.FindStringSubmatch(s)
			if m == nil {
				return nil, nil, fail(ln, "malformed entry: want 0xLID PORT # Channel Adapter portguid 0xGUID: 'DESCRIPTION'")
			}
			if cur < 0 {
				return nil, nil, fail(ln, "entry before any switch header")
			}
			lid, err1 := strconv.ParseUint(m[1], 16, 16)
			port, err2 := strconv.Atoi(m[2])
			if err1 != nil || err2 != nil || lid == 0 || lid >= 0xc000 {
				return nil, nil, fail(ln, "LID 0x%s: want a unicast LID from 0x1 to 0xbfff", m[1])
			}
			if m[3] != "Channel Adapter" {
				continue
			}
			guid, _ := strconv.ParseUint(m[4], 16, 64)
			if _, ok := descOf[guid]; !ok {
				descOf[guid] = strings.Clone(m[5])
				guids = append(guids, guid)
			}
			if ports := t.Nodes[f.sws[cur]].Ports; port < 1 || port > ports {
				return nil, nil, fail(ln, "switch %s has no port %d towards '%s' (it has %d)", t.Nodes[f.sws[cur]].Name, port, m[5], ports)
			}
			entries = append(entries, lftEntryLine{sw: cur, lid: int(lid), port: port, line: ln, guid: guid})
		default:
			return nil, nil, fail(ln, "not a forwarding table line: want a switch header or 0xLID PORT # ...")
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, nil, fail(ln+1, "line longer than %d MiB", ibMaxLine>>20)
		}
		return nil, nil, fail(0, "%v", err)
	}
	// The adapters' ports: by GUID or name, else as ports of a multi-port
	// adapter, whose hosts are called NAME/PORT and whose port GUIDs
	// the dump lists under one description: in increasing GUID order for
	// increasing port numbers (as ibsim and adapters number them).
	node := map[uint64]NodeID{}
	byDesc := map[string][]uint64{}
	for _, g := range guids {
		if n := match(g, descOf[g]); n >= 0 {
			node[g] = n
		} else {
			byDesc[descOf[g]] = append(byDesc[descOf[g]], g)
		}
	}
	multi := map[string][]NodeID{} // NAME -> hosts NAME/PORT in port order
	for _, h := range f.hosts {
		nm := t.Nodes[h].Name
		if i := strings.LastIndexByte(nm, '/'); i > 0 {
			if _, err := strconv.Atoi(nm[i+1:]); err == nil {
				multi[nm[:i]] = append(multi[nm[:i]], h)
			}
		}
	}
	for desc, gs := range byDesc {
		hs := multi[desc]
		if hs == nil {
			hs = multi[ibShortName(desc)]
		}
		if len(hs) != len(gs) {
			nUnknown += len(gs)
			if len(unknown) < 3 {
				unknown = append(unknown, fmt.Sprintf("'%s'", desc))
			}
			continue
		}
		slices.SortFunc(hs, func(a, b NodeID) int { return naturalCompare(t.Nodes[a].Name, t.Nodes[b].Name) })
		slices.Sort(gs)
		for i, g := range gs {
			node[g] = hs[i]
		}
	}
	lidHost := map[int]int32{}
	for _, e := range entries {
		n, ok := node[e.guid]
		if !ok || !t.Nodes[n].Host {
			continue
		}
		h := f.host[n]
		if prev, ok := lidHost[e.lid]; ok && prev != h {
			return nil, nil, fail(e.line, "LID 0x%x is host %s's here and host %s's elsewhere", e.lid, t.Nodes[n].Name, t.Nodes[f.hosts[prev]].Name)
		}
		lidHost[e.lid] = h
	}
	// Each host's LIDs, in increasing order, are its paths.
	lids := make([][]int, len(f.hosts))
	for lid, h := range lidHost {
		lids[h] = append(lids[h], lid)
	}
	per := -1
	for h, l := range lids {
		if len(l) == 0 {
			return nil, nil, fail(0, "host %s has no LID in the tables", t.Nodes[f.hosts[h]].Name)
		}
		if per < 0 {
			per = len(l)
		}
		if len(l) != per || bits.OnesCount(uint(per)) != 1 || per > 1<<7 {
			return nil, nil, fail(0, "host %s has %d LIDs and host %s %d: want 2^LMC LIDs for every host",
				t.Nodes[f.hosts[0]].Name, len(lids[0]), t.Nodes[f.hosts[h]].Name, len(l))
		}
		slices.Sort(l)
	}
	lmc := bits.TrailingZeros(uint(per))
	path := map[int]int{} // dump LID -> ccsweep LID
	for h, l := range lids {
		for p, lid := range l {
			path[lid] = h<<lmc | p
		}
	}
	rt := f.newRoutes(lmc)
	for _, e := range entries {
		if n, ok := node[e.guid]; ok && t.Nodes[n].Host {
			rt.LFT[e.sw][path[e.lid]] = int32(e.port - 1)
		}
	}
	var warn []string
	if nUnknown > 0 {
		warn = append(warn, fmt.Sprintf("%s: skipped the LIDs of %d channel adapter ports the fabric does not have: %s", name, nUnknown,
			strings.Join(unknown, ", ")+more(nUnknown, len(unknown))))
	}
	return rt, warn, nil
}

// InspectLFTs reads t's forwarding tables from r (ReadLFTs) and describes
// the fabric as InspectFabric does, with Routing "lfts". A host the tables
// leave without a route to another is an error naming the switch where the
// route ends; a channel cycle on vls VLs is reported in Deadlock.
func InspectLFTs(t *Topology, name string, r io.Reader, vls int) (*FabricInfo, []string, error) {
	rt, warn, err := ReadLFTs(t, name, r)
	if err != nil {
		return nil, nil, err
	}
	info, err := describeFabric(NewFabric(t), rt, "lfts", nil, vls)
	return info, warn, err
}
