package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Scheduler is the batch system a Setup submits to: Slurm's commands
// (CLI), or a fake in tests. Its methods may be called from one
// goroutine at a time.
type Scheduler interface {
	// Submit submits a batch job with sbatch's arguments args (see
	// Job.ArraySubmitArgs and MergeSubmitArgs), from the directory
	// dir, and returns its job ID.
	Submit(ctx context.Context, dir string, args []string) (id string, err error)
	// Cancel cancels the jobs ids, as far as it can.
	Cancel(ctx context.Context, ids []string) error
	// Active returns those of the jobs ids that are queued or running, in
	// the order of ids. A job the scheduler no longer knows has ended.
	Active(ctx context.Context, ids []string) ([]string, error)
	// MaxArraySize returns the cluster's MaxArraySize.
	MaxArraySize(ctx context.Context) (int, error)
}

// CLI is the Scheduler that runs Slurm's commands: sbatch, scancel,
// squeue and scontrol, found on PATH. Each call gives up after a timeout
// (Timeout; two minutes for sbatch). The zero value is ready to use.
type CLI struct{}

// Timeout bounds each call of scancel, squeue and scontrol.
const Timeout = 30 * time.Second

// CheckSbatch returns ErrNoSbatch if sbatch is not on PATH, so that a caller
// can refuse before it writes anything.
func (CLI) CheckSbatch() error {
	if _, err := exec.LookPath("sbatch"); err != nil {
		return ErrNoSbatch
	}
	return nil
}

// Submit runs sbatch --parsable-style args in dir and returns the job ID
// sbatch prints (without a ";cluster" suffix).
func (CLI) Submit(ctx context.Context, dir string, args []string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sbatch", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", ErrNoSbatch
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("sbatch %s: %s", strings.Join(args, " "), msg)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(stdout.String()), ";")
	if _, err := strconv.Atoi(id); err != nil {
		return "", fmt.Errorf("sbatch %s printed %q, not a job ID", strings.Join(args, " "), stdout.String())
	}
	return id, nil
}

// Cancel runs scancel on ids, with a context of its own: it cleans up after
// a failure, which may be the cancellation of ctx.
func (CLI) Cancel(_ context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "scancel", ids...).CombinedOutput(); err != nil {
		return fmt.Errorf("scancel %s: %w: %s", strings.Join(ids, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// Active asks squeue which of ids are queued or running. squeue fails once
// the jobs have left the controller's memory, so a failing squeue counts as
// none active.
func (CLI) Active(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "squeue", "--noheader", "--format=%F", "--jobs="+strings.Join(ids, ",")).Output()
	if err != nil {
		return nil, nil
	}
	listed := strings.Fields(string(out)) // one line per job, or per array task: its array job ID
	var active []string
	for _, id := range ids {
		if slices.Contains(listed, id) {
			active = append(active, id)
		}
	}
	return active, nil
}

// MaxArraySize reads MaxArraySize from scontrol show config. When it cannot,
// it returns DefaultMaxArraySize with the error saying why.
func (CLI) MaxArraySize(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "scontrol", "show", "config").Output()
	if err != nil {
		return DefaultMaxArraySize, fmt.Errorf("scontrol show config: %w", err)
	}
	n, err := ParseMaxArraySize(string(out))
	if err != nil {
		return DefaultMaxArraySize, err
	}
	return n, nil
}
