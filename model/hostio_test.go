package model_test

import (
	"math"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/workload"
)

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
	sc, err := workload.NewScenario(workload.ScenarioSpec{Name: "mixed", Phases: 1, Topology: "ibnetdiscover",
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
