package grids

import (
	"slices"
	"strings"

	"github.com/ccsweep/ccsweep/model"
)

// MaxSeeds is the most replications a seed target may ask for per point.
const MaxSeeds = 10_000

// SeedTarget asks for replications until a precision is reached: seeds
// 1..Min first, then more seeds per point until the 95 % confidence
// interval of Metric's mean has a half-width of at most CI times the mean's
// magnitude, or Max seeds have run. Seed k is the same random streams at
// every point (common random numbers), so differences between points are
// measured with less noise than their spread.
//
// In a grid file: seeds = { min = 3, max = 30, ci = 0.05, metric = "victim_gbps" }.
type SeedTarget struct {
	Min, Max int
	// CI is the target half-width relative to the mean, in (0, 1).
	CI float64
	// Metric names a metric of model.MetricList.
	Metric string
}

// seedKeys are the keys of a seeds table.
var seedKeys = []string{"min", "max", "ci", "metric"}

// parseSeedTarget reads seeds = { min, max, ci, metric }; it returns nil
// after reporting a problem.
func parseSeedTarget(ps *problems, key string, t *table, line int) *SeedTarget {
	st := &SeedTarget{}
	bad := false
	for _, k := range t.keys {
		if !slices.Contains(seedKeys, k) {
			ps.add(t.m[k].line, key, "unknown key %q%s (a seeds table takes %s)", k, suggest(k, seedKeys), strings.Join(seedKeys, ", "))
			bad = true
		}
	}
	whole := func(name string) int {
		n := t.m[name]
		if n == nil {
			ps.add(line, key, "a seeds table needs %s", name)
			bad = true
			return 0
		}
		v, ok := n.val.(int64)
		switch {
		case !ok:
			ps.add(n.line, key, "%s: want a whole number of replications, not %s", name, show(n.val))
		case v < 2:
			ps.add(n.line, key, "%s %d: a confidence interval needs at least 2 seeds", name, v)
		case v > MaxSeeds:
			ps.add(n.line, key, "%s %d: more than the limit of %d seeds", name, v, MaxSeeds)
		default:
			return int(v)
		}
		bad = true
		return 0
	}
	st.Min, st.Max = whole("min"), whole("max")
	if !bad && st.Max < st.Min {
		ps.add(t.m["max"].line, key, "max %d is less than min %d", st.Max, st.Min)
		bad = true
	}
	if n := t.m["ci"]; n == nil {
		ps.add(line, key, "a seeds table needs ci, the target half-width of the 95%% confidence interval relative to the mean, e.g. 0.05")
		bad = true
	} else {
		v, ok := n.val.(float64)
		if i, isInt := n.val.(int64); isInt {
			v, ok = float64(i), true
		}
		if !ok || !(v > 0 && v < 1) {
			ps.add(n.line, key, "ci %s: want a fraction of the mean between 0 and 1, e.g. 0.05", show(n.val))
			bad = true
		}
		st.CI = v
	}
	if n := t.m["metric"]; n == nil {
		ps.add(line, key, "a seeds table needs metric, the metric whose mean must reach the precision (one of %s)", strings.Join(metricNames(), ", "))
		bad = true
	} else if name, ok := str(ps, key+".metric", n); !ok {
		bad = true
	} else if model.LookupMetric(name) == nil {
		ps.add(n.line, key, "metric %q: unknown metric%s (known: %s)", name, suggest(name, metricNames()), strings.Join(metricNames(), ", "))
		bad = true
	} else {
		st.Metric = name
	}
	if bad {
		return nil
	}
	return st
}

// metricNames lists the names of model.MetricList.
func metricNames() []string {
	var names []string
	for _, m := range model.MetricList() {
		names = append(names, m.Name)
	}
	return names
}

func isTable(n *node) bool { _, ok := n.val.(*table); return ok }
