package params

import (
	"fmt"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
)

// CCT shapes (the cct parameter).
const (
	CCTQuadratic   = "quadratic"
	CCTLinear      = "linear"
	CCTTablePrefix = "table:"
	// maxCCTEntries bounds an explicit table: one entry per CCTI up to
	// ccti_limit's largest value.
	maxCCTEntries = 16384
	// maxCCTEntry bounds an explicit table's entries.
	maxCCTEntry = engine.Second
)

// cctValue normalizes a cct value: quadratic, linear, or table: and a
// comma-separated list of durations (a bare 0 allowed), at least one, each
// at most maxCCTEntry and none below the one before it.
func cctValue(s string) (string, error) {
	s = strings.TrimSpace(s)
	switch s {
	case CCTQuadratic, CCTLinear:
		return s, nil
	}
	list, ok := strings.CutPrefix(s, CCTTablePrefix)
	if !ok {
		return "", fmt.Errorf("want quadratic, linear, or table: and the entries, e.g. table:0,1us,2.5us")
	}
	table, err := ParseCCTTable(list)
	if err != nil {
		return "", err
	}
	texts := make([]string, len(table))
	for i, d := range table {
		texts[i] = d.String()
	}
	return CCTTablePrefix + strings.Join(texts, ","), nil
}

// ParseCCTTable reads the entries of an explicit CCT (cctValue).
func ParseCCTTable(list string) ([]engine.Time, error) {
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("an explicit table needs at least one entry, e.g. table:0,1us,2.5us")
	}
	items := strings.Split(list, ",")
	if len(items) > maxCCTEntries {
		return nil, fmt.Errorf("%d entries, more than the %d CCTIs there are", len(items), maxCCTEntries)
	}
	table := make([]engine.Time, len(items))
	for i, item := range items {
		d, err := engine.ParseTime(item)
		if err != nil {
			return nil, fmt.Errorf("entry %d %q: not a duration with a unit, e.g. 1.5us", i, strings.TrimSpace(item))
		}
		if d > maxCCTEntry {
			return nil, fmt.Errorf("entry %d %q: longer than %v", i, strings.TrimSpace(item), maxCCTEntry)
		}
		if i > 0 && d < table[i-1] {
			return nil, fmt.Errorf("entry %d %q: below entry %d (%v); a CCT does not decrease", i, strings.TrimSpace(item), i-1, table[i-1])
		}
		table[i] = d
	}
	return table, nil
}
