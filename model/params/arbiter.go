package params

// Arbitration values (Config.Arbitration).
const (
	// ArbitrationFit (ib-5 and before) serves the first input round-robin
	// whose VoQ head fits in the credits the output holds (nextInput): a
	// packet that needs one credit leaves while 2 KiB heads of other
	// inputs wait for theirs.
	ArbitrationFit = "fit"
	// ArbitrationCommit (the default since ib-6) chooses the first input
	// round-robin with a packet, whatever its head needs, and waits for
	// that head's credits before it serves any other input of the VL: an
	// arbiter that commits to the packet it granted (issue 25: whether the
	// switches of the testbed let a small packet pass is not published).
	ArbitrationCommit = "commit"
)
