package params

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestMutPCIeGivenTogether checks that pcie_gen without pcie_lanes is
// refused naming pcie_gen, and pcie_lanes without pcie_gen naming
// pcie_lanes, the one that was given.
// Kills hostio.go's `c.PCIeLanes > 0` to `>=` (pcie_lanes named when only
// the generation was given).
func TestMutPCIeGivenTogether(t *testing.T) {
	for _, c := range []struct {
		gen, lanes int
		want       string
	}{{3, 0, "pcie_gen"}, {0, 8, "pcie_lanes"}} {
		cfg := DefaultConfig()
		cfg.PCIeGen, cfg.PCIeLanes = c.gen, c.lanes
		var pe *ParamError
		if err := cfg.Validate(); !errors.As(err, &pe) || pe.Name != c.want || !strings.Contains(pe.Reason, "together") {
			t.Errorf("pcie_gen %d, pcie_lanes %d: error %v, want one naming %s", c.gen, c.lanes, err, c.want)
		}
	}
}

// TestMutHostPayloadRate checks a host's payload rate (hostio.go's
// comment): pcie_gen and pcie_lanes given, PCIe's payload rate (PCIe 1.1
// x8 at 256 bytes: 16 · 256/296 = 13.84 Gbit/s) whatever host_io_gbps
// says; else host_io_gbps when above 0; else the host's link rate.
func TestMutHostPayloadRate(t *testing.T) {
	for _, c := range []struct {
		gen, lanes int
		hostIO     float64
		want       float64
	}{
		{1, 8, 13, 16 * 256.0 / 296},
		{1, 8, 0, 16 * 256.0 / 296},
		{0, 0, 13, 13},
		{0, 0, 0, 40},
		{1, 0, 9, 9}, // a generation without lanes is not PCIe given (Validate refuses it)
		{0, 8, 9, 9},
	} {
		cfg := DefaultConfig()
		cfg.PCIeGen, cfg.PCIeLanes, cfg.HostIOGbps = c.gen, c.lanes, c.hostIO
		if got := cfg.HostPayloadGbps(40); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("pcie %d x%d, host_io_gbps %v, link 40: %v Gbit/s, want %v", c.gen, c.lanes, c.hostIO, got, c.want)
		}
	}
}
