package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
)

// Shard is slice Index (1-based) of Count slices of a grid's points. The
// zero Shard is the whole grid. Points are dealt to shards by cost
// (simulated time), the longest first, each to the shard with the least work
// so far, ties to the lowest shard: deterministic and balanced. The shards
// of one grid partition its points; a point several sub-grids list goes to
// the shard of its first listing.
type Shard struct {
	Index, Count int
}

// ParseShard reads "I/N" with 1 <= I <= N.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	a, err1 := strconv.Atoi(strings.TrimSpace(i))
	b, err2 := strconv.Atoi(strings.TrimSpace(n))
	sh := Shard{Index: a, Count: b}
	if !ok || err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want I/N, e.g. 3/8", s)
	}
	return sh, sh.validate()
}

func (s Shard) validate() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Index < 1 || s.Index > s.Count {
		return fmt.Errorf("shard %d/%d: want 1 <= I <= N", s.Index, s.Count)
	}
	return nil
}

// String spells s as "I/N" ("all" for the whole grid).
func (s Shard) String() string {
	if s == (Shard{}) {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// ParseShardFlag is ParseShard that reads "" as the whole grid.
func ParseShardFlag(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	return ParseShard(s)
}

type shardLoad struct {
	load  engine.Time
	shard int
}

// loadHeap orders shards by load, then number.
type loadHeap []shardLoad

func (h loadHeap) Len() int { return len(h) }
func (h loadHeap) Less(a, b int) bool {
	return h[a].load < h[b].load || (h[a].load == h[b].load && h[a].shard < h[b].shard)
}
func (h loadHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *loadHeap) Push(x any)   { *h = append(*h, x.(shardLoad)) }
func (h *loadHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// ShardCountError reports a number of shards a grid cannot be split into:
// fewer than one, or more than the grid has points.
type ShardCountError struct {
	Grid   string // the grid's name
	Points int    // the grid's points
	Shards int    // the shard count asked for
}

func (e *ShardCountError) Error() string {
	if e.Shards < 1 {
		return fmt.Sprintf("shard count %d: want at least 1", e.Shards)
	}
	return fmt.Sprintf("%d shards: grid %s has only %d points", e.Shards, e.Grid, e.Points)
}

// ShardPlans returns the plans of shards 1..n of g: plans[i] holds exactly
// the points of NewPlan(g, Shard{i+1, n}), in grid order, but the grid is
// indexed and dealt once, in O(P log P) for P points, holding about 20
// bytes per point while it deals and 4 bytes per point after. n must lie in
// 1..g.Count(), or the error is a *ShardCountError: a shard without points
// would be an array task with nothing to do.
func ShardPlans(g *grids.Grid, n int) ([]*Plan, error) {
	if n < 1 || n > g.Count() {
		return nil, &ShardCountError{Grid: g.Name, Points: g.Count(), Shards: n}
	}
	x := g.Index()
	id := GridID(g)
	plans := make([]*Plan, n)
	for i := range plans {
		plans[i] = &Plan{Grid: g, GridID: id, index: x, pos: []uint32{}}
	}
	again := repeats(x)
	for i, s := range dealShards(x, n, again) {
		if _, ok := again[uint32(i)]; !ok {
			p := plans[s]
			p.pos = append(p.pos, uint32(i))
		}
	}
	return plans, nil
}
