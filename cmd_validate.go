package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
)

// errValidationFailed is returned when a row of `ccsweep validate` fails:
// exit status 1, like a failed run.
var errValidationFailed = errors.New("the model disagrees with the published measurements")

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:  "validate",
		Usage: "run the reference experiments and set the model beside the published testbed measurements",
		UsageText: "ccsweep validate [--phase DUR] [-j N] [--set key=value ...] [--quiet]\n\n" +
			"Prints one Markdown table row per check: the CC-off and CC-on tables of the\n" +
			"reference testbed, and the published claims about its CCTI_Timer × Marking_Rate\n" +
			"surfaces, each with the model's number, the published one, the measure and the\n" +
			"verdict. Exit status 1 if a row fails.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "phase", Value: "1s", Usage: "phase of every run; shorter runs faster (100ms: about 20 s of CPU)"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "simulations at once"},
			&cli.StringSliceFlag{Name: "set", Usage: "set a model parameter for every run, e.g. --set becn_return=cnp (repeatable; see ccsweep sim --help)"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on a terminal"},
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
	cfg := model.DefaultConfig()
	// validate sets cc itself (off and on) and the phase from --phase.
	setBy := map[string]string{"cc": "validate (it runs CC off and on)", "phase": "--phase"}
	if err := applySets(&cfg, c.StringSlice("set"), setBy, func(c *model.Config, k string, v any) error { return c.Set(k, v) }); err != nil {
		return err
	}
	if err := cfg.Set("phase", phase); err != nil {
		return usagef("--phase: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		return usagef("%v", err)
	}
	opt := model.FidelityOptions{Base: &cfg, Phase: phase, Jobs: c.Int("jobs")}
	if !c.Bool("quiet") && isTerminal(c.App.ErrWriter) {
		opt.Progress = func(done, total int) {
			fmt.Fprintf(c.App.ErrWriter, "\r\x1b[Kvalidate: %d of %d simulations", done, total)
			if done == total {
				fmt.Fprint(c.App.ErrWriter, "\r\x1b[K")
			}
		}
	}
	start := time.Now()
	rep, err := model.CheckFidelity(c.Context, opt)
	if err != nil {
		var pe *model.ParamError
		if errors.As(err, &pe) {
			return usageError{err}
		}
		return fmt.Errorf("validate: %w", err)
	}
	writeValidation(c.App.Writer, rep, c.StringSlice("set"), time.Since(start))
	if failed := countFailed(rep); failed > 0 {
		return fmt.Errorf("validate: %d of %d rows fail: %w", failed, len(rep.Rows), errValidationFailed)
	}
	return nil
}

func countFailed(rep *model.FidelityReport) int {
	n := 0
	for _, r := range rep.Rows {
		if !r.Pass {
			n++
		}
	}
	return n
}

// writeValidation prints the report as a Markdown table and a summary line.
func writeValidation(w io.Writer, rep *model.FidelityReport, sets []string, took time.Duration) {
	fmt.Fprintln(w, "| source | compared | model | published | measure | verdict |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rep.Rows {
		verdict := "pass"
		if !r.Pass {
			verdict = "**FAIL**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", r.Source, r.Item, r.Model, r.Published, r.Measure, verdict)
	}
	with := ""
	if len(sets) > 0 {
		with = ", with " + strings.Join(sets, ", ")
	}
	fmt.Fprintf(w, "\n%d of %d rows pass (testbed-s1, phase %v, model %s%s; %d simulations in %v)\n",
		len(rep.Rows)-countFailed(rep), len(rep.Rows), rep.Config.Phase, model.Version, with,
		2+len(rep.Surface.Timers)*len(rep.Surface.Rates), took.Round(time.Second))
}
