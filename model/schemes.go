package model

import (
	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// initScheme sets up the scheme of the run beyond IB CC (initCC), once
// its flows are known.
func (n *Network) initScheme() {
	switch n.cfg.CC.Scheme {
	case params.SchemeSantos:
		n.initSantos()
	case params.SchemeNICRate:
		n.initNICRate()
	case params.SchemeDRB:
		n.initDRB()
	}
	n.srcHook = n.santos != nil || n.nic != nil
}

// schemeSent tells the running scheme that flow fi has started a packet of
// payload bytes at now (srcHook).
func (n *Network) schemeSent(fi int32, now engine.Time, payload int32) {
	if n.santos != nil {
		n.santosSent(fi, now, payload)
	} else {
		n.nicSent(fi, payload)
	}
}
