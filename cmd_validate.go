package main

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fidelity"
	"github.com/ccsweep/ccsweep/model/params"
)

// errValidationFailed is returned when a row of `ccsweep validate` fails:
// exit status 1, like a failed run.
var errValidationFailed = errors.New("the model disagrees with the published measurements")

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:  "validate",
		Usage: "run the reference experiments and set the model beside the published testbed measurements",
		UsageText: "ccsweep validate [--phase DUR] [-j N] [--set key=value ...] [--quiet]\n" +
			"   ccsweep validate --cross [--fit name=v1,v2,... ...] [--phase DUR] [-j N] [--set ...]\n" +
			"   ccsweep validate --sensitivity [--param NAME ...] [--phase DUR] [-j N] [--set ...]\n\n" +
			"Prints one Markdown table row per check: the CC-off and CC-on tables of the\n" +
			"reference testbed, and the published claims about its CCTI_Timer × Marking_Rate\n" +
			"surfaces, each with the model's number, the published one, the measure and the\n" +
			"verdict. Exit status 1 if a row fails.\n\n" +
			"--cross lists the fitted and guessed parameters, then holds out each group of rows\n" +
			"(one published table, figure or text), refits the fitted parameters on the other\n" +
			"groups over a coarse grid (--fit replaces an axis) and prints the group's in-sample\n" +
			"and held-out verdicts; exit status 1 if either fails for a group.\n" +
			"--sensitivity reruns the check with each fitted or guessed parameter (or each\n" +
			"--param) halved and doubled and prints the rows whose verdict flips.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "phase", Value: "1s", Usage: "phase of every run; shorter runs faster (100ms: about 20 s of CPU)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "simulations at once"},
			&cli.StringSliceFlag{Name: "set", Usage: "set a model parameter for every run, e.g. --set becn_return=cnp (repeatable; see ccsweep sim --help)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on a terminal"},
			&cli.BoolFlag{Name: "cross", Usage: "held-out validation: refit the fitted parameters without each group of rows and predict it"},
			&cli.StringSliceFlag{Name: "fit", Usage: "with --cross: refit name over these values, e.g. --fit paced_read_latency=1us,2us (repeatable; replaces the default axes)"},
			&cli.BoolFlag{Name: "sensitivity", Usage: "rerun with each fitted or guessed parameter halved and doubled; print the verdicts that flip"},
			&cli.StringSliceFlag{Name: "param", Usage: "with --sensitivity: only this parameter (repeatable)"},
		},
		OnUsageError: commandUsageError,
		Action:       validateAction,
	}
}

func validateAction(c *cli.Context) error {
	if c.NArg() > 0 {
		return usagef("validate takes no arguments, got %q", c.Args().First())
	}
	phase, err := engine.ParseTime(c.String("phase"))
	if err != nil || phase <= 0 {
		return usagef("--phase %q: want a positive duration with a unit, e.g. 100ms", c.String("phase"))
	}
	if c.Int("jobs") < 1 {
		return usagef("-j %d: want at least 1", c.Int("jobs"))
	}
	cfg := params.DefaultConfig()
	// validate sets cc itself (off and on) and the phase from --phase.
	setBy := map[string]string{"cc": "validate (it runs CC off and on)", "phase": "--phase"}
	if err := applySets(&cfg, c.StringSlice("set"), setBy, func(c *params.Config, k string, v any) error { return c.Set(k, v) }); err != nil {
		return err
	}
	if err := cfg.Set("phase", phase); err != nil {
		return usagef("--phase: %v", err)
	}
	// Its runs are IB CC's (and CC off): another scheme's parameter would
	// do nothing there.
	ib := cfg
	ib.CC.Scheme = params.SchemeIB
	for _, kv := range c.StringSlice("set") {
		name, _, _ := strings.Cut(kv, "=")
		var spe *params.SchemeParamError
		if err := ib.CheckSchemeParams([]string{strings.TrimSpace(name)}); errors.As(err, &spe) {
			return usagef("--set %s: %s is a parameter of cc %s, and validate runs cc off and ib only, where it does nothing", kv, spe.Name, spe.Scheme)
		}
	}
	if err := cfg.Validate(); err != nil {
		return usagef("%v", err)
	}
	opt := fidelity.FidelityOptions{Base: &cfg, Phase: phase, Jobs: c.Int("jobs")}
	switch {
	case c.Bool("cross") && c.Bool("sensitivity"):
		return usagef("--cross and --sensitivity: choose one")
	case len(c.StringSlice("fit")) > 0 && !c.Bool("cross"):
		return usagef("--fit needs --cross")
	case len(c.StringSlice("param")) > 0 && !c.Bool("sensitivity"):
		return usagef("--param needs --sensitivity")
	case c.Bool("cross"):
		return crossAction(c, opt)
	case c.Bool("sensitivity"):
		return sensitivityAction(c, opt)
	}
	opt.Progress = validateProgress(c)
	start := time.Now()
	rep, err := fidelity.CheckFidelity(c.Context, opt)
	if err != nil {
		return validateError("validate", err)
	}
	rep.WriteMarkdown(c.App.Writer, c.StringSlice("set"), time.Since(start))
	if failed := rep.Failed(); failed > 0 {
		return fmt.Errorf("validate: %d of %d rows fail: %w", failed, len(rep.Rows), errValidationFailed)
	}
	return nil
}
