package params

import "github.com/ccsweep/ccsweep/engine"

// DRBConfig holds DRB's parameters (drb.* in grids and --set).
type DRBConfig struct {
	// Timer is the contraction timer: each period with no BECN closes the
	// path opened last.
	Timer engine.Time
	// Throttle keeps IB CC's injection throttling (CCTI and its IRD) on as
	// well; the reference turns it off.
	Throttle bool
	// MaxPaths caps the paths a pair opens, including the minimal one; 0
	// allows all 2^LMC.
	MaxPaths int
	// OpenAfter is how many BECNs open one more path.
	OpenAfter int
}

// DefaultDRB returns DRB's defaults (docs/schemes.md, "DRB"): a 1 ms timer (on
// 003's torus, shorter timers closed paths the hot spot still needed; a 3
// ms one gains more on the hot spot but keeps a pair off its minimal path
// longer after its last BECN), no throttling, up to every LMC path, one
// path per BECN.
func DefaultDRB() DRBConfig {
	return DRBConfig{Timer: engine.Millisecond, MaxPaths: 0, OpenAfter: 1}
}

// drbParams are DRB's parameters, of scheme drb.
var drbParams = forScheme(SchemeDRB,
	durParam("drb.timer", "DRB contraction timer: each period without a BECN closes the path a pair opened last", engine.Microsecond, engine.Second,
		func(c *Config) *engine.Time { return &c.DRB.Timer }),
	boolParam("drb.throttle", "DRB also throttles injection as IB CC does (CCTI and its IRD); the reference turns it off",
		func(c *Config) *bool { return &c.DRB.Throttle }),
	intParam("drb.max_paths", "paths", "most paths a DRB pair opens, the minimal one included (0: all 2^lmc)", 0, 128,
		func(c *Config) *int { return &c.DRB.MaxPaths }),
	intParam("drb.open_after", "BECNs", "BECNs a DRB pair receives per path it opens", 1, 1<<20,
		func(c *Config) *int { return &c.DRB.OpenAfter }),
)
