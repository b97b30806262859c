package fidelity

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/params"
)

// Failed counts the rows that fail.
func (rep *FidelityReport) Failed() int {
	n := 0
	for _, r := range rep.Rows {
		if !r.Pass {
			n++
		}
	}
	return n
}

// WriteMarkdown prints rep as `ccsweep validate` does: a Markdown table,
// a row per check naming its source and how precise that source is (its
// group's kind: a table, or a reading of a figure), and a summary line naming sets (the --set flags the
// runs had) and took (their wall time).
func (rep *FidelityReport) WriteMarkdown(w io.Writer, sets []string, took time.Duration) {
	fmt.Fprintln(w, "| source | kind | compared | model | published | measure | verdict |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rep.Rows {
		verdict := "pass"
		if !r.Pass {
			verdict = "**FAIL**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", r.Source, r.Kind, r.Item, r.Model, r.Published, r.Measure, verdict)
	}
	with := ""
	if len(sets) > 0 {
		with = ", with " + strings.Join(sets, ", ")
	}
	fmt.Fprintf(w, "\n%d of %d rows pass (testbed-s1 and testbed-s2, phase %v, model %s%s; %d simulations in %v)\n",
		len(rep.Rows)-rep.Failed(), len(rep.Rows), rep.Config.Phase, model.Version, with,
		rep.Simulations(), took.Round(time.Second))
}

// writeProvenance prints the fitted and guessed parameters as a Markdown
// table.
func writeProvenance(w io.Writer, cfg *params.Config) {
	fmt.Fprintln(w, "| parameter | value | provenance | bounded by | allows | refit over (--cross) | why |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, p := range ParamProvenances {
		on, allows, over := "—", "—", "—"
		if len(p.Bounds) > 0 {
			var bounds []string
			for _, b := range p.Bounds {
				bounds = append(bounds, b.String())
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

// WriteMarkdown prints rep as `ccsweep validate --cross` does: the
// provenance table, the in-sample and held-out verdict of each group and
// the grid's points, then a summary line naming sets and took; it returns
// the number of groups that fail in sample or held out.
func (rep *CrossReport) WriteMarkdown(w io.Writer, sets []string, took time.Duration) int {
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

func allRows(rep *FidelityReport) []int {
	idx := make([]int, len(rep.Rows))
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// rowList names the rows of idx that keep accepts.
func rowList(rep *FidelityReport, idx []int, keep func(int) bool) string {
	var names []string
	for _, r := range idx {
		if keep(r) {
			names = append(names, rep.Rows[r].Source+": "+rep.Rows[r].Item)
		}
	}
	return strings.Join(names, "; ")
}

// WriteMarkdown prints rep as `ccsweep validate --sensitivity` does: per
// parameter, the rows whose verdict flips when it is halved and when it is
// doubled, then a summary line naming sets and took.
func (rep *SensitivityReport) WriteMarkdown(w io.Writer, sets []string, took time.Duration) {
	fmt.Fprintln(w, "| parameter | provenance | default | halved | verdicts that flip | doubled | verdicts that flip |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	flipped := func(r *FidelityReport, idx []int) string {
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
		if pp := LookupProvenance(p.Name); pp != nil {
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
		len(rep.Base.Rows)-rep.Base.Failed(), len(rep.Base.Rows), rep.Base.Config.Phase, model.Version, with,
		1+2*len(rep.Params), took.Round(time.Second))
}
