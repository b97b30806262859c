package model

import "fmt"

// TEMPORARY until the topology generators land.
type TopoParams struct {
	K, Levels                    int
	Leaves, Spines, HostsPerLeaf int
	Preset                       string
	Dims                         []int
	HostsPerRouter               int
	HostGbps, SwitchGbps         float64
}

func GenerateTopology(kind string, p TopoParams) (*Topology, error) {
	return nil, fmt.Errorf("%w: topology %q not available yet", ErrBadScenario, kind)
}

func ParseIBNetDiscover(name string, text []byte) (*Topology, error) {
	return nil, fmt.Errorf("%w: not yet", ErrBadScenario)
}
