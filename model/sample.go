package model

func (n *Network) sample() {
	n.settleDeliveries()
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
