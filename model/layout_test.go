package model

import (
	"testing"
	"unsafe"
)

// TestPortHotFieldsShareALine: a port is two cache lines, and the fields
// that every event reaching a port reads lie in its first 64 bytes, so such
// an event loads one line of it (network.go, port).
func TestPortHotFieldsShareALine(t *testing.T) {
	var p port
	if s := unsafe.Sizeof(p); s != 128 {
		t.Errorf("a port takes %d bytes, want 128 (two cache lines)", s)
	}
	for _, f := range []struct {
		name      string
		off, size uintptr
	}{
		{"linkFree", unsafe.Offsetof(p.linkFree), unsafe.Sizeof(p.linkFree)},
		{"txWakeAt", unsafe.Offsetof(p.txWakeAt), unsafe.Sizeof(p.txWakeAt)},
		{"txPs", unsafe.Offsetof(p.txPs), unsafe.Sizeof(p.txPs)},
		{"prop", unsafe.Offsetof(p.prop), unsafe.Sizeof(p.prop)},
		{"peer", unsafe.Offsetof(p.peer), unsafe.Sizeof(p.peer)},
		{"owner", unsafe.Offsetof(p.owner), unsafe.Sizeof(p.owner)},
		{"peerOwner", unsafe.Offsetof(p.peerOwner), unsafe.Sizeof(p.peerOwner)},
		{"queued", unsafe.Offsetof(p.queued), unsafe.Sizeof(p.queued)},
		{"txWire", unsafe.Offsetof(p.txWire), unsafe.Sizeof(p.txWire)},
		{"local", unsafe.Offsetof(p.local), unsafe.Sizeof(p.local)},
		{"peerCap", unsafe.Offsetof(p.peerCap), unsafe.Sizeof(p.peerCap)},
		{"host", unsafe.Offsetof(p.host), unsafe.Sizeof(p.host)},
		{"toHost", unsafe.Offsetof(p.toHost), unsafe.Sizeof(p.toHost)},
		{"peerLocal", unsafe.Offsetof(p.peerLocal), unsafe.Sizeof(p.peerLocal)},
	} {
		if f.off+f.size > 64 {
			t.Errorf("port.%s at bytes %d-%d, beyond the first cache line", f.name, f.off, f.off+f.size-1)
		}
	}
}

// TestFlowHotFieldsShareALine: a flow is 256 bytes, and what sending a
// packet and an adapter's scan of its flows read lies in its first 64
// bytes (network.go, flowState).
func TestFlowHotFieldsShareALine(t *testing.T) {
	var f flowState
	if s := unsafe.Sizeof(f); s != 256 {
		t.Errorf("a flow takes %d bytes, want 256 (four cache lines)", s)
	}
	for _, c := range []struct {
		name      string
		off, size uintptr
	}{
		{"readyAt", unsafe.Offsetof(f.readyAt), unsafe.Sizeof(f.readyAt)},
		{"gen", unsafe.Offsetof(f.gen), unsafe.Sizeof(f.gen)},
		{"msgLeft", unsafe.Offsetof(f.msgLeft), unsafe.Sizeof(f.msgLeft)},
		{"msgSize", unsafe.Offsetof(f.msgSize), unsafe.Sizeof(f.msgSize)},
		{"born", unsafe.Offsetof(f.born), unsafe.Sizeof(f.born)},
		{"sent", unsafe.Offsetof(f.sent), unsafe.Sizeof(f.sent)},
		{"dst", unsafe.Offsetof(f.dst), unsafe.Sizeof(f.dst)},
		{"dlid", unsafe.Offsetof(f.dlid), unsafe.Sizeof(f.dlid)},
		{"cc", unsafe.Offsetof(f.cc), unsafe.Sizeof(f.cc)},
		{"vl", unsafe.Offsetof(f.vl), unsafe.Sizeof(f.vl)},
		{"active", unsafe.Offsetof(f.active), unsafe.Sizeof(f.active)},
	} {
		if c.off+c.size > 64 {
			t.Errorf("flowState.%s at bytes %d-%d, beyond the first cache line", c.name, c.off, c.off+c.size-1)
		}
	}
}

// TestPacketIsOneCacheLine: a packet is 64 bytes, so that in the packets'
// slice each is one line, and a VoQ's pop (switch.go) reads the new head's
// credits from the packet it pops (packet.nextCredits), not from a second
// packet's line.
func TestPacketIsOneCacheLine(t *testing.T) {
	var pk packet
	if s := unsafe.Sizeof(pk); s != 64 {
		t.Errorf("a packet takes %d bytes, want 64 (one cache line)", s)
	}
}
