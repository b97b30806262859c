package model_test

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/workload"
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
		if got := model.PCIePayloadGbps(c.gen, c.lanes, c.mps); math.Abs(got-c.want) > 1e-9 {
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
	lo, hi := model.PCIePayloadGbps(1, 8, 128), model.PCIePayloadGbps(1, 8, 256)
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

// mixedRates is an ibnetdiscover fabric of one switch and four adapters,
// two of them 4x EDR (100 Gbit/s of data), one 4x QDR (32) and one 4x EDR
// receiving.
const mixedRates = `Switch	8 "S-0000000000000100"		# "MF0;sw1:MSB7700/U1" enhanced port 0 lid 1 lmc 0
[1]	"H-0000000000000001"[1](0000000000000001) 		# "edr1 mlx5_0" lid 2 4xEDR
[2]	"H-0000000000000002"[1](0000000000000002) 		# "edr2 mlx5_0" lid 3 4xEDR
[3]	"H-0000000000000003"[1](0000000000000003) 		# "qdr3 mlx4_0" lid 4 4xQDR
[4]	"H-0000000000000004"[1](0000000000000004) 		# "edr4 mlx5_0" lid 5 4xEDR

Ca	1 "H-0000000000000001"		# "edr1 mlx5_0"
[1](0000000000000001) 	"S-0000000000000100"[1]		# lid 2 lmc 0 "MF0;sw1:MSB7700/U1" lid 1 4xEDR

Ca	1 "H-0000000000000002"		# "edr2 mlx5_0"
[1](0000000000000002) 	"S-0000000000000100"[2]		# lid 3 lmc 0 "MF0;sw1:MSB7700/U1" lid 1 4xEDR

Ca	1 "H-0000000000000003"		# "qdr3 mlx4_0"
[1](0000000000000003) 	"S-0000000000000100"[3]		# lid 4 lmc 0 "MF0;sw1:MSB7700/U1" lid 1 4xQDR

Ca	1 "H-0000000000000004"		# "edr4 mlx5_0"
[1](0000000000000004) 	"S-0000000000000100"[4]		# lid 5 lmc 0 "MF0;sw1:MSB7700/U1" lid 1 4xEDR
`

// TestImportedHostsMoveTheirLinkRate runs a greedy flow out of an EDR host
// and one out of a QDR host of an imported fabric, each to its own EDR
// host: by default (host_io_gbps 0 on an imported fabric) each moves its
// own link's payload rate, rate · 2048/2074 for MTU packets; with
// host_io_gbps = 13 both move 13; with PCIe 3.0 x8 at 256 bytes both are
// capped at 63.02 · 256/298 = 54.13 Gbit/s, which the QDR host's link
// (31.60) undercuts.
func TestImportedHostsMoveTheirLinkRate(t *testing.T) {
	sc, err := model.NewScenario(model.ScenarioSpec{Name: "mixed", Phases: 1, Topology: "ibnetdiscover",
		Fabric: []byte(mixedRates), FabricName: "mixed.txt", Routing: "minhop", Source: []byte(mixedRates),
		Flows: []workload.FlowSpec{{Name: "fast", Src: "edr1", Dst: "edr2"}, {Name: "slow", Src: "qdr3", Dst: "edr4"}}})
	if err != nil {
		t.Fatal(err)
	}
	payload := 2048.0 / 2074
	pcie := 8 * 8 * 128.0 / 130 * 256 / 298
	for _, c := range []struct {
		set        map[string]any
		fast, slow float64
	}{
		{nil, 100 * payload, 32 * payload},
		{map[string]any{"host_io_gbps": 13.0}, 13, 13},
		{map[string]any{"pcie_gen": int64(3), "pcie_lanes": int64(8)}, pcie, 32 * payload},
	} {
		cfg := sc.Config()
		for k, v := range c.set {
			if err := sc.Set(&cfg, k, v); err != nil {
				t.Fatal(err)
			}
		}
		cfg.Phase, cfg.Sample = engine.Millisecond, 100*engine.Microsecond
		res, err := model.Run(sc, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []float64{c.fast, c.slow} {
			g := res.Flows[i].Gbps
			got := 0.0
			for _, x := range g[2:] { // after the first 200 µs
				got += x / float64(len(g)-2)
			}
			if math.Abs(got-want) > 0.01*want {
				t.Errorf("%v: flow %s moves %.2f Gbit/s, want %.2f", c.set, res.Flows[i].Name, got, want)
			}
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
		cfg := model.DefaultConfig()
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
