package slurm

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// sbatchChecker is a Scheduler that can tell, before anything is written,
// that it cannot submit (CLI.CheckSbatch).
type sbatchChecker interface{ CheckSbatch() error }

// checkSbatch asks sched whether it can submit, if it can tell.
func checkSbatch(sched Scheduler) error {
	if c, ok := sched.(sbatchChecker); ok {
		return c.CheckSbatch()
	}
	return nil
}

// Run does what ccsweep slurm does once the setup is checked, and writes to
// out what it did. Without submit it writes the directory's files and says
// how to submit them. With submit it first asks sched whether it can submit
// (when sched can tell, as CLI can) and what is outstanding; if every point
// is done and merged it writes nothing, else it writes the files, submits
// the shards that miss points and the merge job, and prints their job IDs.
// Errors are the Setup's, unchanged, for the caller to word.
func (s *Setup) Run(ctx context.Context, sched Scheduler, submit bool, out io.Writer) error {
	// Everything is checked: what to submit, then the files, then sbatch.
	job, g := s.Job, s.Grid
	var todo Outstanding
	if submit {
		if err := checkSbatch(sched); err != nil {
			return err
		}
		var err error
		if todo, err = s.Outstanding(ctx, sched); err != nil {
			return err
		}
		if todo.Nothing() {
			fmt.Fprintf(out, "grid %s: all %d points are done and merged in %s; nothing to submit\n",
				g.Name, g.Count(), s.Dir().ResultsDB())
			return nil
		}
	}
	if err := s.Write(); err != nil {
		return err
	}
	split := ""
	if n := len(s.Arrays()); n > 1 {
		split = fmt.Sprintf(", split into %d arrays (MaxArraySize %d)", n, job.MaxArraySize)
	}
	fmt.Fprintf(out, "grid %s: %d points in %d shards%s; wrote %s, %s, %s and %s in %s\n", g.Name, g.Count(), job.Tasks, split,
		GridFile, ArrayFile, MergeFile, SubmitFile, job.Dir)
	if !submit {
		fmt.Fprintf(out, "submit with: bash %s (or this command again with --submit)\n", s.Dir().File(SubmitFile))
		return nil
	}
	sub, err := s.Submit(ctx, sched, todo)
	if sub == nil {
		return err
	}
	s.WriteSubmitted(out, sub)
	if err != nil {
		return err
	}
	if len(todo.Shards) > 0 && len(todo.Shards) < job.Tasks {
		fmt.Fprintf(out, "%d of %d shards were complete; %d points still to run\n", job.Tasks-len(todo.Shards), job.Tasks, todo.Points)
	}
	fmt.Fprintf(out, "follow with: squeue -j %s; ccsweep status %s\n", strings.Join(sub.Jobs(), ","), job.Dir)
	return nil
}

// NextRound submits the round the merged database says is next, as the
// merge job of a grid with rounds does after merging (ccsweep slurm
// --next-round), and writes to out what it did; the scripts stay as
// written. The caller sets Self to its own job ID, if it runs as a job.
func (s *Setup) NextRound(ctx context.Context, sched Scheduler, out io.Writer) error {
	if err := checkSbatch(sched); err != nil {
		return err
	}
	todo, err := s.Outstanding(ctx, sched)
	if err != nil {
		return err
	}
	st := s.Round()
	if todo.Nothing() {
		fmt.Fprintf(out, "grid %s: the rounds are finished: %d points in rounds 0..%d, %d added; nothing to submit\n",
			s.Grid.Name, st.Planned, st.Round, st.Added)
		return nil
	}
	sub, err := s.Submit(ctx, sched, todo)
	if sub == nil {
		return err
	}
	fmt.Fprintf(out, "grid %s: round %d, %d points to run\n", s.Grid.Name, st.Round, todo.Points)
	s.WriteSubmitted(out, sub)
	return err
}

// WriteSubmitted writes the job IDs of a submission to out, a line per job
// array and one for the merge job.
func (s *Setup) WriteSubmitted(out io.Writer, sub *Submitted) {
	for i, c := range sub.Arrays {
		what := "shard"
		if len(c.Shards) > 1 {
			what = "shards"
		}
		fmt.Fprintf(out, "submitted %s %s of %d as array job %s (--array=%s, offset %d)\n",
			what, RangeList(c.Shards), s.Job.Tasks, sub.ArrayJobs[i], c.Spec, c.Offset)
	}
	after := "at once, as every shard is complete"
	if len(sub.ArrayJobs) > 0 {
		after = "once the array has ended"
	}
	fmt.Fprintf(out, "submitted the merge job %s, to run %s: results in %s, report in %s\n",
		sub.MergeJob, after, s.Dir().ResultsDB(), s.Dir().Report())
}

// InRounds sets the job up for a grid with rounds: its array tasks run the
// round under way according to the merged database (ccsweep run
// --rounds-from), and its merge job submits the next round (ccsweep slurm
// --next-round). refine are the --refine and --refine-by options, as given,
// that both pass on.
func (j *Job) InRounds(refine []string) {
	d := Dir(j.Dir)
	j.RunFlags = append(append(j.RunFlags, "--rounds-from", d.ResultsDB()), refine...)
	j.NextRound = append([]string{d.GridFile(), "--dir", j.Dir, "--tasks", strconv.Itoa(j.Tasks),
		"--max-array-size", strconv.Itoa(j.MaxArraySize), "--throttle", strconv.Itoa(j.Throttle),
		"--ccsweep", j.Ccsweep, "--next-round"}, refine...)
}

// ExecutableError reports a ccsweep binary the jobs could not run.
type ExecutableError struct {
	Path   string // the path as given
	Reason string // what is wrong with it
}

func (e *ExecutableError) Error() string { return "ccsweep binary " + e.Path + ": " + e.Reason }

// Executable returns the absolute path of the binary the jobs run: path,
// or, if path is "", the running program. A path that is not an executable
// regular file is an *ExecutableError; a running program whose path cannot
// be found is an error wrapping ErrNoExecutable.
func Executable(path string) (string, error) {
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("%w (%v)", ErrNoExecutable, err)
		}
		path = exe
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", &ExecutableError{Path: path, Reason: err.Error()}
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", &ExecutableError{Path: path, Reason: "not an executable file"}
	}
	return abs, nil
}
