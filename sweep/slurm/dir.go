package slurm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/store/atomicfile"
	"github.com/ccsweep/ccsweep/sweep"
)

// Dir is the output directory of a grid run as Slurm jobs, shared
// between the login and the compute nodes. Its layout, relative to it:
//
//	grid.toml         the copy of the grid file the jobs run (GridFile)
//	job.sbatch        the job array (ArrayFile)
//	merge.sbatch      the merge job (MergeFile)
//	submit.sh         submits both by hand (SubmitFile)
//	slurm.json        what was set up and submitted (ManifestFile)
//	shards/shard-I.db the database of shard I, 1-based (ShardDir)
//	logs/             the jobs' output (LogDir)
//	results.db        the shards merged (ResultsFile)
//	report.html       the report of results.db (ReportFile)
//
// The value is the directory's path; the jobs need it absolute. The methods
// that only build paths touch nothing.
type Dir string

// ManifestFile, in a Dir, records what was set up there and
// submitted, as JSON (Manifest).
const ManifestFile = "slurm.json"

// ManifestFormat is the format tag of ManifestFile.
const ManifestFormat = "ccsweep-slurm/1"

// File returns the path of name in the directory.
func (d Dir) File(name string) string { return filepath.Join(string(d), name) }

// GridFile returns the path of the grid file the tasks run.
func (d Dir) GridFile() string { return d.File(GridFile) }

// ShardDB returns the path of the database of shard i (1-based).
func (d Dir) ShardDB(i int) string {
	return filepath.Join(string(d), ShardDir, fmt.Sprintf("shard-%d.db", i))
}

// ResultsDB returns the path of the merged database.
func (d Dir) ResultsDB() string { return d.File(ResultsFile) }

// Report returns the path of the report the merge job writes.
func (d Dir) Report() string { return d.File(ReportFile) }

// Manifest is the content of ManifestFile: the grid, model version
// and shard count a directory was set up for, and its submissions.
type Manifest struct {
	Format       string       `json:"format"` // ManifestFormat
	Grid         string       `json:"grid"`   // the grid's name
	GridID       string       `json:"grid_id"`
	ModelVersion string       `json:"model_version"`
	Points       int          `json:"points"`
	Tasks        int          `json:"tasks"` // the number of shards
	Submissions  []Submission `json:"submissions,omitempty"`
}

// Submission is one submission of a directory's jobs.
type Submission struct {
	Time      time.Time `json:"time"`       // UTC, to the second
	Shards    []int     `json:"shards"`     // the shards submitted, ascending; none for the merge job alone
	ArrayJobs []string  `json:"array_jobs"` // one job ID per array (see SplitArray)
	MergeJob  string    `json:"merge_job"`
}

// Jobs returns the IDs of the submission's jobs: its arrays, then the merge
// job.
func (s *Submission) Jobs() []string {
	return append(append([]string(nil), s.ArrayJobs...), s.MergeJob)
}

// LastSubmission returns the latest submission, or nil if there is none.
func (m *Manifest) LastSubmission() *Submission {
	if m == nil || len(m.Submissions) == 0 {
		return nil
	}
	return &m.Submissions[len(m.Submissions)-1]
}

// DirError reports an output directory that cannot be used, or a file in it
// that cannot be read or written; Err says why (ErrNotDir, ErrForeignDir,
// ErrBadManifest, or the error of the file system or the store).
type DirError struct {
	Dir string
	Err error
}

func (e *DirError) Error() string { return e.Dir + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *DirError) Unwrap() error { return e.Err }

// SetupError reports a directory set up by ccsweep slurm for another model
// version, another grid or another number of shards than asked for: its
// shard databases would mean nothing for this run.
type SetupError struct {
	Dir      string
	Setup    Manifest // what the directory was set up for
	GridFile string   // the grid file asked for
	GridID   string   // its ID (see sweep.GridID)
	Tasks    int      // the number of shards asked for
}

func (e *SetupError) Error() string {
	switch {
	case e.Setup.ModelVersion != model.Version:
		return fmt.Sprintf("%s holds grid %s run by model %s, and this ccsweep runs model %s; choose another directory",
			e.Dir, e.Setup.Grid, e.Setup.ModelVersion, model.Version)
	case e.Setup.GridID != e.GridID:
		return fmt.Sprintf("%s was set up for grid %s, and %s is another grid (or another version of it); choose another directory",
			e.Dir, e.Setup.Grid, e.GridFile)
	}
	return fmt.Sprintf("%s was set up for %d shards, not %d; use %d, or another directory", e.Dir, e.Setup.Tasks, e.Tasks, e.Setup.Tasks)
}

// OnlyTasksDiffer reports whether the directory holds this grid and model
// version, only split into another number of shards.
func (e *SetupError) OnlyTasksDiffer() bool {
	return e.Setup.ModelVersion == model.Version && e.Setup.GridID == e.GridID
}

// ReadManifest reads the directory's manifest; it returns nil and no error
// if there is none. Its errors are *DirError values.
func (d Dir) ReadManifest() (*Manifest, error) {
	data, err := os.ReadFile(d.File(ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &DirError{string(d), err}
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Format != ManifestFormat {
		return nil, &DirError{string(d), ErrBadManifest}
	}
	return &m, nil
}

// check makes sure that the directory is new, empty, or set up for grid g
// (whose file is gridFile), this model version and tasks shards, and returns
// its manifest, or a new one if it has none. Its errors are *DirError or
// *SetupError values.
func (d Dir) check(g *grids.Grid, gridFile string, tasks int) (*Manifest, error) {
	gridID := sweep.GridID(g)
	fresh := &Manifest{Format: ManifestFormat, Grid: g.Name, GridID: gridID,
		ModelVersion: model.Version, Points: g.Count(), Tasks: tasks}
	fi, err := os.Stat(string(d))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fresh, nil
	case err != nil:
		return nil, &DirError{string(d), err}
	case !fi.IsDir():
		return nil, &DirError{string(d), ErrNotDir}
	}
	m, err := d.ReadManifest()
	if err != nil {
		return nil, err
	}
	if m == nil {
		entries, err := os.ReadDir(string(d))
		if err != nil {
			return nil, &DirError{string(d), err}
		}
		if len(entries) > 0 {
			return nil, &DirError{string(d), ErrForeignDir}
		}
		return fresh, nil
	}
	if m.ModelVersion != model.Version || m.GridID != gridID || m.Tasks != tasks {
		return nil, &SetupError{Dir: string(d), Setup: *m, GridFile: gridFile, GridID: gridID, Tasks: tasks}
	}
	return m, nil
}

// writeFile writes one file of the directory, whole or not at all.
func (d Dir) writeFile(path string, data []byte, perm fs.FileMode) error {
	if err := atomicfile.WriteFile(path, data, perm); err != nil {
		return &DirError{string(d), fmt.Errorf("cannot write %s: %w", path, err)}
	}
	return nil
}

// writeManifest writes m as the directory's manifest.
func (d Dir) writeManifest(m *Manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return d.writeFile(d.File(ManifestFile), append(data, '\n'), 0o644)
}

// ShardState is what the databases of a Dir hold of one shard's points.
type ShardState struct {
	Shard int    // 1-based
	DB    string // the path of the shard's database
	// Exists tells whether the shard database exists.
	Exists bool
	// Err, if not nil, is why the existing shard database cannot be read;
	// it then counts as holding nothing.
	Err error
	// Own counts the points in the shard's database, Merged those in the
	// merged database, and All those in either.
	Own, All, Merged sweep.Tally
}

// State is what the databases of a Dir hold of a grid's points,
// shard by shard.
type State struct {
	Shards []ShardState
	// Merged counts the points in the merged database, Overall those in
	// a shard database or the merged one.
	Merged, Overall sweep.Tally
	// MergedExists tells whether the merged database exists.
	MergedExists bool
}

// Complete reports whether the merged database holds every point done.
func (s *State) Complete() bool { return s.MergedExists && s.Merged.Complete() }

// State counts, for each of plans (the shards' plans, see sweep.ShardPlans), the
// points its shard database and the merged database hold. It only reads. A
// shard database that cannot be read counts as holding nothing (see
// ShardState.Err); a merged database that cannot be read is an error, a
// *DirError.
func (d Dir) State(ctx context.Context, plans []*sweep.Plan) (*State, error) {
	results, err := openIfExists(d.ResultsDB())
	if err != nil {
		return nil, &DirError{string(d), err}
	}
	st := &State{MergedExists: results != nil}
	if results != nil {
		defer results.Close()
	}
	for i, plan := range plans {
		s, err := d.shardState(ctx, i+1, plan, results)
		if err != nil {
			return nil, err
		}
		st.Shards = append(st.Shards, s)
		st.Merged, st.Overall = st.Merged.Add(s.Merged), st.Overall.Add(s.All)
	}
	return st, nil
}

// shardState counts shard i's points of plan in its database and in results
// (nil if there is no merged database).
func (d Dir) shardState(ctx context.Context, i int, plan *sweep.Plan, results *store.DB) (ShardState, error) {
	none := sweep.Tally{Points: plan.Len(), Missing: plan.Len()}
	s := ShardState{Shard: i, DB: d.ShardDB(i), Own: none, All: none, Merged: none}
	shard, err := openIfExists(s.DB)
	s.Exists, s.Err = shard != nil || err != nil, err
	var dbs []*store.DB
	if shard != nil {
		defer shard.Close()
		if s.Own, err = plan.Tally(ctx, shard); err != nil {
			return s, fmt.Errorf("read %s: %w", s.DB, err)
		}
		s.All = s.Own
		dbs = append(dbs, shard)
	}
	if results == nil {
		return s, nil
	}
	if s.Merged, err = plan.Tally(ctx, results); err != nil {
		return s, fmt.Errorf("read %s: %w", results.Path(), err)
	}
	if s.All, err = plan.Tally(ctx, append(dbs, results)...); err != nil {
		return s, fmt.Errorf("read %s: %w", s.DB, err)
	}
	return s, nil
}

// openIfExists opens the database at path read-only, or returns nil if there
// is no such file. Its error, naming path, says to move the file away: the
// jobs cannot write to it either.
func openIfExists(path string) (*store.DB, error) {
	if ok, err := store.Exists(path); err != nil || !ok {
		return nil, err
	}
	db, err := store.OpenReadOnly(path)
	if err != nil {
		return nil, fmt.Errorf("%w; move it away and try again", err)
	}
	return db, nil
}
