// Package atomicfile writes output files so that a reader, a crash or a
// failed write never sees part of one, without clobbering what the path
// names when that is not a regular file.
//
// Write replaces a regular file atomically: the new content goes to a
// temporary file in the same directory, is synced, takes the old file's
// permission bits (and owner, where the process may set it), and is renamed
// over the old one. A symbolic link is followed, so the file it points at is
// replaced and the link stays a link. A read-only file is refused
// (ErrReadOnly). A character device, FIFO or socket
// (/dev/null, /dev/stdout, a named pipe) is written in place, never
// replaced. A directory is refused with ErrNotFile. The temporary files a
// killed writer leaves (.NAME.tmp-HOST-PID-*) are removed by the next
// Write to the same path on the same host once that PID is gone.
//
// # Imports
//
// atomicfile imports nothing of ccsweep's and must never import any other
// ccsweep package: every package that writes files may use it.
package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

var (
	// ErrNotFile is returned when the output path names a directory, or a
	// chain of symbolic links too long to follow. Callers add the path.
	ErrNotFile = errors.New("not a file")
	// ErrReadOnly is returned, before anything is written, for a regular
	// file that nobody may write (no w bit, e.g. 0444) or this process may
	// not write: a shell's redirect would be refused, and so is replacing
	// it. It is fs.ErrPermission for errors.Is.
	ErrReadOnly error = readOnlyError{}
)

type readOnlyError struct{}

func (readOnlyError) Error() string        { return "permission denied" }
func (readOnlyError) Is(target error) bool { return target == fs.ErrPermission }

// maxLinks bounds how many symbolic links Write follows, as the kernel does.
const maxLinks = 40

// Write writes what fill produces to path. perm is the mode of a new file;
// an existing regular file keeps its own. If fill or any step fails, path is
// left as it was (for a file replaced atomically) and the error is returned.
func Write(path string, perm fs.FileMode, fill func(io.Writer) error) error {
	return WriteContext(context.Background(), path, perm, fill)
}

// WriteContext is Write whose wait for a FIFO's reader ends, with ctx's
// error, when ctx is done: a FIFO without a reader blocks its writer's
// open, which no signal would otherwise interrupt. Once the output is open,
// ctx is fill's business.
func WriteContext(ctx context.Context, path string, perm fs.FileMode, fill func(io.Writer) error) error {
	real, info, err := resolve(path)
	if err != nil {
		return err
	}
	switch {
	case info == nil:
		return replace(real, perm, nil, fill)
	case info.Mode().IsRegular():
		if info.Mode().Perm()&0o222 == 0 || !writable(real) {
			return fmt.Errorf("%w: the file is read-only", ErrReadOnly)
		}
		return replace(real, info.Mode().Perm(), info, fill)
	case info.IsDir():
		return fmt.Errorf("%w: it is a directory", ErrNotFile)
	case info.Mode()&fs.ModeNamedPipe != 0:
		f, err := openFIFO(ctx, real)
		if err != nil {
			return err
		}
		return fillAndClose(f, fill)
	default:
		return inPlace(real, fill)
	}
}

// WriteFile is Write with the content given as bytes.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Target returns the name Write(path, ...) writes: path with its chain of
// symbolic links followed to the last link's target, which need not exist.
func Target(path string) (string, error) {
	real, _, err := resolve(path)
	return real, err
}

// resolve follows symbolic links from path to the name that is written:
// the last link's target, which need not exist yet. info describes it, or is
// nil when nothing exists there.
func resolve(path string) (string, fs.FileInfo, error) {
	for range maxLinks {
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil, nil
		}
		if err != nil {
			return "", nil, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			return path, info, nil
		}
		target, err := os.Readlink(path)
		if err != nil {
			return "", nil, err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(path), target)
		}
		path = target
	}
	return "", nil, fmt.Errorf("%w: too many levels of symbolic links", ErrNotFile)
}

// replace writes a temporary file beside path and renames it over path.
// old, when not nil, is the file being replaced, whose owner is kept.
func replace(path string, perm fs.FileMode, old fs.FileInfo, fill func(io.Writer) error) (err error) {
	removeStale(path)
	tmp, err := os.CreateTemp(filepath.Dir(path), tempPrefix(path, hostname(), os.Getpid())+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := fill(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		return err
	}
	if old != nil {
		keepOwner(tmp, old)
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// inPlace writes to an existing device, FIFO or socket without replacing it.
func inPlace(real string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(real, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return fillAndClose(f, fill)
}

// fillAndClose writes what fill produces to f and closes it.
func fillAndClose(f *os.File, fill func(io.Writer) error) error {
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// tempPrefix is how the names of path's temporary files start when process
// pid on host writes them: ".NAME.tmp-HOST-PID-", then random characters.
func tempPrefix(path, host string, pid int) string {
	return "." + filepath.Base(path) + ".tmp-" + host + "-" + strconv.Itoa(pid) + "-"
}

// hostname is this host's name with path separators and dashes replaced,
// or "localhost".
func hostname() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return strings.NewReplacer("/", "_", "\\", "_", "-", "_").Replace(h)
}

// removeStale removes the temporary files a process of this host killed
// while writing path left beside it (a SIGKILL leaves no chance to clean
// up). Only files of this host's processes that no longer exist are
// removed: another host's writer may share the directory.
func removeStale(path string) {
	prefix := "." + filepath.Base(path) + ".tmp-" + hostname() + "-"
	dir := filepath.Dir(path)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		pidText, _, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if ok && err == nil && pid > 0 && pid != os.Getpid() && !alive(pid) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
