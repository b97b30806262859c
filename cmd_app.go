package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/store/atomicfile"
	"github.com/ccsweep/ccsweep/sweep"
)

// version and commit are set at link time (-ldflags "-X main.version=...");
// commit falls back to the VCS stamp Go embeds when it builds from a checkout.
var (
	version = "0.1.0-dev"
	commit  = ""
)

func buildCommit() string {
	if commit != "" {
		return commit
	}
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				return s.Value
			}
		}
	}
	return "unknown"
}

// usageError is bad usage or bad input: exit status 2. It wraps its cause,
// so errors.Is and errors.As see through it (usagef keeps a %w operand).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// newApp builds the command-line application writing to stdout and stderr.
func newApp(stdout, stderr io.Writer) *cli.App {
	cli.VersionPrinter = func(c *cli.Context) {
		fmt.Fprintf(c.App.Writer, "ccsweep %s (commit %s, model %s)\n", version, buildCommit(), model.Version)
	}
	return &cli.App{
		Name:                 "ccsweep",
		Usage:                "simulate InfiniBand congestion control and sweep its parameters",
		Version:              version,
		Writer:               stdout,
		ErrWriter:            stderr,
		EnableBashCompletion: true,
		// Repeatable flags (--set, --extra) take each value whole: values such
		// as victim_mask=S1:4,S2:1 or --mail-type=END,FAIL hold commas.
		DisableSliceFlagSeparator: true,
		HideHelpCommand:           true,
		// cli adds --help itself only when no command is called help.
		Flags:        []cli.Flag{cli.HelpFlag},
		Commands:     commands(),
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cli.ShowAppHelp(c)
			}
			return usagef("unknown command %q (see ccsweep --help)", c.Args().First())
		},
		ExitErrHandler: func(*cli.Context, error) {}, // run maps errors to exit codes
	}
}

// commands are ccsweep's commands, each with its exit statuses in its help.
func commands() []*cli.Command {
	cmds := []*cli.Command{runCommand(), simCommand(), reportCommand(), serveCommand(), exportCommand(),
		mergeCommand(), slurmCommand(), statusCommand(), scenariosCommand(), validateCommand(), completionCommand(),
		bestCommand(), calibrateCommand(), fabricCommand(), helpCommand()}
	finishCommands(cmds)
	return cmds
}

// Exit statuses of ccsweep.
const (
	exitFailed     = 1 // a run failed
	exitUsage      = 2 // bad usage or bad input
	exitIncomplete = 3 // a sweep stopped with points not yet run; running it again finishes them
)

// run executes ccsweep with args and returns the process exit status: 0 on
// success, exitUsage for bad usage or input (a usage error, a bad grid or
// parameter, a file that is not a usable database), exitIncomplete when a
// sweep stopped with points undone and nothing else went wrong, exitFailed
// otherwise. This is the one place errors become exit statuses.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	app := newApp(stdout, stderr)
	err := app.RunContext(ctx, normalizeArgs(app, args))
	if err == nil {
		return 0
	}
	if stoppedBySignal(ctx, err) {
		return exitFailed // the process's caller says which signal (signalStatus)
	}
	var ge *grids.Error
	if errors.As(err, &ge) {
		// One line per problem, each naming file, line and key.
		for _, p := range ge.Problems {
			fmt.Fprintln(stderr, "ccsweep: "+p.String())
		}
		if ge.More > 0 {
			fmt.Fprintln(stderr, "ccsweep: "+ge.MoreLine())
		}
		return exitUsage
	}
	fmt.Fprintln(stderr, "ccsweep: "+oneLine(err.Error()))
	return exitStatus(err)
}

// exitStatus maps an error other than a grid's problems to an exit status.
func exitStatus(err error) int {
	var ue usageError
	var pe *model.ParamError
	switch {
	case errors.As(err, &ue), errors.As(err, &pe), errors.Is(err, model.ErrUnknownParam),
		errors.Is(err, store.ErrNotDatabase), errors.Is(err, store.ErrSchemaTooNew),
		errors.Is(err, store.ErrMismatch), errors.Is(err, store.ErrNoDatabase),
		errors.Is(err, store.ErrUnwritable):
		return exitUsage
	case errors.Is(err, sweep.ErrIncomplete):
		return exitIncomplete
	}
	return exitFailed
}

// commandUsageError turns a flag-parsing error into a one-line usage error
// instead of a help page.
func commandUsageError(c *cli.Context, err error, _ bool) error {
	return usagef("%v (see ccsweep %s --help)", err, c.Command.Name)
}

// normalizeArgs makes `ccsweep GRID.toml ...` mean `ccsweep run GRID.toml
// ...`, and moves a command's arguments after its flags so that flags may
// follow them (`ccsweep run grid.toml -j 4`).
func normalizeArgs(app *cli.App, args []string) []string {
	if len(args) < 2 {
		return args
	}
	if strings.HasSuffix(args[1], ".toml") {
		args = append([]string{args[0], "run"}, args[1:]...)
	}
	cmd := app.Command(args[1])
	if cmd == nil {
		return args
	}
	takesValue := map[string]bool{}
	for _, f := range cmd.Flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, name := range f.Names() {
			takesValue[name] = !isBool
		}
	}
	var flags, positional []string
	rest := args[2:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if !strings.Contains(name, "=") && takesValue[name] && i+1 < len(rest) {
			i++
			flags = append(flags, rest[i])
		}
	}
	out := append([]string{args[0], args[1]}, flags...)
	if len(positional) > 0 {
		out = append(append(out, "--"), positional...)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

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
