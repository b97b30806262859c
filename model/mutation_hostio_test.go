package model

import (
	"errors"
	"testing"

	"github.com/ccsweep/ccsweep/model/params"
)

// Tests written against the survivors of the sampled mutation run of
// model (docs/testing.md, "Sampled runs") in hostio.go.

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
