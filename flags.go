package main

// Flags and arguments several commands share: one spelling, one meaning.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

// scenarioFlag is --scenario of a command that also takes the scenario as
// its one argument: one spelling wherever a scenario is named.
func scenarioFlag() cli.Flag {
	return &cli.StringFlag{Name: "scenario", Usage: "the scenario, a built-in name or a scenario file (or give it as the argument)"}
}

// scenarioArg returns the scenario a command names, as its one argument
// or with --scenario; ok is false unless exactly one of them names it.
func scenarioArg(c *cli.Context) (name string, ok bool) {
	switch {
	case c.IsSet("scenario") && c.NArg() == 0:
		return c.String("scenario"), true
	case !c.IsSet("scenario") && c.NArg() == 1:
		return c.Args().First(), true
	}
	return "", false
}

// loadScenario reads the scenario name names: a scenario file, with the
// files it was read from (the file, then its fabric), or a built-in
// scenario, with no files. A scenario file's problems come back as a
// *grids.Error, one line per problem; the rest are usage errors, an
// unknown name's message starting with prefix.
func loadScenario(name, prefix string) (*workload.Scenario, []string, error) {
	if grids.IsScenarioFile(name) {
		sc, files, err := grids.LoadScenarioFiles(name)
		if err != nil {
			var ge *grids.Error
			if errors.As(err, &ge) {
				return nil, nil, err
			}
			return nil, nil, usagef("%v", err)
		}
		return sc, files, nil
	}
	sc := workload.LookupScenario(name)
	if sc == nil {
		return nil, nil, usagef("%sunknown scenario %q (known: %s, or a scenario file NAME.toml)", prefix, name, strings.Join(workload.ScenarioNames(), ", "))
	}
	return sc, nil, nil
}

// defaultMaxEvents is the work sim and run accept without --max-events:
// about ten minutes of one core at the simulator's 15-25 M events/s.
const defaultMaxEvents = 1e10

// checkWork refuses a negative --max-events, a run of sc under cfg its
// file's routing lacks the VLs for (at the file's line), and a run
// estimated to take more events than --max-events.
func checkWork(c *cli.Context, sc *workload.Scenario, cfg params.Config) error {
	if err := checkMaxEvents(c); err != nil {
		return err
	}
	if err := grids.CheckScenarioConfig(sc, cfg); err != nil {
		return usageError{err}
	}
	if _, err := model.CheckWork(sc, cfg, c.Float64("max-events")); err != nil {
		var we *model.WorkError
		if errors.As(err, &we) {
			return usagef("%v (--max-events)", err)
		}
		return usagef("%v", err)
	}
	return nil
}

// checkMaxEvents refuses a negative --max-events.
func checkMaxEvents(c *cli.Context) error {
	if c.Float64("max-events") < 0 {
		return usagef("--max-events %g: want 0 (no limit) or more", c.Float64("max-events"))
	}
	return nil
}

// paramHelp lists every parameter --set accepts.
func paramHelp() string {
	var b strings.Builder
	b.WriteString("Parameters for --set (defaults are the reference testbed's):\n")
	def := params.DefaultConfig()
	for _, p := range params.Params() {
		doc := p.Doc
		if p.Scheme != "" {
			doc = "[cc " + p.Scheme + "] " + doc
		}
		fmt.Fprintf(&b, "   %-24s %-12s %s\n", p.Name, def.Canonical(p.Name), doc)
	}
	return b.String()
}

// applySets applies --set key=value flags to cfg. setBy names what already
// set each parameter (e.g. "--phase"); a parameter set twice is a usage
// error, not a silent last-one-wins.
func applySets(cfg *params.Config, sets []string, setBy map[string]string, set func(*params.Config, string, any) error) error {
	for _, kv := range sets {
		key, val, ok := strings.Cut(kv, "=")
		if !ok {
			return usagef("--set %q: want key=value", kv)
		}
		key = strings.TrimSpace(key)
		if prev, ok := setBy[key]; ok {
			return usagef("--set %s: %s is already set by %s; give each parameter once", kv, key, prev)
		}
		setBy[key] = "--set " + kv
		if err := set(cfg, key, strings.TrimSpace(val)); err != nil {
			return usagef("--set: %v", err)
		}
	}
	return nil
}

// printWarnings prints, one line each on w, what reading the scenarios'
// files worked around (workload.Scenario.Warnings), each scenario's once.
func printWarnings(w io.Writer, scs ...*workload.Scenario) {
	seen := map[*workload.Scenario]bool{}
	for _, sc := range scs {
		if sc == nil || seen[sc] {
			continue
		}
		seen[sc] = true
		for _, m := range sc.Warnings {
			fmt.Fprintln(w, "ccsweep: warning: "+m)
		}
	}
}

// gridScenarios returns the scenario of each of g's sub-grids, for
// printWarnings.
func gridScenarios(g *grids.Grid) []*workload.Scenario {
	var scs []*workload.Scenario
	for _, s := range g.Subs {
		scs = append(scs, workload.LookupScenario(s.Scenario))
	}
	return scs
}

// scenarioInputs names the files a scenario file was read from (the file,
// then its fabric) as inputs for checkOutputs.
func scenarioInputs(files []string) []ioPath {
	var ins []ioPath
	for i, f := range files {
		what := "a file of the scenario,"
		if i == 0 {
			what = "the scenario file"
		}
		ins = append(ins, ioPath{what, f})
	}
	return ins
}

// dbArgCommands are the commands that take a database as their (first)
// argument; each also takes it as --db FILE, the flag run and calibrate
// name their database with.
var dbArgCommands = map[string]bool{"report": true, "serve": true, "export": true, "best": true, "status": true, "merge": true}

// dbArgFlag is --db of a dbArgCommands command. normalizeArgs makes its
// value the command's first argument, so the command never sees it set;
// except for status, whose argument may be a directory too: it reads --db
// itself, as a database.
func dbArgFlag(command string) cli.Flag {
	what := "the database"
	if command == "merge" {
		what = "the output database"
	}
	return &cli.StringFlag{Name: "db", Usage: what + " (or give it as the first argument)"}
}

// normalizeArgs makes `ccsweep GRID.toml ...` mean `ccsweep run GRID.toml
// ...`, moves a command's arguments after its flags so that flags may
// follow them (`ccsweep run grid.toml -j 4`), and makes --db FILE of a
// dbArgCommands command its first argument.
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
	var flags, positional, dbs []string
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
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "db" && dbArgCommands[cmd.Name] && cmd.Name != "status" && (hasValue || i+1 < len(rest)) {
			if !hasValue {
				i++
				value = rest[i]
			}
			dbs = append(dbs, value)
			continue
		}
		flags = append(flags, a)
		if !hasValue && takesValue[name] && i+1 < len(rest) {
			i++
			flags = append(flags, rest[i])
		}
	}
	positional = append(dbs, positional...)
	out := append([]string{args[0], args[1]}, flags...)
	if len(positional) > 0 {
		out = append(append(out, "--"), positional...)
	}
	return out
}

// gridInputs lists the files a grid was read from, for checkOutputs.
func gridInputs(g *grids.Grid) []ioPath {
	var ins []ioPath
	for i, f := range g.Files() {
		what := "an input of the grid,"
		if i == 0 {
			what = "the grid file"
		}
		ins = append(ins, ioPath{what, f})
	}
	return ins
}

// loadGrid reads a grid file; its problems are usage errors (exit 2).
func loadGrid(path string) (*grids.Grid, error) {
	g, err := grids.Load(path)
	if err != nil {
		var ge *grids.Error
		if errors.As(err, &ge) || errors.Is(err, os.ErrNotExist) {
			return nil, usageError{err}
		}
		return nil, usagef("%v", err)
	}
	return g, nil
}
