package main

// Files commands write: atomically, never over their inputs.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/ccsweep/ccsweep/store/atomicfile"
)

// writeOutput writes what fill produces to path, or to w when path is empty
// or "-". A regular file appears whole or not at all and keeps its mode; a
// device or FIFO is written in place; a directory is refused (see
// atomicfile). Waiting for a FIFO's reader ends when ctx is done. A path
// that cannot be written is bad input: exit status 2.
func writeOutput(ctx context.Context, path string, w io.Writer, fill func(io.Writer) error) error {
	if path == "" || path == "-" {
		return fill(w)
	}
	var fillErr error
	err := atomicfile.WriteContext(ctx, path, 0o644, func(f io.Writer) error {
		fillErr = fill(f)
		return fillErr
	})
	if err != nil && fillErr == nil && ctx.Err() == nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // "no such file or directory", not the temporary file's name
		}
		return usagef("cannot write %s: %v", path, err)
	}
	return err
}

// ioPath is a file a command reads or writes, and what it is to the user
// ("the database", "--report").
type ioPath struct{ what, path string }

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkOutputs refuses, with a usage error, before the command does any
// work: an output that names one of its inputs or the database (after
// following symbolic links, or as another hard link to the same file), and
// an output over an existing SQLite database, and two outputs that name
// one file (the second would overwrite the first). Empty paths and "-"
// (standard output) are skipped.
func checkOutputs(outs []ioPath, ins []ioPath) error {
	for i, o := range outs {
		if o.path == "" || o.path == "-" {
			continue
		}
		for _, p := range outs[:i] {
			if p.path != "" && p.path != "-" && samePath(o.path, p.path) {
				return usagef("%s %s and %s %s name one file: give another output path", p.what, p.path, o.what, o.path)
			}
		}
		for _, in := range ins {
			if in.path != "" && in.path != "-" && samePath(o.path, in.path) {
				return usagef("%s %s is %s %s: writing it would destroy it; give another output path", o.what, o.path, in.what, in.path)
			}
		}
		if isSQLite(o.path) {
			return usagef("%s %s is a SQLite database: ccsweep will not write over it; give another output path", o.what, o.path)
		}
	}
	return nil
}

// samePath reports whether a and b name the same file: the same existing
// file through any links, or, when one does not exist yet, the same name
// once symbolic links are followed.
func samePath(a, b string) bool {
	ai, aerr := os.Stat(a)
	bi, berr := os.Stat(b)
	if aerr == nil && berr == nil {
		return os.SameFile(ai, bi)
	}
	return canonicalPath(a) == canonicalPath(b)
}

// canonicalPath is path absolute, with its symbolic links followed as far
// as they lead (the last link's target need not exist).
func canonicalPath(path string) string {
	if t, err := atomicfile.Target(path); err == nil {
		path = t
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// isSQLite reports whether path is an existing regular file that starts
// with the SQLite header.
func isSQLite(path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == sqliteHeader
}

// startCPUProfile starts a CPU profile into file (none when file is "")
// and returns what stops it and writes the file. The profile goes to a
// temporary file beside file, renamed over it when stop has written it
// whole (atomicfile): a run killed before stop leaves file as it was.
func startCPUProfile(file string) (stop func() error, err error) {
	if file == "" {
		return func() error { return nil }, nil
	}
	pr, pw := io.Pipe()
	opened, done := make(chan struct{}), make(chan error, 1)
	go func() {
		err := atomicfile.Write(file, 0o644, func(w io.Writer) error {
			close(opened)
			_, err := io.Copy(w, pr)
			return err
		})
		pr.CloseWithError(err) // a failed write fails the profiler's writes
		done <- err
	}()
	select {
	case err := <-done:
		return nil, usagef("--cpuprofile: %v", err)
	case <-opened:
	}
	if err := pprof.StartCPUProfile(pw); err != nil {
		pw.CloseWithError(err)
		<-done
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		pw.Close()
		if err := <-done; err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}, nil
}
