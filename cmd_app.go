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
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/store"
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
	var pe *params.ParamError
	switch {
	case errors.As(err, &ue), errors.As(err, &pe), errors.Is(err, params.ErrUnknownParam),
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

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
