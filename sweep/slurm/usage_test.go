package slurm_test

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/ccsweep/ccsweep/sweep"
	"github.com/ccsweep/ccsweep/sweep/slurm"
)

// TestUsageNamesTheFlag checks the words ccsweep slurm gives each input
// error, naming the flag its user gave, and that errors not about input
// pass through untouched.
func TestUsageNamesTheFlag(t *testing.T) {
	dirErr := &slurm.DirError{Dir: "/scratch/out", Err: slurm.ErrNotDir}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"bad time", &slurm.OptionError{Field: "Time", Value: `"90min"`, Reason: "want minutes"}, `--time "90min": want minutes`},
		{"bad cpus", &slurm.OptionError{Field: "CPUsPerTask", Value: "-1", Reason: "want at least 1"}, "--cpus-per-task -1: want at least 1"},
		{"option without a flag", &slurm.OptionError{Field: "MaxArraySize", Value: "1", Reason: "no arrays"}, "MaxArraySize 1: no arrays"},
		{"wrapped option", fmt.Errorf("job: %w", &slurm.OptionError{Field: "Mem", Value: `"x"`, Reason: "want a size"}), `--mem "x": want a size`},
		{"no tasks", &sweep.ShardCountError{Grid: "g", Points: 12, Shards: 0}, "--tasks 0: want at least 1"},
		{"too many tasks", &sweep.ShardCountError{Grid: "g", Points: 12, Shards: 13}, "--tasks 13: grid g has only 12 points; use at most 12 tasks"},
		{"not a directory", dirErr, "--dir /scratch/out: not a directory"},
		{"binary", &slurm.ExecutableError{Path: "bin/ccsweep", Reason: "not an executable file"}, "--ccsweep bin/ccsweep: not an executable file"},
		{"no binary", fmt.Errorf("%w (no /proc)", slurm.ErrNoExecutable), "cannot find the ccsweep binary (no /proc); give --ccsweep PATH"},
		{"queued", &slurm.QueuedError{Dir: "/d", Jobs: []string{"7"}}, (&slurm.QueuedError{Dir: "/d", Jobs: []string{"7"}}).Error()},
		{"no sbatch", slurm.ErrNoSbatch, "sbatch is not on PATH: submit from a Slurm login node, or leave out --submit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := slurm.Usage(tt.err)
			var ue *slurm.UsageError
			if !errors.As(got, &ue) || got.Error() != tt.want {
				t.Fatalf("Usage(%v) = %T %q, want a *UsageError %q", tt.err, got, got, tt.want)
			}
			if !errors.Is(got, tt.err) {
				t.Fatalf("Usage(%v) does not wrap it", tt.err)
			}
		})
	}
	for _, err := range []error{nil, fs.ErrPermission, errors.New("sbatch: error: Invalid partition name specified")} {
		if got := slurm.Usage(err); got != err {
			t.Errorf("Usage(%v) = %v, want it unchanged: it is not about the user's input", err, got)
		}
	}
}
