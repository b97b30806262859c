package main

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/params"
	"github.com/ccsweep/ccsweep/model/workload"
)

func simCommand() *cli.Command {
	return &cli.Command{
		Name:      "sim",
		Usage:     "run one simulation and print its throughput series",
		UsageText: "ccsweep sim NAME|FILE.toml [--cc off|ib|santos|nicrate|drb] [--preset NAME] [--set key=value ...] [--phase DUR] [--sample DUR] [--seed N] [--format csv|json] [--out FILE] [--max-events N] [--cpuprofile FILE] [--quiet]\n   ccsweep sim --scenario NAME|FILE.toml [...]",
		Flags: []cli.Flag{
			scenarioFlag(),
			&cli.StringFlag{Name: "cc", Usage: "congestion-control scheme: off, ib (IB CC with the testbed's parameters; on is the same), santos, nicrate or drb (default: the scenario's; off for the testbed, ib for clos648-*)"},
			&cli.StringFlag{Name: "preset", Usage: "named IB CC settings: " + strings.Join(params.PresetNames(), ", ") + " (default " + params.DefaultPreset + "; see docs/presets.md); --set overrides its fields"},
			&cli.StringSliceFlag{Name: "set", Usage: "set a parameter, e.g. --set ccti_timer=300us (repeatable; listed below)"},
			&cli.StringFlag{Name: "phase", Usage: "scenario phase length, e.g. 200ms (default: the scenario's; 1s for the testbed, 125ms for clos648-*)"},
			&cli.StringFlag{Name: "sample", Usage: "throughput sampling interval (default 1ms)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
			&cli.StringFlag{Name: "format", Value: "csv", Usage: "csv (time_s,flow,throughput_gbps) or json (parameters, metrics, series)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write to FILE instead of standard output"},
			&cli.Float64Flag{Name: "max-events", Value: defaultMaxEvents, Usage: "refuse a run estimated to take more events than this (0: no limit); about 10 minutes of one core per 1e10"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress bar on a terminal"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the run to FILE (read it with go tool pprof)"},
		},
		Description:  paramHelp(),
		OnUsageError: commandUsageError,
		Action:       simAction,
	}
}

// simConfig builds the run's configuration from the command's flags; the
// scenario file, if one is named, and the files it reads go in *files.
func simConfig(c *cli.Context, files *[]string) (*workload.Scenario, params.Config, error) {
	cfg := params.DefaultConfig()
	name, ok := scenarioArg(c)
	switch {
	case !ok && c.NArg() > 1:
		return nil, cfg, usagef("sim takes one scenario, got %d arguments", c.NArg())
	case !ok && c.NArg() == 1:
		return nil, cfg, usagef("sim takes one scenario, as its argument or with --scenario, not both")
	case !ok || name == "":
		return nil, cfg, usagef("--scenario is required (known: %s)", strings.Join(workload.ScenarioNames(), ", "))
	}
	sc, fs, err := loadScenario(name, "--scenario: ")
	if err != nil {
		return nil, cfg, err
	}
	if *files = fs; fs != nil {
		printWarnings(c.App.ErrWriter, sc)
	}
	cfg = sc.Config() // the defaults with the scenario's own
	if c.IsSet("cc") {
		if err := cfg.Set("cc", c.String("cc")); err != nil {
			return nil, cfg, usagef("--cc: want one of %s (on is ib), not %q", strings.Join(params.Schemes, ", "), c.String("cc"))
		}
	}
	for _, flag := range []string{"preset", "phase", "sample"} {
		if v := c.String(flag); v != "" {
			if err := cfg.Set(flag, v); err != nil {
				return nil, cfg, usagef("--%s: %v", flag, err)
			}
		}
	}
	// Each parameter is set once: a repeated --set, or --set cc/phase/sample
	// beside its own flag, is a conflict, not a silent last-one-wins.
	setBy := map[string]string{}
	for _, flag := range []string{"cc", "preset", "phase", "sample"} {
		if c.IsSet(flag) {
			setBy[flag] = "--" + flag
		}
	}
	if err := applySets(&cfg, c.StringSlice("set"), setBy, sc.Set); err != nil {
		return nil, cfg, err
	}
	if err := cfg.CheckSchemeParams(slices.Sorted(maps.Keys(setBy))); err != nil {
		return nil, cfg, usagef("--set: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		return nil, cfg, usagef("%v", err)
	}
	return sc, cfg, nil
}

func simAction(c *cli.Context) error {
	format := c.String("format")
	if format != "csv" && format != "json" {
		return usagef("--format: want csv or json, not %q", format)
	}
	var files []string
	sc, cfg, err := simConfig(c, &files)
	if err != nil {
		return err
	}
	ins := scenarioInputs(files)
	outs := []ioPath{{"--out", c.String("out")}, {"--cpuprofile", c.String("cpuprofile")}}
	if err := checkOutputs(outs, ins); err != nil {
		return err
	}
	if err := checkWork(c, sc, cfg); err != nil {
		return err
	}
	var progress func(now, end engine.Time)
	if !c.Bool("quiet") && isTerminal(c.App.ErrWriter) {
		bar := newSimProgress(c.App.ErrWriter)
		defer bar.Finish()
		progress = bar.Update
	}
	stopProfile, err := startCPUProfile(c.String("cpuprofile"))
	if err != nil {
		return err
	}
	res, err := model.RunProgress(c.Context, sc, cfg, c.Uint64("seed"), progress)
	if perr := stopProfile(); perr != nil && err == nil {
		return perr
	}
	if err != nil {
		var pe *params.ParamError
		var me *model.MemoryError
		// A scenario the parameters make impossible (an lmc dor cannot
		// route, rates for flows that do not exist) is bad input too.
		if errors.As(err, &pe) || errors.As(err, &me) || errors.Is(err, fabric.ErrBadScenario) {
			return usageError{err}
		}
		return fmt.Errorf("simulation failed: %w", err)
	}
	if refused := res.RefusedFlows(); len(refused) > 0 {
		fmt.Fprintf(c.App.ErrWriter, "nicrate admission control refused %s: they never started (their requests would oversubscribe a source, link or destination)\n", strings.Join(refused, ", "))
	}
	write := res.WriteCSV
	if format == "json" {
		write = res.WriteJSON
	}
	return writeOutput(c.Context, c.String("out"), c.App.Writer, write)
}

// simJSON is the document sim --format json prints.
type simJSON = model.ResultJSON
