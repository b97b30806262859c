package sweep

import (
	"slices"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// TestMutDealTiesGoToTheLowestShard checks dealShards' documented tie
// rules on points of equal cost (a scenario no registry knows costs 0,
// dealt as 1): in position order, each to the least loaded shard, ties to
// the lowest, so round robin. A repeat goes with its first listing.
// Kills shard.go's loadHeap.Less `h[a].load < h[b].load` turned into `<=`
// (equal loads then order the heap without the shard number).
func TestMutDealTiesGoToTheLowestShard(t *testing.T) {
	point := func(int) grids.Point { return grids.Point{Scenario: "no-such-scenario"} }
	for _, c := range []struct {
		count, n int
		again    map[uint32]uint32
		want     []int32
	}{
		{7, 3, nil, []int32{0, 1, 2, 0, 1, 2, 0}},
		{5, 5, nil, []int32{0, 1, 2, 3, 4}},
		{9, 4, nil, []int32{0, 1, 2, 3, 0, 1, 2, 3, 0}},
		{6, 2, map[uint32]uint32{1: 0, 4: 2}, []int32{0, 0, 1, 0, 1, 1}},
	} {
		if got := deal(c.count, point, c.n, c.again); !slices.Equal(got, c.want) {
			t.Errorf("%d equal points over %d shards (repeats %v): %v, want %v", c.count, c.n, c.again, got, c.want)
		}
	}
}
