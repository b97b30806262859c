package model

// sample closes a sample interval: it settles the deliveries due by now,
// records every flow's payload bytes delivered during the interval (and its
// CCTI with CC on), and schedules the next sample, up to the run's end.
// Samples are the series a Result reports; they grow by one per flow per
// interval, which is why CheckWork bounds their number before a run.
func (n *Network) sample() {
	n.settleDeliveries()
	if !n.stats.started && n.sim.Now() >= n.stats.from {
		n.startWindow()
	}
	for i := range n.flows {
		f := &n.flows[i]
		f.samples = append(f.samples, f.delivered-f.sampled)
		f.sampled = f.delivered
		if n.cc.on {
			f.cctiTrace = append(f.cctiTrace, n.cc.ccti[f.cc.slot])
		}
	}
	if next := n.sim.Now() + n.cfg.Sample; next <= n.end {
		n.sim.At(next, evSample, 0)
	}
}
