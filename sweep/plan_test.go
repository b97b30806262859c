package sweep_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/sweep"
)

// repeatGrid lists some points twice (the second [[grid]] overlaps the
// first) and has a where constraint and seeds.
const repeatGrid = `
name     = "repeats"
scenario = "testbed-s1"
cc       = "on"
sample   = "1ms"
seeds    = 2

[[grid]]
phase        = "3ms"
sweep.marking_rate = [0, 1, 2, 4]
sweep.ccti_timer   = ["100us", "200us", "300us"]
where = "marking_rate < 4 || ccti_timer > 150"

[[grid]]
phase        = "3ms"
sweep.marking_rate = [2, 4, 8]
sweep.ccti_timer   = ["300us"]

[[grid]]
phase        = "7ms"
sweep.marking_rate = [0, 16]
`

// TestShardDealingGolden pins which points each shard of a plan holds, in
// which order: a change would send points already run by one array task to
// another, and the shards of a grid run before and after would overlap.
func TestShardDealingGolden(t *testing.T) {
	for _, text := range []string{smallGrid, unevenGrid, repeatGrid} {
		g := parse(t, text)
		t.Run(g.Name, func(t *testing.T) {
			var b strings.Builder
			for _, n := range []int{1, 2, 3, 4, 7} {
				for i := 1; i <= n; i++ {
					plan, err := sweep.NewPlan(g, sweep.Shard{Index: i, Count: n})
					if err != nil {
						t.Fatal(err)
					}
					fmt.Fprintf(&b, "shard %d/%d:", i, n)
					for _, id := range planIDs(plan) {
						fmt.Fprintf(&b, " %s", id[:8])
					}
					b.WriteString("\n")
				}
			}
			golden := filepath.Join("testdata", "shards", g.Name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./sweep -run ShardDealing -update)", err)
			}
			if b.String() != string(want) {
				t.Errorf("shards differ from %s:\ngot:\n%s\nwant:\n%s", golden, b.String(), want)
			}
		})
	}
}

// planIDs returns the IDs of the plan's points in order.
func planIDs(p *sweep.Plan) []string {
	ids := make([]string, p.Len())
	for k := range ids {
		ids[k] = p.ID(k)
	}
	return ids
}
