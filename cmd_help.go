package main

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// helpCommand is `ccsweep help [COMMAND]`: the same pages as --help.
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:            "help",
		Usage:           "show the help of ccsweep or of one command",
		UsageText:       "ccsweep help [COMMAND]",
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			switch c.NArg() {
			case 0:
				return cli.ShowAppHelp(c)
			case 1:
				name := c.Args().First()
				if cmd := c.App.Command(name); cmd == nil || cmd.Hidden {
					return usagef("no command %q (see ccsweep --help)", name)
				}
				return cli.ShowCommandHelp(c, name)
			}
			return usagef("help takes one command, got %d arguments", c.NArg())
		},
		OnUsageError: commandUsageError,
	}
}

// Exit statuses a command's help lists, as docs/guarantees.md defines
// them ("Exit statuses"); each command says what they mean for it.
var exitStatuses = map[string][]string{
	"run": {"0 every point is done", "1 a point failed or the run failed (e.g. a full disk)", "2 bad usage or input",
		"3 the run stopped with points not yet run (e.g. interrupted): run it again to finish them", "128+n stopped by signal n"},
	"sim":       {"0 the run is done", "1 the run failed", "2 bad usage or input (a scenario its parameters make impossible too)", "128+n stopped by signal n"},
	"report":    {"0 the report is written", "1 it could not be written", "2 bad usage, not a results database, an output that cannot or must not be written", "128+n stopped by signal n"},
	"serve":     {"1 the server failed (e.g. the address is taken)", "2 bad usage or not a results database", "128+n stopped by signal n (the way it ends)"},
	"export":    {"0 everything is printed", "1 it failed", "2 bad usage or not a results database", "128+n stopped by signal n"},
	"merge":     {"0 merged", "1 it failed", "2 bad usage, not a results database, databases of different grids or model versions without --force", "128+n stopped by signal n"},
	"slurm":     {"0 the scripts are written (and, with --submit, submitted)", "1 sbatch or scontrol failed", "2 bad usage or input", "128+n stopped by signal n"},
	"status":    {"0 counted (whatever is missing)", "1 it failed", "2 bad usage, not a results database or a grid file with problems"},
	"scenarios": {"0 listed", "2 bad usage"},
	"validate": {"0 every row agrees with the published measurement", "1 a row (or with --cross a group) fails, or a run failed",
		"2 bad usage or input", "128+n stopped by signal n"},
	"completion": {"0 the script is printed", "2 bad usage (a shell other than bash or zsh)"},
	"best":       {"0 ranked", "1 it failed", "2 bad usage, an unknown metric or parameter, a metric no point has, not a results database", "128+n stopped by signal n"},
	"calibrate": {"0 every round is done and the fit is written", "1 a point failed or the run failed", "2 bad usage or input",
		"3 it stopped with points not yet run: run it again to go on", "128+n stopped by signal n"},
	"fabric": {"0 the fabric is described", "1 it failed", "2 bad usage, or a scenario or fabric file with problems", "128+n stopped by signal n"},
	"help":   {"0 the help is printed", "2 no such command"},
}

// exitStatusText is the paragraph of a command's help that lists its exit
// statuses.
func exitStatusText(name string) string {
	var b strings.Builder
	b.WriteString("Exit status:")
	for _, s := range exitStatuses[name] {
		code, what, _ := strings.Cut(s, " ")
		fmt.Fprintf(&b, "\n  %-6s %s", code, what)
	}
	return b.String()
}

// renamedFlag is a flag's old spelling, kept working but hidden from help
// so that scripts written for it do not break. A notice, if any, is printed
// on standard error, one line, whenever the old spelling is used: for an
// old spelling that means something else in other commands.
type renamedFlag struct{ command, old, now, notice string }

// renamedFlags are the old spellings: one spelling for one meaning across
// commands (--out/-o for output files, --grid for a grid the database
// records, --grid-file for a grid file).
var renamedFlags = []renamedFlag{
	{"report", "output", "out", ""},
	{"run", "report", "out", ""},
	{"status", "grid", "grid-file", "ccsweep: status --grid FILE is deprecated: use --grid-file FILE (--grid names a grid of the database, as in best)"},
}

// finishCommands gives every command its exit statuses in its help,
// machine-independent defaults there, and its renamed flags' old
// spellings.
func finishCommands(cmds []*cli.Command) {
	for _, cmd := range cmds {
		if _, ok := exitStatuses[cmd.Name]; !ok {
			panic("ccsweep: no exit statuses for command " + cmd.Name)
		}
		if cmd.Description != "" {
			cmd.Description += "\n\n"
		}
		cmd.Description += exitStatusText(cmd.Name)
		for _, f := range cmd.Flags {
			// The help, and the reference generated from it, say the
			// same on every machine.
			if jobs, ok := f.(*cli.IntFlag); ok && jobs.Name == "jobs" && jobs.DefaultText == "" {
				jobs.DefaultText = "the number of CPUs"
			}
		}
		if dbArgCommands[cmd.Name] {
			cmd.Flags = append(cmd.Flags, dbArgFlag(cmd.Name))
		}
		for _, r := range renamedFlags {
			if r.command == cmd.Name {
				addOldSpelling(cmd, r)
			}
		}
	}
}

// addOldSpelling makes --old a hidden flag that sets --now.
func addOldSpelling(cmd *cli.Command, r renamedFlag) {
	old, now := r.old, r.now
	cmd.Flags = append(cmd.Flags, &cli.StringFlag{Name: old, Hidden: true, Usage: "the old spelling of --" + now})
	before := cmd.Before
	cmd.Before = func(c *cli.Context) error {
		if c.IsSet(old) {
			if c.IsSet(now) {
				return usagef("--%s and --%s are one flag (--%s is its old spelling): give it once", now, old, old)
			}
			if err := c.Set(now, c.String(old)); err != nil {
				return usagef("--%s: %v", old, err)
			}
			if r.notice != "" {
				fmt.Fprintln(c.App.ErrWriter, r.notice)
			}
		}
		if before != nil {
			return before(c)
		}
		return nil
	}
}
