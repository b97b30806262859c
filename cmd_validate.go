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
	cfg := model.DefaultConfig()
	// validate sets cc itself (off and on) and the phase from --phase.
	setBy := map[string]string{"cc": "validate (it runs CC off and on)", "phase": "--phase"}
	if err := applySets(&cfg, c.StringSlice("set"), setBy, func(c *model.Config, k string, v any) error { return c.Set(k, v) }); err != nil {
		return err
	}
	if err := cfg.Set("phase", phase); err != nil {
		return usagef("--phase: %v", err)
	}
	// Its runs are IB CC's (and CC off): another scheme's parameter would
	// do nothing there.
	ib := cfg
	ib.CC.Scheme = model.SchemeIB
	for _, kv := range c.StringSlice("set") {
		name, _, _ := strings.Cut(kv, "=")
		var spe *model.SchemeParamError
		if err := ib.CheckSchemeParams([]string{strings.TrimSpace(name)}); errors.As(err, &spe) {
			return usagef("--set %s: %s is a parameter of cc %s, and validate runs cc off and ib only, where it does nothing", kv, spe.Name, spe.Scheme)
		}
	}
	if err := cfg.Validate(); err != nil {
		return usagef("%v", err)
	}
	opt := model.FidelityOptions{Base: &cfg, Phase: phase, Jobs: c.Int("jobs")}
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
	fmt.Fprintf(w, "\n%d of %d rows pass (testbed-s1 and testbed-s2, phase %v, model %s%s; %d simulations in %v)\n",
		len(rep.Rows)-countFailed(rep), len(rep.Rows), rep.Config.Phase, model.Version, with,
		rep.Simulations(), took.Round(time.Second))
}

// checkProgress returns the progress callback of --cross and --sensitivity:
// on a terminal a line that counts up, elsewhere a line per finished check;
// nil with --quiet.
func checkProgress(c *cli.Context, what string) func(check, checks, done, total int) {
	if c.Bool("quiet") {
		return nil
	}
	w := c.App.ErrWriter
	if isTerminal(w) {
		return func(check, checks, done, total int) {
			fmt.Fprintf(w, "\r\x1b[Kvalidate %s: check %d of %d, %d of %d simulations", what, check, checks, done, total)
			if check == checks && done == total {
				fmt.Fprint(w, "\r\x1b[K")
			}
		}
	}
	return func(check, checks, done, total int) {
		if done == total {
			fmt.Fprintf(w, "validate %s: check %d of %d done\n", what, check, checks)
		}
	}
}

// parseFits reads --fit name=v1,v2,... into cross-validation axes.
func parseFits(fits []string) ([]model.CrossAxis, error) {
	var axes []model.CrossAxis
	for _, f := range fits {
		name, values, ok := strings.Cut(f, "=")
		if !ok || name == "" || values == "" {
			return nil, usagef("--fit %q: want name=value,value,...", f)
		}
		if model.LookupParam(name) == nil {
			return nil, usagef("--fit %q: unknown parameter %q", f, name)
		}
		axes = append(axes, model.CrossAxis{Name: name, Values: strings.Split(values, ",")})
	}
	return axes, nil
}

func crossAction(c *cli.Context, fopt model.FidelityOptions) error {
	axes, err := parseFits(c.StringSlice("fit"))
	if err != nil {
		return err
	}
	opt := model.CrossOptions{FidelityOptions: fopt, Axes: axes, Progress: checkProgress(c, "--cross")}
	start := time.Now()
	rep, err := model.CrossValidate(c.Context, opt)
	if err != nil {
		var pe *model.ParamError
		if errors.As(err, &pe) {
			return usageError{err}
		}
		return fmt.Errorf("validate --cross: %w", err)
	}
	failed := writeCross(c.App.Writer, rep, c.StringSlice("set"), time.Since(start))
	if failed > 0 {
		return fmt.Errorf("validate --cross: %d of %d groups fail in sample or held out: %w", failed, len(rep.Groups), errValidationFailed)
	}
	return nil
}

// writeProvenance prints the fitted and guessed parameters as a Markdown
// table.
func writeProvenance(w io.Writer, cfg *model.Config) {
	fmt.Fprintln(w, "| parameter | value | provenance | bounded by | allows | refit over (--cross) | why |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, p := range model.ParamProvenances {
		on, allows, over := "—", "—", "—"
		if len(p.Bounds) > 0 {
			var bounds []string
			for _, b := range p.Bounds {
				side := "above"
				if b.Below {
					side = "below"
				}
				bounds = append(bounds, fmt.Sprintf("%s (from %s; fails at %s)", b.Row, side, b.Fails))
			}
			on = strings.Join(bounds, "; ")
		}
		if p.Allows != "" {
			allows = p.Allows
		}
		if len(p.Cross) > 0 {
			over = strings.Join(p.Cross, ", ")
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s |\n", p.Name, cfg.Canonical(p.Name), p.Kind, on, allows, over, p.Why)
	}
}

// writeCross prints the provenance table and the in-sample and held-out
// verdict of each group, and returns the number of groups that fail either.
func writeCross(w io.Writer, rep *model.CrossReport, sets []string, took time.Duration) int {
	writeProvenance(w, &rep.InSample.Config)
	var axes []string
	for _, a := range rep.Axes {
		axes = append(axes, fmt.Sprintf("%s ∈ {%s}", a.Name, strings.Join(a.Values, ", ")))
	}
	fmt.Fprintf(w, "\nEach group is held out in turn; the fitted parameters are refitted on the other groups over a coarse grid, %s (%d points): the best fits are the points where the most of their rows pass, and a held-out row passes only if it passes at every best fit.\n\n",
		strings.Join(axes, " × "), len(rep.Points))
	fmt.Fprintln(w, "| group | kind | rows | in-sample | refit on the other groups | held-out |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	failed := 0
	verdict := func(ok bool) string {
		if ok {
			return "pass"
		}
		return "**FAIL**"
	}
	for i := range rep.Groups {
		g := &rep.Groups[i]
		in, held := g.InSample(rep), g.HeldOut()
		if !in || !held {
			failed++
		}
		inText := verdict(in)
		if !in {
			inText += " (" + rowList(rep.InSample, g.Rows, func(r int) bool { return !rep.InSample.Rows[r].Pass }) + ")"
		}
		var fits []string
		for _, p := range g.Fits {
			var vals []string
			for a, v := range rep.Points[p] {
				vals = append(vals, rep.Axes[a].Name+"="+v)
			}
			fits = append(fits, strings.Join(vals, " "))
		}
		heldText := verdict(held)
		var missed []string
		for k, r := range g.Rows {
			if g.FitsPassing[k] < len(g.Fits) {
				missed = append(missed, fmt.Sprintf("%s: %s passes at %d of %d", rep.InSample.Rows[r].Source, rep.InSample.Rows[r].Item, g.FitsPassing[k], len(g.Fits)))
			}
		}
		if len(missed) > 0 {
			heldText += " (" + strings.Join(missed, "; ") + ")"
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %d of %d rows pass at %s | %s |\n", g.Name, g.Kind, len(g.Rows), inText,
			g.Trained, g.Training, strings.Join(fits, " or "), heldText)
	}
	fmt.Fprintln(w, "\nThe grid:\n\n| point | rows that fail |\n|---|---|")
	for p, pt := range rep.Points {
		var vals []string
		for a, v := range pt {
			vals = append(vals, rep.Axes[a].Name+"="+v)
		}
		r := rep.Reports[p]
		fails := rowList(r, allRows(r), func(i int) bool { return !r.Rows[i].Pass })
		if fails == "" {
			fails = "none"
		}
		fmt.Fprintf(w, "| %s | %s |\n", strings.Join(vals, " "), fails)
	}
	with := ""
	if len(sets) > 0 {
		with = ", with " + strings.Join(sets, ", ")
	}
	fmt.Fprintf(w, "\n%d of %d groups pass in sample and held out (testbed-s1 and testbed-s2, phase %v, model %s%s; %d grid points in %v)\n",
		len(rep.Groups)-failed, len(rep.Groups), rep.InSample.Config.Phase, model.Version, with, len(rep.Points), took.Round(time.Second))
	return failed
}

func allRows(rep *model.FidelityReport) []int {
	idx := make([]int, len(rep.Rows))
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// rowList names the rows of idx that keep accepts.
func rowList(rep *model.FidelityReport, idx []int, keep func(int) bool) string {
	var names []string
	for _, r := range idx {
		if keep(r) {
			names = append(names, rep.Rows[r].Source+": "+rep.Rows[r].Item)
		}
	}
	return strings.Join(names, "; ")
}

func sensitivityAction(c *cli.Context, fopt model.FidelityOptions) error {
	params := c.StringSlice("param")
	for _, p := range params {
		if model.LookupParam(p) == nil {
			return usagef("--param %q: unknown parameter", p)
		}
	}
	if len(params) == 0 {
		params = nil
	}
	opt := model.SensitivityOptions{FidelityOptions: fopt, Params: params, Progress: checkProgress(c, "--sensitivity")}
	start := time.Now()
	rep, err := model.Sensitivity(c.Context, opt)
	if err != nil {
		var pe *model.ParamError
		if errors.As(err, &pe) {
			return usageError{err}
		}
		return fmt.Errorf("validate --sensitivity: %w", err)
	}
	writeSensitivity(c.App.Writer, rep, c.StringSlice("set"), time.Since(start))
	return nil
}

// writeSensitivity prints, per parameter, the rows whose verdict flips
// when it is halved and when it is doubled.
func writeSensitivity(w io.Writer, rep *model.SensitivityReport, sets []string, took time.Duration) {
	fmt.Fprintln(w, "| parameter | provenance | default | halved | verdicts that flip | doubled | verdicts that flip |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	flipped := func(r *model.FidelityReport, idx []int) string {
		if len(idx) == 0 {
			return "none"
		}
		var parts []string
		for _, i := range idx {
			to := "pass → **FAIL**"
			if r.Rows[i].Pass {
				to = "FAIL → pass"
			}
			parts = append(parts, fmt.Sprintf("%s: %s (%s)", r.Rows[i].Source, r.Rows[i].Item, to))
		}
		return strings.Join(parts, "; ")
	}
	for _, p := range rep.Params {
		prov := "published"
		if pp := model.LookupProvenance(p.Name); pp != nil {
			prov = pp.Kind
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s |\n", p.Name, prov, p.Default,
			p.Half, flipped(p.HalfReport, p.HalfFlips), p.Double, flipped(p.DoubleReport, p.DoubleFlips))
	}
	with := ""
	if len(sets) > 0 {
		with = ", with " + strings.Join(sets, ", ")
	}
	fmt.Fprintf(w, "\nAt the defaults %d of %d rows pass (testbed-s1 and testbed-s2, phase %v, model %s%s; %d checks in %v)\n",
		len(rep.Base.Rows)-countFailed(rep.Base), len(rep.Base.Rows), rep.Base.Config.Phase, model.Version, with,
		1+2*len(rep.Params), took.Round(time.Second))
}
