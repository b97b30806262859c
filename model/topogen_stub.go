package model

import "fmt"

// TEMPORARY until the ibnetdiscover reader lands.
func ParseIBNetDiscover(name string, text []byte) (*Topology, error) {
	return nil, fmt.Errorf("%w: not yet", ErrBadScenario)
}
