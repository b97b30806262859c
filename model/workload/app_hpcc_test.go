package workload

import (
	"testing"
)

// TestMutHPCCApps checks testbed-hpcc's apps against docs/scenarios.md
// ("testbed-hpcc"): ping-pong 8 bytes (loop 8) and 2,000,000 bytes (loop
// 1), natural rings 8 bytes (loop 5) and 2,000,000 bytes (loop 2), random
// rings 8 bytes (3 rings, loop 5) and 2,000,000 bytes (1 ring, loop 2), one
// after another from phase 1 between H1 and H4; the ping-pongs one rank per
// host, the rings two.
// Kills app_hpcc.go's `i < len(apps)` negated (every app one rank per host,
// natural) and `i >= 4` negated (the natural rings random and the random
// ones natural).
func TestMutHPCCApps(t *testing.T) {
	sc := LookupScenario("testbed-hpcc")
	if sc == nil {
		t.Fatal("no scenario testbed-hpcc")
	}
	type app struct {
		name, program    string
		size, iterations int
		perHost          int
		order            string
		patterns         int
		report           string
	}
	want := []app{
		{"pingpong_lat", "pingpong", 8, 8, 1, "natural", 1, "latency"},
		{"pingpong_bw", "pingpong", 2000000, 1, 1, "natural", 1, "bandwidth"},
		{"ring_natural_lat", "ring", 8, 5, 2, "natural", 1, "latency"},
		{"ring_natural_bw", "ring", 2000000, 2, 2, "natural", 1, "bandwidth"},
		{"ring_random_lat", "ring", 8, 5, 2, "random", 3, "latency"},
		{"ring_random_bw", "ring", 2000000, 2, 2, "random", 1, "bandwidth"},
	}
	apps := sc.Apps
	if len(apps) != len(want) {
		t.Fatalf("%d apps, want %d", len(apps), len(want))
	}
	for i, w := range want {
		a := apps[i]
		got := app{a.Name, a.Program, a.Size, a.Iterations, a.RanksPerHost, a.Order, a.Patterns, a.Report}
		if got != w {
			t.Errorf("app %d: %+v, want %+v", i, got, w)
		}
		if len(a.Hosts) != 2 || a.Hosts[0] != "H1" || a.Hosts[1] != "H4" {
			t.Errorf("%s on hosts %v, want H1, H4", a.Name, a.Hosts)
		}
		after, phase := "", 1
		if i > 0 {
			after, phase = want[i-1].name, 0
		}
		if a.After != after || a.StartPhase != phase {
			t.Errorf("%s starts after %q at phase %d, want after %q at phase %d", a.Name, a.After, a.StartPhase, after, phase)
		}
	}
}
