package sweep

import (
	"bytes"
	"cmp"
	"container/heap"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"iter"
	"slices"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
)

// Plan is the points of a grid (or of one shard of it) that a sweep runs,
// each once: a point several sub-grids list belongs to the plan where it
// first appears. A plan does not hold its points: it holds the grid, an
// index of it and, unless it is the whole grid without repeats, the grid
// positions of its points as 4 bytes each; Point and ID build a point and
// its identity on demand. Make one with NewPlan or ShardPlans (the zero
// Plan is not usable); it is read-only once made and safe for concurrent
// use.
type Plan struct {
	Grid   *grids.Grid
	GridID string

	index *grids.Index
	list  []grids.Point // the points of a round of an adaptive sweep, instead of index (see NewListPlan)
	pos   []uint32      // grid positions of the plan's points, ascending; nil: every position
}

// NewPlan plans the points of shard of g. A point that several sub-grids
// list is kept once, where it first appears. Memory beyond the grid is
// 4 bytes per point of the shard, and while dealing shards (Shard.Count >
// 1) about 20 bytes per point of the grid.
func NewPlan(g *grids.Grid, shard Shard) (*Plan, error) {
	if err := shard.validate(); err != nil {
		return nil, err
	}
	x := g.Index()
	p := &Plan{Grid: g, GridID: GridID(g), index: x}
	again := repeats(x)
	if shard == (Shard{}) || shard.Count == 1 {
		if len(again) > 0 {
			p.pos = make([]uint32, 0, x.Len()-len(again))
			for i := range x.Len() {
				if _, ok := again[uint32(i)]; !ok {
					p.pos = append(p.pos, uint32(i))
				}
			}
		}
		return p, nil
	}
	p.pos = []uint32{}
	for i, sh := range dealShards(x, shard.Count, again) {
		if _, ok := again[uint32(i)]; !ok && int(sh) == shard.Index-1 {
			p.pos = append(p.pos, uint32(i))
		}
	}
	return p, nil
}

// NewListPlan plans the points of shard of list, points of g each listed
// once (the points a round of an adaptive sweep adds, which the grid does
// not index), in order, dealt to shards by cost as NewPlan deals a grid's.
// The plan holds list; the caller must not modify it.
func NewListPlan(g *grids.Grid, list []grids.Point, shard Shard) (*Plan, error) {
	if err := shard.validate(); err != nil {
		return nil, err
	}
	p := &Plan{Grid: g, GridID: GridID(g), list: list}
	if shard == (Shard{}) || shard.Count == 1 {
		return p, nil
	}
	p.pos = []uint32{}
	for i, sh := range deal(len(list), func(i int) grids.Point { return list[i] }, shard.Count, nil) {
		if int(sh) == shard.Index-1 {
			p.pos = append(p.pos, uint32(i))
		}
	}
	return p, nil
}

// Len returns the number of points of the plan.
func (p *Plan) Len() int {
	switch {
	case p.pos != nil:
		return len(p.pos)
	case p.list != nil:
		return len(p.list)
	}
	return p.index.Len()
}

// Point returns point k of the plan, 0 <= k < Len(), in grid order.
func (p *Plan) Point(k int) grids.Point {
	if p.list != nil {
		return p.list[p.gridPos(k)]
	}
	return p.index.Point(p.gridPos(k))
}

// ID returns the identity of point k under this model version.
func (p *Plan) ID(k int) string { return grids.PointID(p.Point(k), model.Version) }

// All yields the plan's points with their positions k in the plan, in
// order, one at a time.
func (p *Plan) All() iter.Seq2[int, grids.Point] {
	return func(yield func(int, grids.Point) bool) {
		for k := range p.Len() {
			if !yield(k, p.Point(k)) {
				return
			}
		}
	}
}

// Only returns the plan of those of p's points keep accepts, in order,
// as when a test leaves some points out of a run.
func (p *Plan) Only(keep func(grids.Point) bool) *Plan {
	q := &Plan{Grid: p.Grid, GridID: p.GridID, index: p.index, list: p.list, pos: []uint32{}}
	for k, pt := range p.All() {
		if keep(pt) {
			q.pos = append(q.pos, uint32(p.gridPos(k)))
		}
	}
	return q
}

// gridPos returns the grid position of the plan's point k.
func (p *Plan) gridPos(k int) int {
	if p.pos == nil {
		return k
	}
	return int(p.pos[k])
}

// idBatch is how many IDs a plan asks the database about at once.
const idBatch = 4096

// Missing returns the positions of the plan's points the database does not
// hold as done, ascending. It asks the database a batch of IDs at a time,
// so it holds no more than the positions it returns.
func (p *Plan) Missing(ctx context.Context, db *store.DB) ([]int, error) {
	return p.notDone(ctx, db, p.positions())
}

// notDone returns, in order, the positions among ks whose points db does
// not hold as done, under their ID or their legacy ID.
func (p *Plan) notDone(ctx context.Context, db *store.DB, ks iter.Seq[int]) ([]int, error) {
	// An empty database holds no point under a legacy ID: a new run of a
	// big grid need not hash and ask for them.
	done, failed, err := db.Counts(ctx, "")
	if err != nil {
		return nil, err
	}
	var idx []int
	err = p.batches(ks, done+failed > 0, func(ks []int, ids, legacy []string) error {
		done, err := doneIDs(ctx, db, ids, legacy)
		if err != nil {
			return err
		}
		for j, id := range ids {
			if !done[id] {
				idx = append(idx, ks[j])
			}
		}
		return nil
	})
	return idx, err
}

// doneIDs reports which of the points whose IDs are ids db holds done, by
// ID; legacy holds their legacy IDs (grids.LegacyPointID), "" where a
// point has none, and a point done under its legacy ID, in a database
// written before ID left out parameters at their default, is done.
func doneIDs(ctx context.Context, db *store.DB, ids, legacy []string) (map[string]bool, error) {
	ask := slices.Clip(ids) // appending must not write into the caller's array
	for _, l := range legacy {
		if l != "" {
			ask = append(ask, l)
		}
	}
	done, err := db.Done(ctx, ask)
	if err != nil {
		return nil, err
	}
	for j, l := range legacy {
		if l != "" && done[l] {
			done[ids[j]] = true
		}
	}
	return done, nil
}

// positions yields every position of the plan, 0..Len()-1.
func (p *Plan) positions() iter.Seq[int] {
	return func(yield func(int) bool) {
		for k := range p.Len() {
			if !yield(k) {
				return
			}
		}
	}
}

// batches calls fn with the positions ks yields, their IDs and, if
// withLegacy, their legacy IDs ("" for a point without one; all "" without
// withLegacy), idBatch at a time, in order, until fn fails. fn must not
// keep its slices.
func (p *Plan) batches(positions iter.Seq[int], withLegacy bool, fn func(ks []int, ids, legacy []string) error) error {
	ks := make([]int, 0, idBatch)
	ids := make([]string, 0, idBatch)
	legacy := make([]string, 0, idBatch)
	for k := range positions {
		pt := p.Point(k)
		l := ""
		if withLegacy {
			l = grids.LegacyPointID(pt, model.Version)
		}
		ks, ids, legacy = append(ks, k), append(ids, grids.PointID(pt, model.Version)), append(legacy, l)
		if len(ids) == idBatch {
			if err := fn(ks, ids, legacy); err != nil {
				return err
			}
			ks, ids, legacy = ks[:0], ids[:0], legacy[:0]
		}
	}
	if len(ids) > 0 {
		return fn(ks, ids, legacy)
	}
	return nil
}

// pointID is a point's identity as the 16 bytes its hex ID spells.
type pointID [16]byte

// repeats returns, for every grid position whose point an earlier position
// already lists (another sub-grid giving the same point), that earlier
// position. Only points of different sub-grids can be equal (a sub-grid's
// values are distinct), so a grid of one sub-grid has none and costs
// nothing; otherwise it sorts 20 bytes per point once.
func repeats(x *grids.Index) map[uint32]uint32 {
	again := map[uint32]uint32{}
	if len(x.Grid().Subs) < 2 {
		return again
	}
	type entry struct {
		id  pointID
		pos uint32
	}
	es := make([]entry, x.Len())
	for i := range es {
		id := grids.PointID(x.Point(i), model.Version)
		hex.Decode(es[i].id[:], []byte(id))
		es[i].pos = uint32(i)
	}
	slices.SortFunc(es, func(a, b entry) int {
		return cmp.Or(bytes.Compare(a.id[:], b.id[:]), cmp.Compare(a.pos, b.pos))
	})
	for i := 1; i < len(es); i++ {
		if es[i].id == es[i-1].id {
			first := es[i-1].pos
			if f, ok := again[first]; ok {
				first = f
			}
			again[es[i].pos] = first
		}
	}
	return again
}

// dealShards returns the 0-based shard of every grid position: by
// descending cost (simulated time), ties by position, each to the shard
// with the least load so far, ties to the lowest shard. A repeat (see
// repeats) goes to the shard of its first listing and adds no load, so it
// runs once. It holds 16 bytes per point while it deals.
func dealShards(x *grids.Index, n int, again map[uint32]uint32) []int32 {
	return deal(x.Len(), x.Point, n, again)
}

// deal is dealShards for the count points that point returns by position.
func deal(count int, point func(int) grids.Point, n int, again map[uint32]uint32) []int32 {
	type entry struct {
		cost engine.Time
		pos  uint32
	}
	es := make([]entry, 0, count-len(again))
	for i := range count {
		if _, ok := again[uint32(i)]; !ok {
			es = append(es, entry{SimulatedTime(point(i)), uint32(i)})
		}
	}
	slices.SortFunc(es, func(a, b entry) int { return cmp.Or(cmp.Compare(b.cost, a.cost), cmp.Compare(a.pos, b.pos)) })
	// Only the first len(es) shards can get a point (each point goes to the
	// least loaded, ties to the lowest, and loads are positive), so a shard
	// count past the points costs no memory: the rest stay empty.
	h := make(loadHeap, min(n, max(len(es), 1)))
	for k := range h {
		h[k] = shardLoad{shard: k}
	}
	heap.Init(&h)
	out := make([]int32, count)
	for _, e := range es {
		out[e.pos] = int32(h[0].shard)
		h[0].load += max(e.cost, 1)
		heap.Fix(&h, 0)
	}
	for i, f := range again {
		out[i] = out[f]
	}
	return out
}

// GridID returns the identity of a grid as run by this model version.
func GridID(g *grids.Grid) string {
	sum := sha256.Sum256([]byte("ccsweep-grid-id/1\nmodel=" + model.Version + "\n" + g.Canonical()))
	return hex.EncodeToString(sum[:16])
}
