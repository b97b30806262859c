package params

import (
	"slices"
	"strings"
)

// ExtraValue is a scenario parameter's value in a Config.
type ExtraValue struct {
	Name  string
	Value any
}

// Extras returns c's values of scenario parameters (those Extra made),
// sorted by name. The slice is shared: do not modify it.
func (c *Config) Extras() []ExtraValue { return c.extra }

// setExtra sets a scenario parameter's value, copying the list so that
// copies of c do not share it.
func (c *Config) setExtra(name string, v any) {
	list := make([]ExtraValue, 0, len(c.extra)+1)
	for _, e := range c.extra {
		if e.Name != name {
			list = append(list, e)
		}
	}
	list = append(list, ExtraValue{name, v})
	slices.SortFunc(list, func(a, b ExtraValue) int { return strings.Compare(a.Name, b.Name) })
	c.extra = list
}

func (c *Config) getExtra(name string) (any, bool) {
	for _, e := range c.extra {
		if e.Name == name {
			return e.Value, true
		}
	}
	return nil, false
}

// Extra makes p a scenario parameter: its value lives in Config's extras
// (Extras), def when a Config does not set it.
func Extra(p *Param, def any) {
	p.get = func(c *Config) any {
		if v, ok := c.getExtra(p.Name); ok {
			return v
		}
		return def
	}
	p.set = func(c *Config, v any) { c.setExtra(p.Name, v) }
}
