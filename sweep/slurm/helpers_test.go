package slurm_test

import (
	"context"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

// smallGrid has 8 points of a few milliseconds each.
const smallGrid = `
name     = "small"
scenario = "testbed-s1"
cc       = "on"
phase    = "4ms"
sample   = "1ms"
seeds    = 2

[base]
marking_mode = "random"

[sweep]
ccti_timer   = ["50us", "300us"]
marking_rate = [0, 4]
`

func parse(t *testing.T, text string) *grids.Grid {
	t.Helper()
	g, err := grids.Parse("grid.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func runGrid(t *testing.T, g *grids.Grid, db *store.DB, opt sweep.Options) sweep.Outcome {
	t.Helper()
	plan, err := sweep.NewPlan(g, opt.Shard)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := sweep.Run(context.Background(), plan, db, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// unevenGrid has points of three costs (phase lengths), so that dealing
// them to shards by cost differs from dealing them round-robin.
const unevenGrid = `
name     = "uneven"
scenario = "testbed-s1"
cc       = "on"
sample   = "1ms"

[[grid]]
phase        = "2ms"
sweep.marking_rate = [0, 1, 2, 4, 8, 16, 32]

[[grid]]
phase        = "5ms"
sweep.marking_rate = [0, 1, 2]
sweep.ccti_timer   = ["100us", "200us"]

[[grid]]
phase        = "11ms"
seeds        = 3
`
