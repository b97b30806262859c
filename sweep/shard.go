package sweep

import (
	"container/heap"
	"fmt"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
)

// Shard is slice Index (1-based) of Count slices of a grid's points. The
// zero Shard is the whole grid.
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

// Select returns the points of shard s, in grid order. Points are dealt to
// shards by cost (simulated time), the longest first, each to the shard with
// the least work so far, ties to the lowest shard: deterministic and
// balanced. The shards of one grid partition its points.
func (s Shard) Select(pts []grids.Point) []grids.Point {
	if s == (Shard{}) || s.Count == 1 {
		return pts
	}
	var out []grids.Point
	for i, sh := range dealShards(pts, s.Count) {
		if sh == s.Index-1 {
			out = append(out, pts[i])
		}
	}
	return out
}

// ParseShardFlag is ParseShard that reads "" as the whole grid.
func ParseShardFlag(s string) (Shard, error) {
	if s == "" {
		return Shard{}, nil
	}
	return ParseShard(s)
}

// dealShards returns the 0-based shard of every point, dealt as
// Shard.Select does: by descending cost, each to the shard with the least
// load so far, ties to the lowest shard. A point listed again (the same ID,
// from another sub-grid) goes to the shard of its first listing and adds no
// load, so it runs once.
func dealShards(pts []grids.Point, n int) []int {
	first := make(map[string]int, len(pts))
	var idx []int
	again := make(map[int]int) // index of a repeat -> index of its first listing
	for i, p := range pts {
		id := p.ID(model.Version)
		if f, ok := first[id]; ok {
			again[i] = f
			continue
		}
		first[id] = i
		idx = append(idx, i)
	}
	sortByCost(pts, idx)
	h := make(loadHeap, n)
	for k := range h {
		h[k] = shardLoad{shard: k}
	}
	heap.Init(&h)
	out := make([]int, len(pts))
	for _, i := range idx {
		out[i] = h[0].shard
		h[0].load += max(SimulatedTime(pts[i]), 1)
		heap.Fix(&h, 0)
	}
	for i, f := range again {
		out[i] = out[f]
	}
	return out
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
