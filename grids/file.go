package grids

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
)

// MaxFileSize is the largest grid file Load reads. Grid files are written by
// hand; a larger one is a mistake (a device, a data file) and would cost
// memory out of all proportion before a single problem could be reported.
const MaxFileSize = 4 << 20

// MaxFabricSize is the largest ibnetdiscover file a scenario file's
// topology.file may name: none (the largest value ReadFile takes). A
// fabric is the tool's output, whose size grows with the cluster: a
// 50 000-adapter fabric is tens of MiB, and refusing it would refuse the
// clusters worth simulating. model.ReadIBNetDiscover bounds its lines.
const MaxFabricSize = math.MaxInt64 - 1

// ErrNotRegular is returned by ReadFile for a path that names a directory,
// a device, a FIFO or a socket: reading one could block forever or never end.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned by ReadFile for a file over its size limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads the input file at path (a grid, or a scenario file) whole,
// refusing anything but a regular file of at most limit bytes. Symbolic
// links are followed. The file is never opened before it is known to be
// regular, so a FIFO cannot block the caller.
func ReadFile(path string, limit int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, PlainPathError(path, err)
	}
	if !fi.Mode().IsRegular() {
		what := "a special file"
		switch {
		case fi.IsDir():
			what = "a directory"
		case fi.Mode()&os.ModeNamedPipe != 0:
			what = "a named pipe"
		case fi.Mode()&os.ModeDevice != 0:
			what = "a device"
		case fi.Mode()&os.ModeSocket != 0:
			what = "a socket"
		}
		return nil, fmt.Errorf("%s: %w: it is %s", path, ErrNotRegular, what)
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("%s: %w: %d bytes, the limit is %d", path, ErrTooLarge, fi.Size(), limit)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, PlainPathError(path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit { // it grew after the Stat
		return nil, fmt.Errorf("%s: %w: over %d bytes", path, ErrTooLarge, limit)
	}
	return data, nil
}

// PlainPathError says "PATH: no such file or directory" where the system's
// error says "stat PATH: ...": a user named a file, not a system call. It
// still wraps the cause (errors.Is(err, fs.ErrNotExist) holds).
func PlainPathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return err
}
