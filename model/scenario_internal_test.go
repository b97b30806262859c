package model

import "github.com/ccsweep/ccsweep/model/workload"

// testbed builds the reference testbed's topology under a configuration's
// link rates, as the built-in testbed scenarios do.
var testbed = workload.LookupScenario("testbed-s1").Build
