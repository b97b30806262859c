package grids_test

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// A seed target (seeds = { min, max, ci, metric }, grids.SeedTarget) takes
// min and max from 2 to MaxSeeds with max >= min, ci strictly between 0
// and 1 (an integer too), and a known metric; anything else is refused with
// the reason, and a sub-grid's first round runs min seeds.
func TestSeedTargetBounds(t *testing.T) {
	parse := func(seeds string) (*grids.Grid, error) {
		return grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s1\"\nseeds = "+seeds+"\n"))
	}
	for _, c := range []struct {
		seeds    string
		min, max int
		ci       float64
	}{
		{`{ min = 2, max = 2, ci = 0.05, metric = "victim_gbps" }`, 2, 2, 0.05},
		{`{ min = 3, max = 10000, ci = 0.999, metric = "victim_gbps" }`, 3, 10000, 0.999},
		{`{ min = 10000, max = 10000, ci = 1e-9, metric = "victim_gbps" }`, 10000, 10000, 1e-9},
	} {
		g, err := parse(c.seeds)
		if err != nil {
			t.Errorf("%s: %v", c.seeds, err)
			continue
		}
		tg := g.Subs[0].Target
		if tg == nil || tg.Min != c.min || tg.Max != c.max || tg.CI != c.ci || tg.Metric != "victim_gbps" || g.Subs[0].Seeds != c.min {
			t.Errorf("%s: target %+v, %d seeds; want min %d max %d ci %g, %d seeds", c.seeds, tg, g.Subs[0].Seeds, c.min, c.max, c.ci, c.min)
		}
	}
	for _, c := range []struct{ seeds, want string }{
		{`{ min = 1, max = 5, ci = 0.05, metric = "victim_gbps" }`, "min 1: a confidence interval needs at least 2 seeds"},
		{`{ min = 2, max = 1, ci = 0.05, metric = "victim_gbps" }`, "max 1: a confidence interval needs at least 2 seeds"},
		{`{ min = 2, max = 10001, ci = 0.05, metric = "victim_gbps" }`, "max 10001: more than the limit of 10000 seeds"},
		{`{ min = 10001, max = 10001, ci = 0.05, metric = "victim_gbps" }`, "min 10001: more than the limit of 10000 seeds"},
		{`{ min = 4, max = 3, ci = 0.05, metric = "victim_gbps" }`, "max 3 is less than min 4"},
		{`{ min = 2.5, max = 3, ci = 0.05, metric = "victim_gbps" }`, "min: want a whole number of replications, not 2.5"},
		{`{ max = 3, ci = 0.05, metric = "victim_gbps" }`, "a seeds table needs min"},
		{`{ min = 2, max = 3, ci = 0, metric = "victim_gbps" }`, "ci 0: want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, ci = 1, metric = "victim_gbps" }`, "ci 1: want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, ci = 1.0, metric = "victim_gbps" }`, "want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, ci = -0.1, metric = "victim_gbps" }`, "want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, ci = "x", metric = "victim_gbps" }`, "want a fraction of the mean between 0 and 1"},
		{`{ min = 2, max = 3, metric = "victim_gbps" }`, "a seeds table needs ci"},
		{`{ min = 2, max = 3, ci = 0.05 }`, "a seeds table needs metric"},
		{`{ min = 2, max = 3, ci = 0.05, metric = "victim_gbp" }`, `metric "victim_gbp": unknown metric`},
		{`{ min = 2, max = 3, ci = 0.05, metric = "victim_gbps", mx = 4 }`, `unknown key "mx"`},
	} {
		g, err := parse(c.seeds)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error saying %q", c.seeds, err, c.want)
		} else if g != nil {
			t.Errorf("%s: a grid as well as %v", c.seeds, err)
		}
	}
}
