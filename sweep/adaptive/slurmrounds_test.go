package adaptive_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
	"github.com/ccsweep/ccsweep/sweep/slurm"
)

// TestSlurmRunsRoundsAsArrays drives a refined grid through Slurm as the
// scripts would: each round's array tasks run their shard of the round the
// merged database is in, the merge job merges and submits the next round,
// until the rounds are finished. The merged results are those of one local
// adaptive sweep.
func TestSlurmRunsRoundsAsArrays(t *testing.T) {
	sim := cliffSim
	g := parse(t, coarseGrid)
	rounds := adaptive.NewRounds(g, g.Refine)
	dir := filepath.Join(t.TempDir(), "out")
	job := &slurm.Job{Ccsweep: "/opt/ccsweep/bin/ccsweep", Dir: dir, Name: g.Name, Tasks: 3, MaxArraySize: 3,
		RunFlags:  []string{"--rounds-from", filepath.Join(dir, "results.db")},
		NextRound: []string{filepath.Join(dir, "grid.toml"), "--dir", dir, "--tasks", "3", "--next-round"}}
	gridFile := filepath.Join(t.TempDir(), "grid.toml")
	if err := os.WriteFile(gridFile, []byte(coarseGrid), 0o644); err != nil {
		t.Fatal(err)
	}
	setup := func() *slurm.Setup {
		s, err := slurm.NewSetup(job, g, gridFile, []byte(coarseGrid))
		if err != nil {
			t.Fatal(err)
		}
		s.Rounds = rounds
		return s
	}
	s := setup()
	if err := s.Write(); err != nil {
		t.Fatal(err)
	}
	merge, _ := os.ReadFile(filepath.Join(dir, slurm.MergeFile))
	if !strings.Contains(string(merge), `"$ccsweep" slurm `+filepath.Join(dir, "grid.toml")+" --dir "+dir+" --tasks 3 --next-round || exit 1") {
		t.Errorf("the merge job does not submit the next round:\n%s", merge)
	}
	array, _ := os.ReadFile(filepath.Join(dir, slurm.ArrayFile))
	if !strings.Contains(string(array), "--rounds-from "+filepath.Join(dir, "results.db")) {
		t.Errorf("the array tasks do not read the round from the merged database:\n%s", array)
	}
	d := slurm.Dir(dir)
	sched := &idScheduler{}
	ctx := context.Background()
	for round := 0; ; round++ {
		if round > 10 {
			t.Fatal("more than 10 rounds")
		}
		s := setup()
		s.Self = "merge-job" // the merge job of the last round submits
		o, err := s.Outstanding(ctx, sched)
		if err != nil {
			t.Fatal(err)
		}
		if o.Nothing() {
			if st := s.Round(); !st.Finished || st.Planned != 56 || st.Round != round-1 {
				t.Fatalf("after round %d: %+v; want the rounds finished with 56 points", round-1, st)
			}
			break
		}
		if st := s.Round(); st.Round != round {
			t.Fatalf("submission %d is for round %d", round, st.Round)
		}
		if _, err := s.Submit(ctx, sched, o); err != nil {
			t.Fatal(err)
		}
		// The array: each task replays the rounds from results.db and
		// runs its shard of the current one.
		for _, i := range o.Shards {
			from, err := openIfThere(d.ResultsDB())
			if err != nil {
				t.Fatal(err)
			}
			st, err := rounds.Current(ctx, from)
			if from != nil {
				from.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
			db, err := store.Open(d.ShardDB(i))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := adaptive.RunRound(ctx, g, st, db, sweep.Options{Workers: 2, Shard: sweep.Shard{Index: i, Count: 3}, Simulate: sim}); err != nil {
				t.Fatal(err)
			}
			db.Close()
		}
		shards, _ := filepath.Glob(filepath.Join(dir, "shards", "shard-*.db"))
		if err := store.Merge(ctx, d.ResultsDB(), shards, false); err != nil {
			t.Fatal(err)
		}
	}
	local := openDB(t, "local.db")
	if _, err := adaptive.RunRounds(ctx, rounds, local, sweep.Options{Workers: 1, Simulate: sim}); err != nil {
		t.Fatal(err)
	}
	merged, err := store.OpenReadOnly(d.ResultsDB())
	if err != nil {
		t.Fatal(err)
	}
	defer merged.Close()
	if a, b := export(t, local), export(t, merged); a != b {
		t.Errorf("merged rounds differ from a local adaptive sweep:\n%s\nvs\n%s", b, a)
	}
}

func openIfThere(path string) (*store.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, nil
	}
	return store.OpenReadOnly(path)
}

// idScheduler is a slurm.Scheduler that queues nothing: Submit hands out
// job IDs 101, 102, ... and no job is ever active.
type idScheduler struct{ n int }

func (s *idScheduler) Submit(context.Context, string, []string) (string, error) {
	s.n++
	return strconv.Itoa(100 + s.n), nil
}
func (s *idScheduler) Cancel(context.Context, []string) error             { return nil }
func (s *idScheduler) Active(context.Context, []string) ([]string, error) { return nil, nil }
func (s *idScheduler) MaxArraySize(context.Context) (int, error)          { return 3, nil }
