package fidelity

import (
	"context"
	"fmt"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

// Held-out validation (ccsweep validate --cross) and sensitivity (--sensitivity).
//
// CrossValidate checks how well the fitted parameters predict rows they
// were not fitted on: for each group of rows (RowGroups), it refits the
// fitted parameters on the other groups, over a coarse grid of candidate
// values (CrossAxis), and judges the held group at the refitted values. A
// refit is the set of grid points where the most rows of the other groups
// pass; several points may tie, and a held-out row passes only if it passes
// at every one of them, so a row that some equally good fit fails is not
// predicted. Sensitivity reruns the check with each fitted or guessed
// parameter halved and doubled and lists the rows whose verdict flips.

// CrossAxis is a fitted parameter and the values a refit chooses among,
// each in Config.Set's spelling.
type CrossAxis struct {
	Name   string
	Values []string
}

// CrossOptions say how CrossValidate runs.
type CrossOptions struct {
	// FidelityOptions are those of every check; their Progress is not
	// called. Base is the configuration of the in-sample check and the
	// one every grid point starts from.
	FidelityOptions
	// Axes are the fitted parameters and their candidates; nil means one
	// axis per fitted ParamProvenances entry, over its Cross values. The
	// grid is their product.
	Axes []CrossAxis
	// Progress, if not nil, is called after each simulation with the
	// check under way (1-based), the number of checks, and that check's
	// simulations done and total.
	Progress func(check, checks, done, total int)
}

// CrossReport is what CrossValidate found.
type CrossReport struct {
	// InSample is the check at Base: the verdicts the defaults were
	// fitted to give.
	InSample *FidelityReport
	// Axes and Points are the grid: Points[p][a] is axis a's value at
	// point p, and Reports[p] the check there.
	Axes    []CrossAxis
	Points  [][]string
	Reports []*FidelityReport
	// Groups are the row groups in the order of RowGroups (those with a
	// row).
	Groups []CrossGroup
}

// CrossGroup is one held-out group: its rows, the refit on the other
// groups and the held-out verdicts.
type CrossGroup struct {
	RowGroup
	// Rows are the indexes of its rows in the reports' Rows.
	Rows []int
	// Fits are the grid points where the most rows of the other groups
	// pass; Trained is how many pass there, of Training.
	Fits              []int
	Trained, Training int
	// FitsPassing[i] is how many of the fits pass row Rows[i].
	FitsPassing []int
}

// InSample reports whether every row of the group passes at the defaults.
func (g *CrossGroup) InSample(rep *CrossReport) bool {
	for _, r := range g.Rows {
		if !rep.InSample.Rows[r].Pass {
			return false
		}
	}
	return true
}

// HeldOut reports whether every row of the group passes at every refit.
func (g *CrossGroup) HeldOut() bool {
	for _, n := range g.FitsPassing {
		if n < len(g.Fits) {
			return false
		}
	}
	return true
}

// ParseCrossAxis reads an axis written name=v1,v2,... (the --fit flag of
// ccsweep validate --cross). It does not check the values: CrossValidate
// does, as it sets them.
func ParseCrossAxis(s string) (CrossAxis, error) {
	name, values, ok := strings.Cut(s, "=")
	if !ok || name == "" || values == "" {
		return CrossAxis{}, fmt.Errorf("%q: want name=value[,value...]", s)
	}
	if params.LookupParam(name) == nil {
		return CrossAxis{}, fmt.Errorf("%q: unknown parameter %q", s, name)
	}
	return CrossAxis{Name: name, Values: strings.Split(values, ",")}, nil
}

// DefaultCrossAxes returns one axis per fitted parameter, over its Cross
// values.
func DefaultCrossAxes() []CrossAxis {
	var axes []CrossAxis
	for _, p := range ParamProvenances {
		if p.Kind == Fitted {
			axes = append(axes, CrossAxis{p.Name, p.Cross})
		}
	}
	return axes
}

// CrossValidate runs the check at Base and at every point of the grid, and
// refits and predicts each group of rows. A grid point equal to Base is
// run once. It returns early with ctx's error, the first simulation's
// error, or a *ParamError for a value an axis cannot take.
func CrossValidate(ctx context.Context, opt CrossOptions) (*CrossReport, error) {
	base := params.DefaultConfig()
	if opt.Base != nil {
		base = *opt.Base
	}
	axes := opt.Axes
	if axes == nil {
		axes = DefaultCrossAxes()
	}
	rep := &CrossReport{Axes: axes, Points: gridPoints(axes)}
	cfgs := make([]params.Config, len(rep.Points))
	baseKey := make([]string, len(axes))
	for a, ax := range axes {
		if params.LookupParam(ax.Name) == nil {
			return nil, fmt.Errorf("%w %q", params.ErrUnknownParam, ax.Name)
		}
		baseKey[a] = base.Canonical(ax.Name)
	}
	// Each distinct configuration is checked once: the base first.
	keys := []string{strings.Join(baseKey, "\x00")}
	index := make([]int, len(rep.Points)) // point -> position in keys
	for p, pt := range rep.Points {
		cfgs[p] = base
		key := make([]string, len(axes))
		for a, v := range pt {
			if err := cfgs[p].Set(axes[a].Name, v); err != nil {
				return nil, err
			}
			key[a] = cfgs[p].Canonical(axes[a].Name)
		}
		k := strings.Join(key, "\x00")
		index[p] = len(keys)
		for i, have := range keys {
			if have == k {
				index[p] = i
			}
		}
		if index[p] == len(keys) {
			keys = append(keys, k)
		}
	}
	reports := make([]*FidelityReport, len(keys))
	run := func(i int, cfg params.Config) error {
		o := opt.FidelityOptions
		o.Base = &cfg
		o.Progress = nil
		if opt.Progress != nil {
			o.Progress = func(done, total int) { opt.Progress(i+1, len(keys), done, total) }
		}
		r, err := CheckFidelity(ctx, o)
		reports[i] = r
		return err
	}
	if err := run(0, base); err != nil {
		return nil, err
	}
	for p := range rep.Points {
		if i := index[p]; reports[i] == nil {
			if err := run(i, cfgs[p]); err != nil {
				return nil, err
			}
		}
	}
	rep.InSample = reports[0]
	for p := range rep.Points {
		rep.Reports = append(rep.Reports, reports[index[p]])
	}

	pass := make([][]bool, len(rep.Reports))
	for p, r := range rep.Reports {
		for _, row := range r.Rows {
			pass[p] = append(pass[p], row.Pass)
		}
	}
	var groupOfRow []string
	for _, row := range rep.InSample.Rows {
		groupOfRow = append(groupOfRow, row.Group)
	}
	for _, g := range RowGroups {
		cg := CrossGroup{RowGroup: g}
		for r, name := range groupOfRow {
			if name == g.Name {
				cg.Rows = append(cg.Rows, r)
			}
		}
		if len(cg.Rows) == 0 {
			continue
		}
		cg.Fits, cg.Trained, cg.Training = refit(groupOfRow, pass, g.Name)
		for _, r := range cg.Rows {
			n := 0
			for _, p := range cg.Fits {
				if pass[p][r] {
					n++
				}
			}
			cg.FitsPassing = append(cg.FitsPassing, n)
		}
		rep.Groups = append(rep.Groups, cg)
	}
	return rep, nil
}

// refit returns the points (indexes of pass, [point][row]) where the most
// rows outside group held pass, that number, and the number of rows
// outside held.
func refit(groupOfRow []string, pass [][]bool, held string) (fits []int, trained, training int) {
	for _, g := range groupOfRow {
		if g != held {
			training++
		}
	}
	trained = -1
	for p := range pass {
		n := 0
		for r, g := range groupOfRow {
			if g != held && pass[p][r] {
				n++
			}
		}
		switch {
		case n > trained:
			fits, trained = []int{p}, n
		case n == trained:
			fits = append(fits, p)
		}
	}
	return fits, trained, training
}

// gridPoints returns the product of the axes' values, the first axis
// slowest.
func gridPoints(axes []CrossAxis) [][]string {
	points := [][]string{{}}
	for _, ax := range axes {
		var next [][]string
		for _, p := range points {
			for _, v := range ax.Values {
				next = append(next, append(p[:len(p):len(p)], v))
			}
		}
		points = next
	}
	return points
}

// SensitivityOptions say how Sensitivity runs.
type SensitivityOptions struct {
	// FidelityOptions are those of every check; their Progress is not
	// called.
	FidelityOptions
	// Params are the parameters to halve and double; nil means every
	// ParamProvenances entry.
	Params []string
	// Progress, if not nil, is called after each simulation with the
	// check under way (1-based), the number of checks, and that check's
	// simulations done and total.
	Progress func(check, checks, done, total int)
}

// SensitivityReport is what Sensitivity found.
type SensitivityReport struct {
	// Base is the check at the base configuration.
	Base   *FidelityReport
	Params []SensitivityParam
}

// SensitivityParam is one parameter halved and doubled.
type SensitivityParam struct {
	Name                  string
	Default, Half, Double string
	// HalfReport and DoubleReport are the checks; HalfFlips and
	// DoubleFlips the indexes of the rows whose verdict differs from
	// Base's.
	HalfReport, DoubleReport *FidelityReport
	HalfFlips, DoubleFlips   []int
}

// Sensitivity runs the check at the base configuration and with each
// parameter halved and doubled (integers rounded down), and lists the rows
// whose verdict flips. A parameter that is not a number is an error.
func Sensitivity(ctx context.Context, opt SensitivityOptions) (*SensitivityReport, error) {
	base := params.DefaultConfig()
	if opt.Base != nil {
		base = *opt.Base
	}
	names := opt.Params
	if names == nil {
		for _, p := range ParamProvenances {
			names = append(names, p.Name)
		}
	}
	type variant struct {
		cfg  params.Config
		into **FidelityReport
	}
	rep := &SensitivityReport{Params: make([]SensitivityParam, len(names))}
	variants := []variant{{base, &rep.Base}}
	for i, name := range names {
		sp := &rep.Params[i]
		sp.Name = name
		p := params.LookupParam(name)
		if p == nil {
			return nil, fmt.Errorf("%w %q", params.ErrUnknownParam, name)
		}
		sp.Default = base.Canonical(name)
		for _, f := range []struct {
			factor float64
			value  *string
			into   **FidelityReport
		}{{0.5, &sp.Half, &sp.HalfReport}, {2, &sp.Double, &sp.DoubleReport}} {
			v, err := scaled(p, base.Get(name), f.factor)
			if err != nil {
				return nil, err
			}
			c := base
			if err := c.Set(name, v); err != nil {
				return nil, err
			}
			if err := c.Validate(); err != nil {
				return nil, err
			}
			*f.value = c.Canonical(name)
			variants = append(variants, variant{c, f.into})
		}
	}
	for i, v := range variants {
		o := opt.FidelityOptions
		o.Base = &v.cfg
		o.Progress = nil
		if opt.Progress != nil {
			o.Progress = func(done, total int) { opt.Progress(i+1, len(variants), done, total) }
		}
		r, err := CheckFidelity(ctx, o)
		if err != nil {
			return nil, err
		}
		*v.into = r
	}
	for i := range rep.Params {
		sp := &rep.Params[i]
		sp.HalfFlips, sp.DoubleFlips = flips(rep.Base, sp.HalfReport), flips(rep.Base, sp.DoubleReport)
	}
	return rep, nil
}

// scaled returns v (a value of p) times factor.
func scaled(p *params.Param, v any, factor float64) (any, error) {
	switch x := v.(type) {
	case int:
		return int(float64(x) * factor), nil
	case float64:
		return x * factor, nil
	case engine.Time:
		return engine.Time(float64(x) * factor), nil
	}
	return nil, &params.ParamError{Name: p.Name, Value: v, Reason: "not a number: it cannot be halved or doubled"}
}

// flips returns the indexes of the rows whose verdict differs between a
// and b.
func flips(a, b *FidelityReport) []int {
	var idx []int
	for i := range a.Rows {
		if a.Rows[i].Pass != b.Rows[i].Pass {
			idx = append(idx, i)
		}
	}
	return idx
}
