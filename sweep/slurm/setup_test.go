package slurm_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/slurm"
	_ "modernc.org/sqlite"
)

// fakeScheduler is a Scheduler that records its calls. Submit hands out job
// IDs 101, 102, ... in order; Active reports the IDs in active.
type fakeScheduler struct {
	submits   [][]string // the sbatch arguments of each Submit
	dirs      []string   // the directory of each Submit
	failAt    int        // the Submit call (1-based) that fails; 0 for none
	cancelled [][]string // the IDs of each Cancel
	active    []string   // the jobs queued or running
	activeErr error      // what Active fails with
	asked     [][]string // the IDs of each Active
}

var errSbatch = errors.New("sbatch: error: Batch job submission failed: Invalid partition name specified")

func (f *fakeScheduler) Submit(_ context.Context, dir string, args []string) (string, error) {
	f.submits = append(f.submits, slices.Clone(args))
	f.dirs = append(f.dirs, dir)
	if len(f.submits) == f.failAt {
		return "", errSbatch
	}
	return strconv.Itoa(100 + len(f.submits)), nil
}

func (f *fakeScheduler) Cancel(_ context.Context, ids []string) error {
	f.cancelled = append(f.cancelled, slices.Clone(ids))
	return nil
}

func (f *fakeScheduler) Active(_ context.Context, ids []string) ([]string, error) {
	f.asked = append(f.asked, slices.Clone(ids))
	var active []string
	for _, id := range ids {
		if slices.Contains(f.active, id) {
			active = append(active, id)
		}
	}
	return active, f.activeErr
}

func (f *fakeScheduler) MaxArraySize(context.Context) (int, error) { return 3, nil }

// slurmFixture is smallGrid (8 points) set up for 3 shards in a new
// directory, its arrays split by MaxArraySize 3 into shards 1-2 and 3.
type slurmFixture struct {
	g     *grids.Grid
	dir   slurm.Dir
	job   *slurm.Job
	plans []*sweep.Plan
	sched *fakeScheduler
}

func newSlurmFixture(t *testing.T) *slurmFixture {
	t.Helper()
	g := parse(t, smallGrid)
	dir := filepath.Join(t.TempDir(), "out")
	plans, err := sweep.ShardPlans(g, 3)
	if err != nil {
		t.Fatal(err)
	}
	return &slurmFixture{g: g, dir: slurm.Dir(dir), plans: plans, sched: &fakeScheduler{},
		job: &slurm.Job{Ccsweep: "/opt/ccsweep/bin/ccsweep", Dir: dir, Name: g.Name, Tasks: 3, MaxArraySize: 3}}
}

// setup checks and writes the directory, as ccsweep slurm does each time.
func (f *slurmFixture) setup(t *testing.T) *slurm.Setup {
	t.Helper()
	s, err := slurm.NewSetup(f.job, f.g, filepath.Join(t.TempDir(), "grid.toml"), []byte(smallGrid))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(); err != nil {
		t.Fatal(err)
	}
	return s
}

// runShard runs shard i's points into the database at path, as its array
// task would.
func (f *slurmFixture) runShard(t *testing.T, i int, path string) {
	t.Helper()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runGrid(t, f.g, db, sweep.Options{Workers: 2, Shard: sweep.Shard{Index: i, Count: 3}})
}

// merge merges the shard databases that exist into results.db, as the merge
// job does.
func (f *slurmFixture) merge(t *testing.T) {
	t.Helper()
	shards, _ := filepath.Glob(filepath.Join(string(f.dir), "shards", "shard-*.db"))
	if err := store.Merge(context.Background(), f.dir.ResultsDB(), shards, false); err != nil {
		t.Fatal(err)
	}
}

func (f *slurmFixture) size(i int) int { return f.plans[i-1].Len() }

func (f *slurmFixture) manifest(t *testing.T) *slurm.Manifest {
	t.Helper()
	m, err := f.dir.ReadManifest()
	if err != nil || m == nil {
		t.Fatalf("manifest: %v, %v", m, err)
	}
	return m
}

func outstanding(t *testing.T, s *slurm.Setup, sched slurm.Scheduler) slurm.Outstanding {
	t.Helper()
	o, err := s.Outstanding(context.Background(), sched)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func submit(t *testing.T, s *slurm.Setup, sched slurm.Scheduler, o slurm.Outstanding) *slurm.Submitted {
	t.Helper()
	sub, err := s.Submit(context.Background(), sched, o)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func checkCalls(t *testing.T, got [][]string, want ...string) {
	t.Helper()
	var g []string
	for _, c := range got {
		g = append(g, strings.Join(c, " "))
	}
	if !slices.Equal(g, want) {
		t.Fatalf("sbatch calls\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
	}
}

func TestSlurmFirstSubmission(t *testing.T) {
	f := newSlurmFixture(t)
	s := f.setup(t)
	for _, name := range []string{"grid.toml", "job.sbatch", "merge.sbatch", "submit.sh", "slurm.json", "shards", "logs"} {
		if _, err := os.Stat(filepath.Join(string(f.dir), name)); err != nil {
			t.Errorf("Write: %v", err)
		}
	}
	o := outstanding(t, s, f.sched)
	if !slices.Equal(o.Shards, []int{1, 2, 3}) || o.Points != 8 || o.MergeOnly || o.Nothing() {
		t.Fatalf("outstanding %+v, want all 3 shards, 8 points", o)
	}
	if len(f.sched.asked) != 0 {
		t.Fatalf("asked the queue about %v with no submission before", f.sched.asked)
	}
	sub := submit(t, s, f.sched, o)
	job, merge := filepath.Join(string(f.dir), "job.sbatch"), filepath.Join(string(f.dir), "merge.sbatch")
	checkCalls(t, f.sched.submits,
		"--parsable --array=1-2 "+job+" 0",
		"--parsable --array=1 "+job+" 2",
		"--parsable --dependency=afterany:101:102 "+merge)
	for _, d := range f.sched.dirs {
		if d != string(f.dir) {
			t.Fatalf("submitted from %s, want %s", d, f.dir)
		}
	}
	if !slices.Equal(sub.ArrayJobs, []string{"101", "102"}) || sub.MergeJob != "103" || len(sub.Arrays) != 2 ||
		!slices.Equal(sub.Arrays[1].Shards, []int{3}) || !slices.Equal(sub.Jobs(), []string{"101", "102", "103"}) {
		t.Fatalf("submitted %+v", sub)
	}
	m := f.manifest(t)
	if len(m.Submissions) != 1 || !slices.Equal(m.Submissions[0].Shards, []int{1, 2, 3}) ||
		!slices.Equal(m.Submissions[0].ArrayJobs, []string{"101", "102"}) || m.Submissions[0].MergeJob != "103" ||
		m.Tasks != 3 || m.Points != 8 || m.Grid != "small" || m.GridID != sweep.GridID(f.g) {
		t.Fatalf("manifest %+v", m)
	}
}

func TestSlurmResubmitsOnlyShardsMissingPoints(t *testing.T) {
	f := newSlurmFixture(t)
	f.setup(t)
	// Shard 1 finished and was merged, its own database since lost; shard 2
	// finished after the merge; shard 3 never ran.
	f.runShard(t, 1, f.dir.ShardDB(1))
	f.merge(t)
	os.Remove(f.dir.ShardDB(1))
	f.runShard(t, 2, f.dir.ShardDB(2))

	s := f.setup(t)
	o := outstanding(t, s, f.sched)
	if !slices.Equal(o.Shards, []int{3}) || o.Points != f.size(3) || o.MergeOnly {
		t.Fatalf("outstanding %+v, want shard 3 and its %d points", o, f.size(3))
	}
	submit(t, s, f.sched, o)
	checkCalls(t, f.sched.submits,
		"--parsable --array=1 "+filepath.Join(string(f.dir), "job.sbatch")+" 2",
		"--parsable --dependency=afterany:101 "+filepath.Join(string(f.dir), "merge.sbatch"))

	// Shard 3 ran; the merge job has not: only it runs, at once.
	f.runShard(t, 3, f.dir.ShardDB(3))
	s, f.sched = f.setup(t), &fakeScheduler{}
	o = outstanding(t, s, f.sched)
	if len(o.Shards) != 0 || o.Points != 0 || !o.MergeOnly || o.Nothing() {
		t.Fatalf("outstanding %+v, want the merge job alone", o)
	}
	if !slices.EqualFunc(f.sched.asked, [][]string{{"101", "102"}}, slices.Equal[[]string]) {
		t.Fatalf("asked the queue about %v, want the jobs of the last submission", f.sched.asked)
	}
	sub := submit(t, s, f.sched, o)
	checkCalls(t, f.sched.submits, "--parsable "+filepath.Join(string(f.dir), "merge.sbatch"))
	if len(sub.ArrayJobs) != 0 || len(sub.Arrays) != 0 || sub.MergeJob != "101" {
		t.Fatalf("merge-only submission %+v", sub)
	}
	if m := f.manifest(t); len(m.Submissions) != 2 || len(m.Submissions[1].Shards) != 0 || m.Submissions[1].MergeJob != "101" {
		t.Fatalf("manifest %+v", m)
	}

	// Merged: nothing to do, whatever the queue says.
	f.merge(t)
	f.sched = &fakeScheduler{active: []string{"101"}}
	if o := outstanding(t, f.setup(t), f.sched); !o.Nothing() || len(f.sched.asked) != 0 {
		t.Fatalf("outstanding %+v after the merge (asked %v), want nothing and no question", o, f.sched.asked)
	}
}

func TestSlurmQueueGuard(t *testing.T) {
	tests := []struct {
		name      string
		active    []string
		activeErr error
		want      []string // the jobs a *QueuedError names; nil for none
		wantErr   bool
	}{
		{"all ended", nil, nil, nil, false},
		{"array running", []string{"102"}, nil, []string{"102"}, true},
		{"merge job queued", []string{"101", "103"}, nil, []string{"101", "103"}, true},
		{"queue unreadable", nil, errors.New("squeue: connection refused"), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSlurmFixture(t)
			s := f.setup(t)
			submit(t, s, f.sched, outstanding(t, s, f.sched))
			sched := &fakeScheduler{active: tt.active, activeErr: tt.activeErr}
			_, err := f.setup(t).Outstanding(context.Background(), sched)
			if !slices.EqualFunc(sched.asked, [][]string{{"101", "102", "103"}}, slices.Equal[[]string]) {
				t.Fatalf("asked about %v, want the last submission's jobs", sched.asked)
			}
			var qe *slurm.QueuedError
			switch {
			case !tt.wantErr && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.wantErr && err == nil:
				t.Fatal("no error")
			case tt.want != nil && (!errors.As(err, &qe) || !slices.Equal(qe.Jobs, tt.want) || qe.Dir != string(f.dir)):
				t.Fatalf("got %v, want a QueuedError naming %v", err, tt.want)
			case tt.activeErr != nil && !errors.Is(err, tt.activeErr):
				t.Fatalf("got %v, want it to wrap %v", err, tt.activeErr)
			}
		})
	}
}

func TestSlurmFailedSubmissionCancelsWhatItSubmitted(t *testing.T) {
	tests := []struct {
		name       string
		failAt     int
		wantCancel [][]string
	}{
		{"first array", 1, nil},
		{"second array", 2, [][]string{{"101"}}},
		{"merge job", 3, [][]string{{"101", "102"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSlurmFixture(t)
			s := f.setup(t)
			f.sched.failAt = tt.failAt
			sub, err := s.Submit(context.Background(), f.sched, outstanding(t, s, f.sched))
			if !errors.Is(err, errSbatch) || sub != nil {
				t.Fatalf("got %+v, %v; want the sbatch error", sub, err)
			}
			if len(f.sched.submits) != tt.failAt || !slices.EqualFunc(f.sched.cancelled, tt.wantCancel, slices.Equal[[]string]) {
				t.Fatalf("%d submissions, cancelled %v; want %d, %v", len(f.sched.submits), f.sched.cancelled, tt.failAt, tt.wantCancel)
			}
			if m := f.manifest(t); len(m.Submissions) != 0 {
				t.Fatalf("a failed submission was recorded: %+v", m.Submissions)
			}
		})
	}
}

func TestSlurmStateCountsShardsAndMerge(t *testing.T) {
	ctx := context.Background()
	f := newSlurmFixture(t)
	f.setup(t)
	st, err := f.dir.State(ctx, f.plans)
	if err != nil {
		t.Fatal(err)
	}
	if st.MergedExists || st.Complete() || st.Overall != (sweep.Tally{Points: 8, Missing: 8}) || len(st.Shards) != 3 || st.Shards[0].Exists {
		t.Fatalf("state of a new directory: %+v", st)
	}

	f.runShard(t, 1, f.dir.ShardDB(1))
	f.merge(t)
	f.runShard(t, 2, f.dir.ShardDB(2))
	os.WriteFile(f.dir.ShardDB(3), []byte("not a database, but long enough to hold an SQLite header of a hundred bytes..........."), 0o644)
	st, err = f.dir.State(ctx, f.plans)
	if err != nil {
		t.Fatal(err)
	}
	n1, n2, n3 := f.size(1), f.size(2), f.size(3)
	done := func(n int) sweep.Tally { return sweep.Tally{Points: n, Done: n} }
	none := func(n int) sweep.Tally { return sweep.Tally{Points: n, Missing: n} }
	want := []slurm.ShardState{
		{Shard: 1, DB: f.dir.ShardDB(1), Exists: true, Own: done(n1), All: done(n1), Merged: done(n1)},
		{Shard: 2, DB: f.dir.ShardDB(2), Exists: true, Own: done(n2), All: done(n2), Merged: none(n2)},
		{Shard: 3, DB: f.dir.ShardDB(3), Exists: true, Own: none(n3), All: none(n3), Merged: none(n3)},
	}
	for i, s := range st.Shards {
		gotErr := s.Err
		s.Err = nil
		if s != want[i] {
			t.Errorf("shard %d: %+v\nwant %+v", i+1, s, want[i])
		}
		if (i == 2) != (gotErr != nil) || (i == 2 && !errors.Is(gotErr, store.ErrNotDatabase)) {
			t.Errorf("shard %d: error %v", i+1, gotErr)
		}
	}
	if !st.MergedExists || st.Complete() || st.Merged != (sweep.Tally{Points: 8, Done: n1, Missing: 8 - n1}) ||
		st.Overall != (sweep.Tally{Points: 8, Done: n1 + n2, Missing: n3}) {
		t.Fatalf("state: merged %+v, overall %+v", st.Merged, st.Overall)
	}
	// Resubmission refuses a database it cannot read: its task could not
	// write to it either.
	_, err = f.setup(t).Outstanding(ctx, f.sched)
	var de *slurm.DirError
	if !errors.As(err, &de) || !errors.Is(err, store.ErrNotDatabase) || !strings.Contains(err.Error(), "move it away") {
		t.Fatalf("Outstanding with an unreadable shard database: %v", err)
	}
}

func TestNewSlurmSetupChecksTheDirectory(t *testing.T) {
	g := parse(t, smallGrid)
	other := parse(t, strings.Replace(smallGrid, "seeds    = 2", "seeds    = 3", 1))
	// used is a directory set up for smallGrid in 3 shards.
	used := newSlurmFixture(t)
	used.setup(t)
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "notes.txt"), nil, 0o644)
	badManifest := t.TempDir()
	os.WriteFile(filepath.Join(badManifest, "slurm.json"), []byte(`{"format": "something/2"}`), 0o644)
	tests := []struct {
		name      string
		g         *grids.Grid
		dir       string
		tasks     int
		check     func(error) bool
		tasksOnly bool
	}{
		{"new", g, filepath.Join(t.TempDir(), "new"), 3, nil, false},
		{"empty", g, t.TempDir(), 3, nil, false},
		{"set up alike", g, string(used.dir), 3, nil, false},
		{"a file", g, file, 3, func(err error) bool { return errors.Is(err, slurm.ErrNotDir) }, false},
		{"foreign", g, foreign, 3, func(err error) bool { return errors.Is(err, slurm.ErrForeignDir) }, false},
		{"bad manifest", g, badManifest, 3, func(err error) bool { return errors.Is(err, slurm.ErrBadManifest) }, false},
		{"other tasks", g, string(used.dir), 2, func(err error) bool {
			var se *slurm.SetupError
			return errors.As(err, &se) && se.OnlyTasksDiffer() && se.Setup.Tasks == 3 && se.Tasks == 2
		}, true},
		{"other grid", other, string(used.dir), 3, func(err error) bool {
			var se *slurm.SetupError
			return errors.As(err, &se) && !se.OnlyTasksDiffer() && strings.Contains(err.Error(), "another grid")
		}, false},
		{"more tasks than points", g, t.TempDir(), 9, func(err error) bool {
			var ce *sweep.ShardCountError
			return errors.As(err, &ce) && ce.Points == 8 && ce.Shards == 9
		}, false},
		{"bad option", g, t.TempDir(), 0, func(err error) bool { return errors.Is(err, slurm.ErrOption) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			job := &slurm.Job{Ccsweep: "/bin/ccsweep", Dir: tt.dir, Name: tt.g.Name, Tasks: tt.tasks, MaxArraySize: 1001}
			before, _ := os.ReadDir(tt.dir)
			s, err := slurm.NewSetup(job, tt.g, "grid.toml", []byte(smallGrid))
			if tt.check == nil {
				if err != nil || s == nil {
					t.Fatalf("refused: %v", err)
				}
			} else if err == nil || !tt.check(err) {
				t.Fatalf("got %v (%T)", err, err)
			}
			if after, _ := os.ReadDir(tt.dir); len(after) != len(before) {
				t.Fatalf("NewSetup wrote to %s", tt.dir)
			}
			if err != nil && strings.HasPrefix(err.Error(), "-") {
				t.Fatalf("error names a flag: %v", err)
			}
		})
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
