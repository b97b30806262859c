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
	} {
		if f.off+f.size > 64 {
			t.Errorf("port.%s at bytes %d-%d, beyond the first cache line", f.name, f.off, f.off+f.size-1)
		}
	}
}

