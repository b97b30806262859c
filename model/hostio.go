package model

// hostIOGbps returns HCA h's payload rate.
func (n *Network) hostIOGbps(h int) float64 {
	return n.cfg.HostPayloadGbps(float64(n.ports[n.hcas[h].port].rateMbps) / 1000)
}
