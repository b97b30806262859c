package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// appsShardScenario: a 3-rank all-reduce (whose 4 iteration times are
// stored per point) and a random ring (rings drawn from the seed) beside a
// greedy incast on a 2-ary fat tree.
const appsShardScenario = `phases = 1
[topology]
kind = "fattree"
k = 2

[[app]]
name = "ar"
program = "allreduce"
ranks = 3
size = 65536
iterations = 4
compute = "5us"

[[app]]
name = "rr"
program = "ring"
order = "random"
patterns = 2
hosts = ["H1", "H2", "H3", "H4"]
size = 4096
iterations = 2

[[traffic]]
name = "storage"
pattern = "incast"
hot = ["H3"]
sources = ["H4"]
`

// appsShardGrid: 6 points of about 0.1 s each.
const appsShardGrid = `name = "appshards"
scenario = "apps.toml"
phase = "1ms"
sample = "100us"
cc = "on"
seeds = 2
[base]
marking_mode = "random"
[sweep]
"ar.size" = [16384, 32768, 65536]
`

// writeAppsGrid writes appsShardGrid and its scenario into a new folder.
func writeAppsGrid(t *testing.T) string {
	t.Helper()
	grid := writeGrid(t, appsShardGrid)
	if err := os.WriteFile(filepath.Join(filepath.Dir(grid), "apps.toml"), []byte(appsShardScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	return grid
}

// exportIterations returns export --iterations of db.
func exportIterations(t *testing.T, db string) string {
	t.Helper()
	out, stderr, code := ccsweep(t, "export", db, "--iterations")
	if code != 0 {
		t.Fatalf("export --iterations %s: exit %d: %s", db, code, stderr)
	}
	return out
}

// checkSameApps fails unless got and want export the same points, app
// metrics and iteration times, and the iterations hold every point's 4.
func checkSameApps(t *testing.T, got, want string, points int) {
	t.Helper()
	checkDatabase(t, got, points)
	g, w := export(t, got, "csv"), export(t, want, "csv")
	if g != w || !strings.Contains(g, ",ar_iteration_mean_us,") {
		t.Fatalf("export differs from one local run's (or has no app metrics):\n%s\nwant\n%s", g, w)
	}
	gi, wi := exportIterations(t, got), exportIterations(t, want)
	if gi != wi || strings.Count(gi, "\n") != 1+4*points {
		t.Fatalf("export --iterations differs from one local run's (or lacks rows: want %d):\n%s\nwant\n%s", 4*points, gi, wi)
	}
}

// TestAppsShardsMergeLikeOneRun: a grid with apps run as 3 shards and
// merged gives the metrics and iteration times of one run.
func TestAppsShardsMergeLikeOneRun(t *testing.T) {
	grid := writeAppsGrid(t)
	dir := filepath.Dir(grid)
	one := filepath.Join(dir, "one.db")
	runInto(t, grid, one, "")
	var shards []string
	for i := 1; i <= 3; i++ {
		s := filepath.Join(dir, "shard-"+string(rune('0'+i))+".db")
		runInto(t, grid, s, string(rune('0'+i))+"/3")
		shards = append(shards, s)
	}
	merged := filepath.Join(dir, "merged.db")
	if out, stderr, code := ccsweep(t, append([]string{"merge", merged}, shards...)...); code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, out, stderr)
	}
	checkSameApps(t, merged, one, 6)
}

// TestSlurmAppsOnLocalCluster: the same grid as a job array of 2 tasks on
// the local Slurm gives what a local run gives, iteration times included.
func TestSlurmAppsOnLocalCluster(t *testing.T) {
	requireSlurm(t)
	grid := writeAppsGrid(t)
	out := filepath.Join(t.TempDir(), "out")
	_, arrays, merge := slurmSubmit(t, grid, "--tasks", "2", "--dir", out)
	local := filepath.Join(t.TempDir(), "local.db")
	runInto(t, grid, local, "")
	if states := waitJobs(t, 2*time.Minute, append(arrays, merge)...); !allCompleted(states) {
		t.Fatalf("job states %v", states)
	}
	checkSameApps(t, filepath.Join(out, "results.db"), local, 6)
}
