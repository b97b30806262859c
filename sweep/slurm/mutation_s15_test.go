package slurm_test

// Tests written for the survivors of session 15's mutation run of
// sweep/slurm (every covered mutant, seed 152; docs/testing.md).

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/ccsweep/ccsweep/sweep/slurm"
)

// The script carries the whole array (#SBATCH --array) only while every
// shard's number is a valid task ID, that is below MaxArraySize.
func TestArrayScriptCarriesTheArrayOnlyBelowMaxArraySize(t *testing.T) {
	for _, tt := range []struct {
		tasks, max int
		want       string // the #SBATCH --array line; "" for none
	}{
		{3, 4, "#SBATCH --array=1-3\n"},
		{4, 4, ""}, // task 4 is not a valid task ID where MaxArraySize is 4
		{5, 4, ""},
	} {
		j := &slurm.Job{Ccsweep: "/usr/bin/ccsweep", Dir: "/scratch/g", Name: "g", Tasks: tt.tasks, MaxArraySize: tt.max}
		text, err := j.ArrayScript()
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if i := strings.Index(text, "#SBATCH --array"); i >= 0 {
			got = text[i : i+strings.IndexByte(text[i:], '\n')+1]
		}
		if got != tt.want {
			t.Errorf("%d tasks, MaxArraySize %d: array line %q, want %q", tt.tasks, tt.max, got, tt.want)
		}
	}
}

// A grid may be split in as many shards as it has points, one point each.
func TestNewSetupTakesOneShardAPoint(t *testing.T) {
	g := parse(t, smallGrid)
	job := &slurm.Job{Ccsweep: "/bin/ccsweep", Dir: t.TempDir(), Name: g.Name, Tasks: g.Count(), MaxArraySize: 1001}
	if _, err := slurm.NewSetup(job, g, "grid.toml", []byte(smallGrid)); err != nil {
		t.Fatalf("%d shards of %d points: %v", job.Tasks, g.Count(), err)
	}
}

// The merge job of a round resubmits from inside the last submission: the
// queue guard must not count that job itself as still queued.
func TestSlurmQueueGuardIgnoresItsOwnJob(t *testing.T) {
	f := newSlurmFixture(t)
	s := f.setup(t)
	submit(t, s, f.sched, outstanding(t, s, f.sched)) // jobs 101, 102 and the merge job 103
	for _, tt := range []struct {
		self    string
		active  []string
		queued  []string // what the QueuedError names; nil for no error
		comment string
	}{
		{"103", []string{"103"}, nil, "only the caller itself runs"},
		{"103", []string{"102", "103"}, []string{"102"}, "an array job still runs beside it"},
		{"", []string{"103"}, []string{"103"}, "not a job: every active job counts"},
	} {
		s := f.setup(t)
		s.Self = tt.self
		_, err := s.Outstanding(context.Background(), &fakeScheduler{active: tt.active})
		var qe *slurm.QueuedError
		switch {
		case tt.queued == nil && err != nil:
			t.Errorf("%s: %v", tt.comment, err)
		case tt.queued != nil && (!errors.As(err, &qe) || strings.Join(qe.Jobs, ",") != strings.Join(tt.queued, ",")):
			t.Errorf("%s: got %v, want a QueuedError naming %v", tt.comment, err, tt.queued)
		}
	}
}

// A failed submission whose cancelling fails too says both.
func TestSlurmFailedCancelIsReported(t *testing.T) {
	f := newSlurmFixture(t)
	s := f.setup(t)
	sched := &cancelFails{fakeScheduler: fakeScheduler{failAt: 3}}
	_, err := s.Submit(context.Background(), sched, outstanding(t, s, sched))
	if !errors.Is(err, errSbatch) || !strings.Contains(err.Error(), "cancelling the jobs submitted before, 101, 102, failed: scancel: timed out") {
		t.Fatalf("got %v", err)
	}
}

type cancelFails struct{ fakeScheduler }

func (c *cancelFails) Cancel(ctx context.Context, ids []string) error {
	c.fakeScheduler.Cancel(ctx, ids)
	return errors.New("scancel: timed out")
}

// blockManifest puts a directory where f's manifest goes: the atomic rename
// onto it fails, even for root.
func blockManifest(t *testing.T, f *slurmFixture) {
	t.Helper()
	manifest := f.dir.File(slurm.ManifestFile)
	if err := os.Remove(manifest); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(manifest, "in-the-way"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// A submission whose manifest cannot be written fails and cancels every job
// it submitted: the next ccsweep slurm would not know them and would submit
// their shards again, beside them. The manifest in memory names no new
// submission either.
func TestSlurmSubmitFailsWhenTheManifestCannotBeWritten(t *testing.T) {
	f := newSlurmFixture(t)
	s := f.setup(t)
	o := outstanding(t, s, f.sched)
	blockManifest(t, f)
	sub, err := s.Submit(context.Background(), f.sched, o)
	if err == nil {
		t.Fatalf("submitted %+v with no manifest written, no error", sub)
	}
	if sub != nil || !slices.EqualFunc(f.sched.cancelled, [][]string{{"101", "102", "103"}}, slices.Equal[[]string]) {
		t.Fatalf("got %+v, cancelled %v; want nothing returned and jobs 101-103 cancelled", sub, f.sched.cancelled)
	}
	if last := s.Manifest().LastSubmission(); last != nil {
		t.Fatalf("the manifest in memory names submission %+v that was cancelled", last)
	}
}

// When the manifest cannot be written and cancelling fails too, the error
// names the jobs left queued, so that the user can cancel them.
func TestSlurmSubmitNamesTheJobsItCouldNotCancel(t *testing.T) {
	f := newSlurmFixture(t)
	s := f.setup(t)
	o := outstanding(t, s, f.sched)
	blockManifest(t, f)
	sched := &cancelFails{*f.sched}
	_, err := s.Submit(context.Background(), sched, o)
	if err == nil || !strings.Contains(err.Error(), "101, 102, 103") || !strings.Contains(err.Error(), "scancel: timed out") {
		t.Fatalf("error %v; want it to name jobs 101, 102, 103 and the scancel failure", err)
	}
}

// Write copies the grid into the directory unless the grid file is that
// copy, which it then leaves as it is.
func TestSlurmWriteLeavesTheCopyThatIsTheGridFile(t *testing.T) {
	f := newSlurmFixture(t)
	f.setup(t)
	copyPath := f.dir.GridFile()
	before, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := slurm.NewSetup(f.job, f.g, copyPath, []byte(smallGrid))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Fatal("Write replaced the grid file it was given, the directory's own copy")
	}
	// From another file, the copy is written (replaced) with the grid's text.
	f.setup(t)
	again, err := os.Stat(copyPath)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(after, again) {
		t.Fatal("Write from another grid file left the old copy")
	}
	if text, _ := os.ReadFile(copyPath); string(text) != smallGrid {
		t.Fatalf("copy holds %q", text)
	}
}

// Outstanding counts the points a shard still lacks, not its size: a shard
// whose task failed one point resubmits that one point.
func TestSlurmOutstandingCountsAPartShard(t *testing.T) {
	f := newSlurmFixture(t)
	f.setup(t)
	for i := 1; i <= 3; i++ {
		f.runShard(t, i, f.dir.ShardDB(i))
	}
	db, err := sql.Open("sqlite", f.dir.ShardDB(3))
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`UPDATE points SET status = 'failed', error = 'planted' WHERE id = (SELECT min(id) FROM points)`)
	db.Close()
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("failing a point of shard 3: %v, %d rows", err, n)
	}
	if f.size(3) < 2 {
		t.Fatalf("shard 3 has %d points: the test needs a shard of two or more", f.size(3))
	}
	o := outstanding(t, f.setup(t), f.sched)
	if len(o.Shards) != 1 || o.Shards[0] != 3 || o.Points != 1 {
		t.Fatalf("outstanding %+v, want shard 3 with its 1 failed point", o)
	}
}
