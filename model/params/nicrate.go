package params

import (
	"fmt"
	"strconv"
	"strings"
)

// NICRateConfig holds the parameters of the nicrate scheme (reference 004):
// per-flow rates requested from each adapter, admitted only where the
// source, every link of the path and the destination have room.
type NICRateConfig struct {
	// Rates is the rate each flow requests, in Gbit/s of payload, in the
	// scenario's flow order, comma-separated, for flows whose scenario
	// gives none (a [[flow]] rate); "" or a missing entry requests an equal
	// share: the least, over the flow's source, links and destination, of
	// capacity over the flows using it.
	Rates string
}

// DefaultNICRate returns the nicrate parameters: equal shares.
func DefaultNICRate() NICRateConfig { return NICRateConfig{} }

var nicrateParams = forScheme(SchemeNICRate,
	stringParam("nicrate.rates", "rates flows request, Gbit/s in flow order, e.g. 4,4,2.5 (empty or 0: an equal share)",
		ratesValue, func(c *Config) *string { return &c.NICRate.Rates }),
)

// ratesValue normalizes a nicrate.rates list.
func ratesValue(s string) (string, error) {
	rates, err := ParseRates(s)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(rates))
	for i, r := range rates {
		parts[i] = strconv.FormatFloat(r, 'g', -1, 64)
	}
	return strings.Join(parts, ","), nil
}

// ParseRates reads a comma-separated list of rates in Gbit/s, 0 or more.
func ParseRates(s string) ([]float64, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	if s == "" || s == "off" {
		return nil, nil
	}
	var rates []float64
	for _, item := range strings.Split(s, ",") {
		r, err := strconv.ParseFloat(item, 64)
		if err != nil || r < 0 || r > 1e6 {
			return nil, fmt.Errorf("%q is not a rate in Gbit/s (0 or more; 0 asks for an equal share)", item)
		}
		rates = append(rates, r)
	}
	return rates, nil
}
