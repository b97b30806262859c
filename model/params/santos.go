package params

import (
	"fmt"
)

// SantosConfig holds the parameters of the santos scheme (reference 001):
// switch marking of packets in full input buffers and a source with a
// window of one packet whose rate answers every ACK.
type SantosConfig struct {
	// Marking is the switch marking variant: "naive" (the packets in a
	// full input buffer), "input" (input-triggered: also every packet
	// headed for an output that a full buffer's packets head for) or
	// "input_output" (input plus the packets of an output holding more
	// than OutputThreshold packets).
	Marking string
	// OutputThreshold is input_output's output trigger, in packets headed
	// for the output over all the switch's input buffers.
	OutputThreshold int
	// Response is the source's answer to ACKs: "aimd", "fimd" or "lipd".
	Response string
	// M is the multiplicative decrease: a marked ACK divides the rate by M
	// (aimd, fimd).
	M float64
	// RMinGbps and RMaxGbps bound the source rate, in Gbit/s of payload;
	// 0 means the source's injection rate for RMaxGbps and RMaxGbps/64
	// for RMinGbps.
	RMinGbps, RMaxGbps float64
	// AIMDIncrease is aimd's additive increase, in units of the minimum
	// rate per 1/R_min of time (each unmarked ACK at rate r adds
	// AIMDIncrease·R_min²/r).
	AIMDIncrease float64
}

// DefaultSantos returns the santos parameters of docs/schemes.md ("santos"):
// input-triggered marking, FIMD with m = 2, R_max the injection rate and
// R_min R_max/64, as reference 001 suggests.
func DefaultSantos() SantosConfig {
	return SantosConfig{Marking: "input", OutputThreshold: 8, Response: "fimd", M: 2, AIMDIncrease: 1}
}

var santosParams = forScheme(SchemeSantos,
	enumParam("santos.marking", "switch marking: packets of a full input buffer (naive), also every packet headed where they head (input), plus outputs above santos.output_threshold (input_output)",
		[]string{"naive", "input", "input_output"}, func(c *Config) *string { return &c.Santos.Marking }),
	intParam("santos.output_threshold", "packets", "input_output marking: packets headed for one output, over the switch's input buffers, above which it marks", 1, 1<<20,
		func(c *Config) *int { return &c.Santos.OutputThreshold }),
	enumParam("santos.response", "source rate response to marked/unmarked ACKs", []string{"aimd", "fimd", "lipd"},
		func(c *Config) *string { return &c.Santos.Response }),
	floatParam("santos.m", "", "multiplicative decrease: a marked ACK divides the rate by m (aimd, fimd)", 1.0001, 1000,
		func(c *Config) *float64 { return &c.Santos.M }),
	floatParam("santos.r_min", "Gbit/s", "lowest source rate (0: r_max/64)", 0, 1000,
		func(c *Config) *float64 { return &c.Santos.RMinGbps }),
	floatParam("santos.r_max", "Gbit/s", "highest source rate (0: the source's injection rate)", 0, 1000,
		func(c *Config) *float64 { return &c.Santos.RMaxGbps }),
	floatParam("santos.aimd_increase", "R_min", "aimd: rate added per 1/r_min of time, in units of r_min (each unmarked ACK at rate r adds a*r_min^2/r)", 0.001, 1e6,
		func(c *Config) *float64 { return &c.Santos.AIMDIncrease }),
)

// validate checks the relations of the santos parameters; c is the run's
// configuration, whose host rates give R_max when RMaxGbps is 0.
func (s *SantosConfig) validate(c *Config) error {
	rMax := s.RMax(c)
	if s.RMinGbps > 0 && s.RMinGbps >= rMax {
		what := "santos.r_max"
		if s.RMaxGbps == 0 {
			what = "the hosts' injection rate, santos.r_max's default"
		}
		return &ParamError{Name: "santos.r_min", Value: s.RMinGbps,
			Reason: fmt.Sprintf("not below %s (%g Gbit/s)", what, rMax)}
	}
	return nil
}

// RMax returns R_max in Gbit/s: RMaxGbps, or when it is 0 what a host can
// inject, the lower of its I/O bandwidth and its link's payload rate.
func (s *SantosConfig) RMax(c *Config) float64 {
	if s.RMaxGbps > 0 {
		return s.RMaxGbps
	}
	return min(c.HostPayloadGbps(c.HostLinkGbps), c.HostLinkGbps*float64(c.MTU)/float64(c.MTU+c.HeaderBytes))
}
