package fidelity_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fidelity"
	"github.com/ccsweep/ccsweep/model/params"
)

// validate --sensitivity prints, per parameter, its provenance, the halved
// and doubled values and the rows whose verdict differs from the defaults',
// each with its direction (pass → **FAIL**, FAIL → pass), "none" when no
// verdict flips, then how many rows pass at the defaults and how many
// checks ran (1 + 2 per parameter): docs/fidelity.md, "Sensitivity".
func TestSensitivityMarkdownNamesEachFlipAndItsDirection(t *testing.T) {
	row := func(source, item string, pass bool) fidelity.FidelityRow {
		return fidelity.FidelityRow{Source: source, Item: item, Pass: pass}
	}
	cfg := params.DefaultConfig()
	cfg.Phase = 100 * engine.Millisecond
	base := &fidelity.FidelityReport{Config: cfg, Rows: []fidelity.FidelityRow{
		row("claim 1", "victim", true), row("claim 5", "threshold 15", false), row("claim 6", "F2 + F3", true)}}
	half := &fidelity.FidelityReport{Rows: []fidelity.FidelityRow{
		row("claim 1", "victim", true), row("claim 5", "threshold 15", true), row("claim 6", "F2 + F3", false)}}
	double := &fidelity.FidelityReport{Rows: base.Rows}
	rep := &fidelity.SensitivityReport{Base: base, Params: []fidelity.SensitivityParam{
		{Name: "paced_read_latency", Default: "2.5us", Half: "1.25us", Double: "5us",
			HalfReport: half, HalfFlips: []int{1, 2}, DoubleReport: double},
		{Name: "host_io_gbps", Default: "13", Half: "6.5", Double: "26", HalfReport: base, DoubleReport: base},
	}}
	var buf bytes.Buffer
	rep.WriteMarkdown(&buf, []string{"arbitration=fit"}, 90*time.Second)
	out := buf.String()
	for _, want := range []string{
		"| `paced_read_latency` | fitted | 2.5us | 1.25us | claim 5: threshold 15 (FAIL → pass); claim 6: F2 + F3 (pass → **FAIL**) | 5us | none |",
		"| `host_io_gbps` | published | 13 | 6.5 | none | 26 | none |",
		"At the defaults 2 of 3 rows pass (testbed-s1 and testbed-s2, phase 100ms, model " + model.Version + ", with arbitration=fit; 5 checks in 1m30s)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
