package params

import (
	"fmt"
	"slices"
)

// A host's payload rate: what its adapter moves between host memory and
// the network, each direction. The link bounds it anyway (a packet's wire
// bytes at the link's rate); the adapter's PCIe, or an explicit rate,
// bounds it further:
//
//   - pcie_gen and pcie_lanes given: the PCIe payload rate (PCIePayloadGbps)
//     of every host, at pcie_max_payload; host_io_gbps does not apply;
//   - else host_io_gbps when above 0 (the testbed's 13: its measured
//     single-flow rate on PCIe 1.1 x8);
//   - else (host_io_gbps = 0, the default of an imported fabric) the host's
//     own link's data rate: no cap beyond the link, each host at the rate
//     the dump gives its link (4xEDR 100, 4xHDR 200, ...).
//
// docs/scenarios.md ("Hosts: link and PCIe") gives the derivation and its
// check against measured rates.

// pcieGen is what a PCIe generation's lanes carry: the transfer rate per
// lane and the encoding's payload fraction, and the framing bytes of a TLP
// and of a DLLP at that generation. PCI Express Base Specification: 1.x
// 2.5 GT/s and 2.0 5 GT/s with 8b/10b encoding, a TLP framed by STP and END
// symbols (2 bytes), a DLLP by SDP and END (2 bytes); 3.0 8 GT/s, 4.0 16
// GT/s and 5.0 32 GT/s with 128b/130b encoding, a TLP framed by a 4-byte
// STP token (no END), a DLLP by a 2-byte SDP token.
type pcieGen struct {
	gts       float64 // GT/s per lane
	encoding  float64 // payload bits per transferred bit
	tlpFrame  int     // framing bytes of a TLP
	dllpFrame int     // framing bytes of a DLLP
}

var pcieGens = [...]pcieGen{
	1: {2.5, 8.0 / 10, 2, 2},
	2: {5, 8.0 / 10, 2, 2},
	3: {8, 128.0 / 130, 4, 2},
	4: {16, 128.0 / 130, 4, 2},
	5: {32, 128.0 / 130, 4, 2},
}

// TLP and DLLP sizes beyond the framing (PCI Express Base Specification):
// a TLP carries a 2-byte sequence number, a 4-DW header (16 bytes: a
// memory write or read completion to a 64-bit host address), its payload
// and a 4-byte LCRC (no ECRC); a DLLP is 6 bytes (type, 3 bytes, CRC 16).
const (
	tlpSeqBytes    = 2
	tlpHeaderBytes = 16
	tlpLCRCBytes   = 4
	dllpBytes      = 6
	// dllpsPerTLP: an ACK and an UpdateFC DLLP for every TLP, the busy
	// bidirectional case of PLX's PEX 8532 data book (§8.4.1.4, "100 %
	// DLLP"): an adapter that sends and receives at once shares each
	// direction with the other's acknowledgements and credit updates.
	dllpsPerTLP = 2
)

// pcieWidths are the link widths PCIe defines.
var pcieWidths = []int{1, 2, 4, 8, 12, 16, 32}

// PCIePayloadGbps returns the payload rate in Gbit/s of a PCIe link of
// generation gen (1-5) and lanes lanes, moving TLPs of maxPayload bytes
// (the max payload size, 128-4096): the lanes' data rate after encoding
// times maxPayload over the bytes each TLP takes with its framing, sequence
// number, header and LCRC and its share of DLLPs (dllpsPerTLP). PCIe 1.1
// x8 at 128 bytes gives 16 · 128/168 = 12.19 Gbit/s, at 256 bytes 16 ·
// 256/296 = 13.84.
func PCIePayloadGbps(gen, lanes, maxPayload int) float64 {
	g := pcieGens[gen]
	perTLP := maxPayload + g.tlpFrame + tlpSeqBytes + tlpHeaderBytes + tlpLCRCBytes + dllpsPerTLP*(dllpBytes+g.dllpFrame)
	return g.gts * float64(lanes) * g.encoding * float64(maxPayload) / float64(perTLP)
}

// HostPayloadGbps returns the payload rate of a host whose link carries
// linkGbps of data under c (see the top of this file).
func (c *Config) HostPayloadGbps(linkGbps float64) float64 {
	switch {
	case c.PCIeGen > 0 && c.PCIeLanes > 0:
		return PCIePayloadGbps(c.PCIeGen, c.PCIeLanes, c.PCIeMaxPayload)
	case c.HostIOGbps > 0:
		return c.HostIOGbps
	}
	return linkGbps
}

// validatePCIe checks that the PCIe parameters come together and are
// widths and sizes PCIe has.
func (c *Config) validatePCIe() error {
	if (c.PCIeGen > 0) != (c.PCIeLanes > 0) {
		name, v := "pcie_gen", c.PCIeGen
		if c.PCIeLanes > 0 {
			name, v = "pcie_lanes", c.PCIeLanes
		}
		return &ParamError{Name: name, Value: v, Reason: "give pcie_gen and pcie_lanes together (or neither: host_io_gbps)"}
	}
	if c.PCIeLanes > 0 && !slices.Contains(pcieWidths, c.PCIeLanes) {
		return &ParamError{Name: "pcie_lanes", Value: c.PCIeLanes, Reason: fmt.Sprintf("want one of %v", pcieWidths)}
	}
	if m := c.PCIeMaxPayload; m&(m-1) != 0 {
		return &ParamError{Name: "pcie_max_payload", Value: m, Reason: "want 128, 256, 512, 1024, 2048 or 4096"}
	}
	return nil
}
