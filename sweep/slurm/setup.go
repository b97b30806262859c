package slurm

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/adaptive"
)

// Setup is a grid set up to run as Slurm jobs in an output directory
// (see Dir and Job): checked and rendered by NewSetup, written
// by Write, and submitted, again and again until every point is done, by
// Outstanding and Submit. It is not safe for concurrent use, and two
// processes must not submit from one directory at once.
type Setup struct {
	Job  *Job
	Grid *grids.Grid
	// GridFile is the grid file Grid was read from, and GridText its text,
	// which Write copies into the directory.
	GridFile string
	GridText []byte
	// Rounds, if not nil, are the grid's rounds: Outstanding counts the
	// points of the round under way (see RoundPlans).
	Rounds *adaptive.Rounds
	// Self is the job ID of the job that submits, if a job does (the merge
	// job submitting the next round): it is not counted as still queued.
	Self string

	manifest *Manifest
	round    adaptive.RoundState
	scripts  map[string]string // by file name
	arrays   []ArrayChunk      // the arrays of submit.sh: every shard
}

// NewSetup checks job (see Job.Validate), the shard count against
// the grid (a *sweep.ShardCountError) and the output directory job.Dir, which must
// be new, empty, or set up before for the same grid, model version and shard
// count (a *DirError or *SetupError), and renders the scripts. It writes
// nothing.
func NewSetup(job *Job, g *grids.Grid, gridFile string, gridText []byte) (*Setup, error) {
	if err := job.Validate(); err != nil {
		return nil, err
	}
	if job.Tasks > g.Count() {
		return nil, &sweep.ShardCountError{Grid: g.Name, Points: g.Count(), Shards: job.Tasks}
	}
	m, err := Dir(job.Dir).check(g, gridFile, job.Tasks)
	if err != nil {
		return nil, err
	}
	s := &Setup{Job: job, Grid: g, GridFile: gridFile, GridText: gridText, manifest: m}
	all := make([]int, job.Tasks)
	for i := range all {
		all[i] = i + 1
	}
	if s.arrays, err = SplitArray(all, job.MaxArraySize, job.Throttle); err != nil {
		return nil, err
	}
	render := map[string]func() (string, error){
		ArrayFile:  job.ArrayScript,
		MergeFile:  job.MergeScript,
		SubmitFile: func() (string, error) { return job.SubmitScript(s.arrays) },
	}
	s.scripts = map[string]string{}
	for name, fn := range render {
		if s.scripts[name], err = fn(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Dir returns the output directory.
func (s *Setup) Dir() Dir { return Dir(s.Job.Dir) }

// Arrays returns the job arrays that submit.sh submits, every shard in
// them: more than one when the shards outnumber the cluster's MaxArraySize.
func (s *Setup) Arrays() []ArrayChunk { return s.arrays }

// Script returns the text of the script name (ArrayFile,
// MergeFile or SubmitFile) as Write writes it.
func (s *Setup) Script(name string) string { return s.scripts[name] }

// Manifest returns the directory's manifest as Write writes it: the one
// read from the directory, with the submissions made since.
func (s *Setup) Manifest() *Manifest { return s.manifest }

// Write creates the output directory with its shards and logs folders and
// writes the grid copy (unless GridFile is that copy), the scripts and the
// manifest, each whole or not at all. It fails with a *DirError, or if the
// copy does not read back as the same grid.
func (s *Setup) Write() error {
	d := s.Dir()
	for _, dir := range []string{string(d), d.File(ShardDir), d.File(LogDir)} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return &DirError{string(d), err}
		}
	}
	dst := d.GridFile()
	srcInfo, err1 := os.Stat(s.GridFile)
	dstInfo, err2 := os.Stat(dst)
	if err1 != nil || err2 != nil || !os.SameFile(srcInfo, dstInfo) {
		if err := d.writeFile(dst, s.GridText, 0o644); err != nil {
			return err
		}
	}
	// Scenario files the grid names by relative paths go beside the copy,
	// at the same paths, with the files they read.
	for _, cs := range s.Grid.CanonicalForm().Scenarios {
		if filepath.IsAbs(cs.Path) {
			continue
		}
		files := map[string]string{cs.Path: cs.Text}
		for name, text := range cs.Files {
			if !filepath.IsAbs(name) {
				files[filepath.Join(filepath.Dir(cs.Path), name)] = text
			}
		}
		for rel, text := range files {
			if !filepath.IsLocal(rel) {
				return fmt.Errorf("scenario file %s is outside the grid's directory: name it by an absolute path on the shared file system, or move it beside the grid", rel)
			}
			path := filepath.Join(string(d), rel)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return &DirError{string(d), err}
			}
			if err := d.writeFile(path, []byte(text), 0o644); err != nil {
				return err
			}
		}
	}
	// The jobs must see the same grid: same text, same identity.
	copied, err := grids.Load(dst)
	if err != nil || sweep.GridID(copied) != sweep.GridID(s.Grid) {
		return fmt.Errorf("the copy %s of %s does not read back as the same grid: %v", dst, s.GridFile, err)
	}
	for _, name := range []string{ArrayFile, MergeFile, SubmitFile} {
		if err := d.writeFile(d.File(name), []byte(s.scripts[name]), 0o755); err != nil {
			return err
		}
	}
	return d.writeManifest(s.manifest)
}

// Outstanding is what a submission must run.
type Outstanding struct {
	// Shards are the shards whose points are not all done in their shard
	// database or the merged one, ascending.
	Shards []int
	// Points is how many points those shards miss.
	Points int
	// MergeOnly is set when every shard is done but the merged database
	// lacks points that the shards hold: only the merge job need run.
	MergeOnly bool
}

// Nothing reports whether there is nothing to submit: every point is done
// and merged.
func (o Outstanding) Nothing() bool { return len(o.Shards) == 0 && !o.MergeOnly }

// QueuedError reports that jobs of the last submission to a directory are
// still queued or running: they may yet finish the work, and a second merge
// job could race the first.
type QueuedError struct {
	Dir  string
	Jobs []string // the job IDs still queued or running
}

func (e *QueuedError) Error() string {
	return fmt.Sprintf("jobs %s of the last submission to %s are still queued or running; wait for them to end (or scancel them), then submit again",
		strings.Join(e.Jobs, ", "), e.Dir)
}

// Outstanding returns what a submission must run, from what the shard
// databases and the merged one hold (see Dir.State). A database that
// cannot be read is an error, a *DirError. If there is anything to run and
// the jobs of the last submission are still queued or running (asked of
// sched), it fails with a *QueuedError.
func (s *Setup) Outstanding(ctx context.Context, sched Scheduler) (Outstanding, error) {
	var o Outstanding
	plans, err := s.shardPlans(ctx)
	if err != nil {
		return o, err
	}
	st, err := s.Dir().State(ctx, plans)
	if err != nil {
		return o, err
	}
	for _, sh := range st.Shards {
		if sh.Err != nil {
			return o, &DirError{s.Job.Dir, sh.Err}
		}
		if !sh.All.Complete() {
			o.Shards = append(o.Shards, sh.Shard)
			o.Points += sh.All.Points - sh.All.Done
		}
	}
	o.MergeOnly = len(o.Shards) == 0 && !st.Complete()
	if o.Nothing() {
		return o, nil
	}
	if last := s.manifest.LastSubmission(); last != nil {
		active, err := sched.Active(ctx, last.Jobs())
		if err != nil {
			return o, fmt.Errorf("ask for the jobs of the last submission: %w", err)
		}
		active = s.others(active)
		if len(active) > 0 {
			return o, &QueuedError{Dir: s.Job.Dir, Jobs: active}
		}
	}
	return o, nil
}

// Submitted is a submission made by Submit.
type Submitted struct {
	Submission
	// Arrays are the job arrays submitted, one per job ID of ArrayJobs.
	Arrays []ArrayChunk
}

// Submit submits the shards of o as job arrays (none when o is MergeOnly),
// split to fit MaxArraySize, and then the merge job, to run once they have
// ended (or at once when there are none). It records the submission in the
// manifest and writes it (so Write must have run). If a submission fails it
// cancels the jobs it submitted and records nothing.
func (s *Setup) Submit(ctx context.Context, sched Scheduler, o Outstanding) (*Submitted, error) {
	arrays, err := SplitArray(o.Shards, s.Job.MaxArraySize, s.Job.Throttle)
	if err != nil {
		return nil, err
	}
	sub := &Submitted{Submission: Submission{Time: time.Now().UTC().Round(time.Second), Shards: o.Shards},
		Arrays: arrays}
	for _, c := range arrays {
		id, err := sched.Submit(ctx, s.Job.Dir, s.Job.ArraySubmitArgs(c))
		if err != nil {
			return nil, s.cancel(sched, sub.ArrayJobs, err)
		}
		sub.ArrayJobs = append(sub.ArrayJobs, id)
	}
	if sub.MergeJob, err = sched.Submit(ctx, s.Job.Dir, s.Job.MergeSubmitArgs(sub.ArrayJobs)); err != nil {
		return nil, s.cancel(sched, sub.ArrayJobs, err)
	}
	s.manifest.Submissions = append(s.manifest.Submissions, sub.Submission)
	if err := s.Dir().writeManifest(s.manifest); err != nil {
		// Jobs the manifest does not name would be submitted again by the
		// next ccsweep slurm, beside themselves: they go too.
		s.manifest.Submissions = s.manifest.Submissions[:len(s.manifest.Submissions)-1]
		return nil, s.cancel(sched, sub.Jobs(), err)
	}
	return sub, nil
}

// cancel cancels the jobs ids submitted before the submission failed with
// err, and returns err, noting a failure to cancel.
func (s *Setup) cancel(sched Scheduler, ids []string, err error) error {
	if len(ids) == 0 {
		return err
	}
	if cerr := sched.Cancel(context.Background(), ids); cerr != nil {
		return fmt.Errorf("%w (and cancelling the jobs submitted before, %s, failed: %v)", err, strings.Join(ids, ", "), cerr)
	}
	return err
}
