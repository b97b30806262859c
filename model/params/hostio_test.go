package params_test

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/model/params"
)

// TestPCIePayloadGbps checks the PCIe payload rate against figures worked
// by hand from the PCI Express Base Specification's rates, encodings and
// packet formats (docs/scenarios.md, "Hosts: link and PCIe"): per TLP a
// 4-DW header (16 bytes), a sequence number (2), an LCRC (4) and the
// framing (STP+END 2 bytes at 8b/10b, a 4-byte STP token at 128b/130b),
// plus an ACK and an UpdateFC DLLP of 6 bytes and their framing (2).
func TestPCIePayloadGbps(t *testing.T) {
	for _, c := range []struct {
		gen, lanes, mps int
		want            float64
	}{
		// 2.5 GT/s · 8 · 8/10 = 16 Gbit/s; 128 + 24 + 16 = 168 bytes a TLP.
		{1, 8, 128, 16 * 128.0 / 168},
		// 256 + 24 + 16 = 296.
		{1, 8, 256, 16 * 256.0 / 296},
		// 5 GT/s · 16 · 8/10 = 64; 512 + 40 = 552.
		{2, 16, 512, 64 * 512.0 / 552},
		// 8 GT/s · 16 · 128/130 = 126.03; 256 + 26 + 16 = 298.
		{3, 16, 256, 8 * 16 * 128.0 / 130 * 256 / 298},
		// 16 GT/s · 16 · 128/130 = 252.06; 4096 + 42 = 4138.
		{4, 16, 4096, 16 * 16 * 128.0 / 130 * 4096 / 4138},
		// 32 GT/s · 16 · 128/130 = 504.12; 256 + 42 = 298.
		{5, 16, 256, 32 * 16 * 128.0 / 130 * 256 / 298},
		{5, 1, 128, 32 * 128.0 / 130 * 128 / 170},
	} {
		if got := params.PCIePayloadGbps(c.gen, c.lanes, c.mps); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("gen %d x%d mps %d: %.6f Gbit/s, want %.6f", c.gen, c.lanes, c.mps, got, c.want)
		}
	}
}

// TestPCIeMatchesMeasuredPCIe11x8 checks the derivation against two
// measurements of InfiniBand adapters limited by PCIe 1.1 x8: the
// reference testbed's ConnectX DDR hosts, whose single flow reaches about
// 13 Gbit/s (SPEC §3; reference 002, §3), and Liu et al., "Performance
// Evaluation of InfiniBand with PCI Express" (Hot Interconnects 2004),
// whose InfiniHost III Ex on PCIe x8 with both 4x SDR ports (16 Gbit/s of
// link) peaked at 1486 MB/s unidirectional (11.9 Gbit/s). The max payload
// sizes of such hosts, 128 and 256 bytes, must bracket both within 10 %.
func TestPCIeMatchesMeasuredPCIe11x8(t *testing.T) {
	lo, hi := params.PCIePayloadGbps(1, 8, 128), params.PCIePayloadGbps(1, 8, 256)
	for _, m := range []struct {
		what string
		gbps float64
	}{{"testbed, ConnectX DDR", 13}, {"Liu et al. 2004, InfiniHost III Ex", 1486e6 * 8 / 1e9}} {
		if m.gbps < 0.9*lo || m.gbps > 1.1*hi {
			t.Errorf("%s: measured %.2f Gbit/s, outside the derived %.2f-%.2f (±10 %%)", m.what, m.gbps, lo, hi)
		}
		if best := min(math.Abs(lo-m.gbps), math.Abs(hi-m.gbps)) / m.gbps; best > 0.07 {
			t.Errorf("%s: measured %.2f Gbit/s, %.1f %% from the nearest derived rate (%.2f, %.2f)", m.what, m.gbps, 100*best, lo, hi)
		}
	}
}

// TestPCIeParamsTogether refuses a PCIe generation without a width (and
// the reverse) and widths PCIe does not have.
func TestPCIeParamsTogether(t *testing.T) {
	for _, set := range []map[string]any{
		{"pcie_gen": int64(3)},
		{"pcie_lanes": int64(16)},
		{"pcie_gen": int64(3), "pcie_lanes": int64(6)},
		{"pcie_gen": int64(3), "pcie_lanes": int64(8), "pcie_max_payload": int64(300)},
	} {
		cfg := params.DefaultConfig()
		for k, v := range set {
			if err := cfg.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		if err := cfg.Validate(); err == nil {
			t.Errorf("%v: accepted", set)
		}
	}
}
