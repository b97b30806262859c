package model

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
)

// meshScenario is a dimension-order-routed mesh of dims routers, one host
// each, with light uniform traffic.
func meshScenario(t *testing.T, dims []int) *workload.Scenario {
	return lightScenario(t, "mesh", "dor", fabric.TopoParams{Dims: dims, HostsPerRouter: 1})
}

// treeScenario is an ftree-routed k-ary 3-tree with light uniform traffic.
func treeScenario(t *testing.T, k int) *workload.Scenario {
	return lightScenario(t, "fattree", "ftree", fabric.TopoParams{K: k, Levels: 3})
}

// lightScenario is a generated topology with uniform Poisson traffic at a
// tenth of each host's link.
func lightScenario(t *testing.T, topology, routing string, p fabric.TopoParams) *workload.Scenario {
	t.Helper()
	sc, err := workload.NewScenario(workload.ScenarioSpec{Name: "mem" + topology, Source: []byte(fmt.Sprint(p)), Phases: 1,
		Topology: topology, Routing: routing, Topo: p,
		Traffic: []workload.TrafficSpec{{Name: "a", Pattern: "uniform", Arrival: "poisson", Load: 0.1}}})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestNetworkBytesBoundsTheLiveHeap builds meshes of 1 000 and 2 000 hosts
// and ftree-routed fat trees of 1 000 and 2 744, and measures the heap they
// keep: the estimate is at least that (so a network refused would not have
// fitted), and at most three times it (so what fits is not refused for
// nothing).
func TestNetworkBytesBoundsTheLiveHeap(t *testing.T) {
	for _, c := range []struct {
		name string
		sc   *workload.Scenario
	}{
		{"mesh 20x50", meshScenario(t, []int{20, 50})}, {"mesh 40x50", meshScenario(t, []int{40, 50})},
		{"fat tree k=10", treeScenario(t, 10)}, {"fat tree k=14", treeScenario(t, 14)},
	} {
		sc := c.sc
		cfg := sc.Config()
		topo, err := sc.Build(&cfg)
		if err != nil {
			t.Fatal(err)
		}
		est := NetworkBytes(topo, sc.LMCFor(&cfg), sc.RoutingFor(&cfg))
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n, err := NewNetwork(sc, cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
		runtime.KeepAlive(n)
		t.Logf("%s: estimate %s, live heap %s", c.name, FormatBytes(est), FormatBytes(live))
		if est < live || est > 3*live {
			t.Errorf("%s: estimate %s for a live heap of %s; want 1 to 3 times it", c.name, FormatBytes(est), FormatBytes(live))
		}
	}
}

// TestNewNetworkRefusesWhatWouldNotFit sets a budget below a mesh's
// estimate: NewNetwork refuses it with a MemoryError naming the sizes,
// before building (it returns at once), and builds it under a budget above.
func TestNewNetworkRefusesWhatWouldNotFit(t *testing.T) {
	defer func(b int64) { MemoryBudget = b }(MemoryBudget)
	sc := meshScenario(t, []int{20, 50})
	cfg := sc.Config()
	topo, _ := sc.Build(&cfg)
	est := NetworkBytes(topo, 0, "dor")
	MemoryBudget = est - 1
	_, err := NewNetwork(sc, cfg, 1)
	var me *MemoryError
	if !errors.As(err, &me) || !errors.Is(err, fabric.ErrBadScenario) || me.Hosts != 1000 || me.Switches != 1000 || me.Bytes != est ||
		!strings.Contains(err.Error(), "a network of 1000 hosts and 1000 switches needs about") {
		t.Fatalf("budget %d below the estimate: %v", MemoryBudget, err)
	}
	MemoryBudget = est
	if _, err := NewNetwork(sc, cfg, 1); err != nil {
		t.Fatalf("budget at the estimate: %v", err)
	}
}
