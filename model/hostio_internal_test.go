package model

import (
	"errors"
	"testing"

	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// TestMutPCIeHalfGivenNamesTheGivenOne checks Validate's error when only
// one of pcie_gen and pcie_lanes is set: it names the one given, with its
// value, so the message points at the line the user wrote.
func TestMutPCIeHalfGivenNamesTheGivenOne(t *testing.T) {
	for _, c := range []struct {
		gen, lanes int
		name       string
		value      int
	}{
		{gen: 3, name: "pcie_gen", value: 3},
		{lanes: 8, name: "pcie_lanes", value: 8},
	} {
		cfg := params.DefaultConfig()
		cfg.PCIeGen, cfg.PCIeLanes = c.gen, c.lanes
		var pe *params.ParamError
		if err := cfg.Validate(); !errors.As(err, &pe) || pe.Name != c.name || pe.Value != c.value {
			t.Errorf("pcie_gen %d, pcie_lanes %d: error %v, want a ParamError naming %s = %d", c.gen, c.lanes, err, c.name, c.value)
		}
	}
}

// TestMutHostIOIsTheLinkWhenNotGiven checks an HCA's DMA payload rate
// when neither host_io_gbps nor PCIe is given: its link's data rate
// (hostio.go's top: "own link's data rate: no cap beyond the link"), in
// Mbit/s as the link's.
// Kills hostio.go's `rateMbps) / 1000` turned into `* 1000` (a DMA a
// million times faster than the link).
func TestMutHostIOIsTheLinkWhenNotGiven(t *testing.T) {
	cfg := params.DefaultConfig()
	cfg.HostIOGbps, cfg.PCIeGen, cfg.PCIeLanes = 0, 0, 0
	n, err := NewNetwork(workload.LookupScenario("testbed-s1"), cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for h := range n.hcas {
		if link := n.ports[n.hcas[h].port].rateMbps; n.hcas[h].ioMbps != link || link == 0 {
			t.Errorf("HCA %d: DMA at %d Mbit/s, link at %d", h, n.hcas[h].ioMbps, link)
		}
	}
}
