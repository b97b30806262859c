package fabric

// minHop is min-hop routing spread over equal-cost ports (spreadRoutes):
// every switch forwards on a shortest path, so paths never loop, but their
// channel dependencies may form cycles where the topology has rings.
func (f *Fabric) minHop(lmc int) *Routes {
	dist := make([]int32, len(f.sws))
	var queue []int32
	return f.spreadRoutes(lmc, func(dst int32, c *candidates) {
		queue = f.hops(dst, dist, queue)
		c.reset()
		for s := range f.sws {
			if d := dist[s]; d > 0 {
				first, end := f.ports(int32(s))
				for gp := first; gp < end; gp++ {
					if x := f.next(gp); x >= 0 && dist[x] == d-1 {
						c.add(gp - first)
					}
				}
			}
			c.done()
		}
	})
}

// hops sets dist[s] to the number of links on a shortest path from switch
// s to switch dst through switches, or -1 where there is none, by a
// breadth-first search; queue is scratch space, returned for reuse.
func (f *Fabric) hops(dst int32, dist []int32, queue []int32) []int32 {
	return f.search(dst, nil, dist, queue)
}

// search is the breadth-first search of hops and downHops: from dst through
// switches, with level set only towards higher levels (links a packet takes
// going down to dst).
func (f *Fabric) search(dst int32, level, dist []int32, queue []int32) []int32 {
	for i := range dist {
		dist[i] = -1
	}
	dist[dst] = 0
	queue = append(queue[:0], dst)
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		first, end := f.ports(u)
		for gp := first; gp < end; gp++ {
			if v := f.next(gp); v >= 0 && dist[v] < 0 && (level == nil || level[v] > level[u]) {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return queue
}
