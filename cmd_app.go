package main

import (
	"context"
	"errors"
	"fmt"
	"io"
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
		Commands: []*cli.Command{runCommand(), simCommand(), reportCommand(), serveCommand(), exportCommand(),
			mergeCommand(), slurmCommand(), statusCommand(), scenariosCommand(), validateCommand(), completionCommand(),
			bestCommand(), calibrateCommand(), fabricCommand()},
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
// atomicfile). A path that cannot be written is bad input: exit status 2.
func writeOutput(path string, w io.Writer, fill func(io.Writer) error) error {
	if path == "" || path == "-" {
		return fill(w)
	}
	var fillErr error
	err := atomicfile.Write(path, 0o644, func(f io.Writer) error {
		fillErr = fill(f)
		return fillErr
	})
	if err != nil && fillErr == nil {
		return usagef("cannot write %s: %v", path, err)
	}
	return err
}
