package main

// validate --cross and --sensitivity.

import (
	"errors"
	"fmt"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/model/fidelity"
	"github.com/ccsweep/ccsweep/model/params"
)

// parseFits reads --fit name=v1,v2,... into cross-validation axes.
func parseFits(fits []string) ([]fidelity.CrossAxis, error) {
	var axes []fidelity.CrossAxis
	for _, f := range fits {
		a, err := fidelity.ParseCrossAxis(f)
		if err != nil {
			return nil, usagef("--fit %v", err)
		}
		axes = append(axes, a)
	}
	return axes, nil
}

// validateError makes a run's bad parameter a usage error and says which
// check (what) failed otherwise.
func validateError(what string, err error) error {
	var pe *params.ParamError
	if errors.As(err, &pe) {
		return usageError{err}
	}
	return fmt.Errorf("%s: %w", what, err)
}

func crossAction(c *cli.Context, fopt fidelity.FidelityOptions) error {
	axes, err := parseFits(c.StringSlice("fit"))
	if err != nil {
		return err
	}
	opt := fidelity.CrossOptions{FidelityOptions: fopt, Axes: axes, Progress: checkProgress(c, "--cross")}
	start := time.Now()
	rep, err := fidelity.CrossValidate(c.Context, opt)
	if err != nil {
		return validateError("validate --cross", err)
	}
	failed := rep.WriteMarkdown(c.App.Writer, c.StringSlice("set"), time.Since(start))
	if failed > 0 {
		return fmt.Errorf("validate --cross: %d of %d groups fail in sample or held out: %w", failed, len(rep.Groups), errValidationFailed)
	}
	return nil
}

func sensitivityAction(c *cli.Context, fopt fidelity.FidelityOptions) error {
	names := c.StringSlice("param")
	for _, p := range names {
		if params.LookupParam(p) == nil {
			return usagef("--param %q: unknown parameter", p)
		}
	}
	if len(names) == 0 {
		names = nil
	}
	opt := fidelity.SensitivityOptions{FidelityOptions: fopt, Params: names, Progress: checkProgress(c, "--sensitivity")}
	start := time.Now()
	rep, err := fidelity.Sensitivity(c.Context, opt)
	if err != nil {
		return validateError("validate --sensitivity", err)
	}
	rep.WriteMarkdown(c.App.Writer, c.StringSlice("set"), time.Since(start))
	return nil
}
