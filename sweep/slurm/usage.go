package slurm

import (
	"errors"
	"fmt"

	"github.com/ccsweep/ccsweep/sweep"
)

// Flags names the ccsweep slurm flag of each Job field that comes from one,
// as the merge job's ccsweep slurm --next-round command line (Job.InRounds)
// spells them.
var Flags = map[string]string{
	"Ccsweep": "--ccsweep", "Dir": "--dir", "Tasks": "--tasks", "Time": "--time", "Mem": "--mem",
	"Partition": "--partition", "Account": "--account", "CPUsPerTask": "--cpus-per-task",
	"Throttle": "--throttle", "Extra": "--extra", "Assets": "--assets",
}

// UsageError is an error about the user's input worded as ccsweep slurm
// reports it, naming the flag at fault (see Usage). It wraps that error.
type UsageError struct {
	Msg string // the message, such as "--tasks 0: want at least 1"
	Err error  // the error it words
}

func (e *UsageError) Error() string { return e.Msg }

// Unwrap returns the error e words.
func (e *UsageError) Unwrap() error { return e.Err }

// Usage returns err as a *UsageError if it is about the user's input (a bad
// option, shard count, output directory or ccsweep binary, jobs still
// queued, no sbatch), worded with the flag at fault; any other error
// (nil too) it returns as it is.
func Usage(err error) error {
	var (
		xe *ExecutableError
		oe *OptionError
		ce *sweep.ShardCountError
		de *DirError
		se *SetupError
		qe *QueuedError
	)
	usage := func(format string, args ...any) error {
		return &UsageError{Msg: fmt.Sprintf(format, args...), Err: err}
	}
	switch {
	case errors.As(err, &xe):
		return usage("--ccsweep %s: %s", xe.Path, xe.Reason)
	case errors.Is(err, ErrNoExecutable):
		return usage("%v; give --ccsweep PATH", err)
	case errors.As(err, &oe):
		if flag, ok := Flags[oe.Field]; ok {
			return usage("%s %s: %s", flag, oe.Value, oe.Reason)
		}
		return usage("%v", err)
	case errors.As(err, &ce) && ce.Shards < 1:
		return usage("--tasks %d: want at least 1", ce.Shards)
	case errors.As(err, &ce):
		return usage("--tasks %d: grid %s has only %d points; use at most %d tasks", ce.Shards, ce.Grid, ce.Points, ce.Points)
	case errors.As(err, &se) && se.OnlyTasksDiffer():
		return usage("--dir %s was set up for --tasks %d; use --tasks %d, or another directory", se.Dir, se.Setup.Tasks, se.Setup.Tasks)
	case errors.As(err, &se) || errors.As(err, &de):
		return usage("--dir %v", err)
	case errors.As(err, &qe), errors.Is(err, ErrOption):
		return usage("%v", err)
	case errors.Is(err, ErrNoSbatch):
		return usage("%v, or leave out --submit", err)
	}
	return err
}
