package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/store"
)

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:  "merge",
		Usage: "merge result databases, such as the shards of a Slurm array, into one",
		UsageText: "ccsweep merge OUT.db IN.db... [--force]\n\n" +
			"OUT.db is created if missing and otherwise keeps what it holds. A point stored twice is kept once\n" +
			"(a done result wins over a failed one), so merging again changes nothing. OUT.db is replaced\n" +
			"whole or not at all. Databases of different grids or model versions are refused unless --force.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Usage: "merge databases of different grids or model versions"},
		},
		OnUsageError: commandUsageError,
		Action:       mergeAction,
	}
}

func mergeAction(c *cli.Context) error {
	if c.NArg() < 2 {
		return usagef("merge takes the output database and at least one input database, got %d arguments", c.NArg())
	}
	dst, srcs := c.Args().First(), c.Args().Tail()
	for _, src := range srcs {
		fi, err := os.Stat(src)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return usagef("%s: no such database", src)
		case err != nil:
			return usagef("%s: %w", src, pathless(err))
		case !fi.Mode().IsRegular():
			return usagef("%s: not a database file", src)
		}
	}
	if fi, err := os.Stat(filepath.Dir(dst)); err != nil || !fi.IsDir() {
		return usagef("%s: directory %s does not exist", dst, filepath.Dir(dst))
	}
	if fi, err := os.Stat(dst); err == nil && !fi.Mode().IsRegular() {
		return usagef("%s: not a database file", dst)
	}
	if err := store.Merge(c.Context, dst, srcs, c.Bool("force")); err != nil {
		if errors.Is(err, store.ErrMismatch) {
			return reworded{strings.Replace(err.Error(), "use force", "use --force", 1), err}
		}
		return err
	}
	db, err := store.OpenReadOnly(dst)
	if err != nil {
		return err
	}
	defer db.Close()
	done, failed, err := db.Counts(c.Context, "")
	if err != nil {
		return err
	}
	fmt.Fprintf(c.App.Writer, "merged %d database%s into %s: %d points done, %d failed\n",
		len(srcs), plural(len(srcs)), dst, done, failed)
	return nil
}

// pathless drops the operation and path of an *fs.PathError, which the
// message already names.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// reworded is err with a message that speaks of flags rather than of the
// API's parameters.
type reworded struct {
	msg string
	err error
}

func (e reworded) Error() string { return e.msg }
func (e reworded) Unwrap() error { return e.err }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
