package workload

import (
	"github.com/ccsweep/ccsweep/model/params"
)

// testbedHPCC is testbed-s1 with the HPC Challenge network tests between
// the victim's hosts H1 and H4 in place of F1 (issue 25; the hardware
// paper's section VI): the contributors F2-F5 greedy to H5 from time 0,
// the tests one after another from phase 1, each as HPC Challenge's
// bench_lat_bw defines it (docs/apps.md). Its parameter contributors
// (0-4) keeps that many of F2-F5; 0 is the uncongested baseline.
func testbedHPCC() ScenarioSpec {
	hpcc := func(name, label, program string, size, iters int, after string) AppSpec {
		a := DefaultApp(name, program)
		a.Label, a.Size, a.Iterations, a.After = label, size, iters, after
		a.Hosts = []string{"H1", "H4"}
		a.Report = "latency"
		if size > 8 {
			a.Report = "bandwidth"
		}
		return a
	}
	const bwSize = 2_000_000 // HPC Challenge's bandwidth message
	apps := []AppSpec{
		// Ping-pong: 8-byte messages, loop length 8; 2,000,000 bytes,
		// loop length 1 (each after a warm-up round trip).
		hpcc("pingpong_lat", "pingpong", "pingpong", 8, 8, ""),
		hpcc("pingpong_bw", "pingpong", "pingpong", bwSize, 1, "pingpong_lat"),
		// Rings of two ranks per host (four ranks), in both directions:
		// loop length 5 for 8 bytes, 2 for 2,000,000 bytes (HPC
		// Challenge's main_bench_lat_bw: ring_lat_bw_loop(8, 8, 5, 30),
		// (2000000, 3, 2, 10)). With one timed loop a ring's bandwidth
		// would include the skew its warm-up leaves between the ranks
		// (docs/apps.md).
		hpcc("ring_natural_lat", "ring_natural", "ring", 8, 5, "pingpong_bw"),
		hpcc("ring_natural_bw", "ring_natural", "ring", bwSize, 2, "ring_natural_lat"),
		hpcc("ring_random_lat", "ring_random", "ring", 8, 5, "ring_natural_bw"),
		hpcc("ring_random_bw", "ring_random", "ring", bwSize, 2, "ring_random_lat"),
	}
	apps[0].StartPhase = 1
	for i := 2; i < len(apps); i++ {
		apps[i].RanksPerHost = 2
		if i >= 4 {
			apps[i].Order = "random"
			apps[i].Patterns = 3
		}
	}
	apps[5].Patterns = 1
	sp := ScenarioSpec{
		Name: "testbed-hpcc",
		Description: "reference testbed, HPC Challenge network tests (ping-pong, natural and random rings) between H1 and H4 " +
			"while F2 H2->H5, F3 H3->H5, F4 H6->H5, F5 H7->H5 run greedy from the start; parameter contributors (0-4)",
		Phases:   2,
		Defaults: map[string]string{"phase": "150ms"},
		Topology: "testbed",
		Flows: []FlowSpec{
			{Name: "F2", Src: "H2", Dst: "H5", Role: Contributor},
			{Name: "F3", Src: "H3", Dst: "H5", Role: Contributor},
			{Name: "F4", Src: "H6", Dst: "H5", Role: Contributor},
			{Name: "F5", Src: "H7", Dst: "H5", Role: Contributor},
		},
		Apps: apps,
	}
	p := &params.Param{Name: "contributors", Kind: params.KindInt, Min: 0, Max: 4,
		Doc: "testbed-hpcc: how many of the contributors F2-F5 run (0: the uncongested baseline)"}
	params.Extra(p, 4)
	sp.own = []scenParam{{p, func(s *ScenarioSpec, v any) { s.Flows = s.Flows[:v.(int)] }}}
	return sp
}

func init() { registerSpec(testbedHPCC()) }
