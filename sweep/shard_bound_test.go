package sweep_test

import (
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/sweep"
)

// TestShardCountPastThePoints deals a 6-point grid of unequal costs into
// 10^10 shards: shards 1..6 hold what they hold when dealt into 6 (each
// point to the least loaded shard, ties to the lowest, so later shards never
// get one), the rest are empty, and none of it costs memory per shard.
func TestShardCountPastThePoints(t *testing.T) {
	g, err := grids.Parse("g.toml", []byte("name = \"g\"\nscenario = \"testbed-s2\"\nsample = \"1ms\"\n[sweep]\nphase = [\"1ms\", \"2ms\", \"3ms\"]\nmarking_rate = [0, 1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	const huge = 10_000_000_000
	ids := func(p *sweep.Plan) []string {
		var out []string
		for k := range p.Len() {
			out = append(out, grids.PointID(p.Point(k), model.Version))
		}
		return out
	}
	var all []string
	for _, i := range []int{1, 2, 3, 4, 5, 6, 7, 1000, huge} {
		big, err := sweep.NewPlan(g, sweep.Shard{Index: i, Count: huge})
		if err != nil {
			t.Fatal(err)
		}
		if i > 6 {
			if big.Len() != 0 {
				t.Errorf("shard %d/%d holds %d points, want none", i, huge, big.Len())
			}
			continue
		}
		six, err := sweep.NewPlan(g, sweep.Shard{Index: i, Count: 6})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ids(big), ids(six); len(got) != 1 || !slices.Equal(got, want) {
			t.Errorf("shard %d/%d holds %v, shard %d/6 %v; want the same one point", i, huge, got, i, want)
		}
		all = append(all, ids(big)...)
	}
	slices.Sort(all)
	if len(slices.Compact(all)) != 6 {
		t.Errorf("shards 1..6 of %d hold %d distinct points, want the grid's 6", huge, len(all))
	}
}
