package fidelity

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/params"
)

// validate --cross prints a physical bound as the quantity it is, with its
// citation and the limit it sets, and a row bound as the row and the value
// where it fails (ParamBound.String); a physical quantity is none of the
// rows a value was fitted on.
func TestProvenanceTablePrintsPhysicalBoundsAsQuantities(t *testing.T) {
	def := params.DefaultConfig()
	var buf bytes.Buffer
	writeProvenance(&buf, &def)
	physical := 0
	for _, p := range ParamProvenances {
		var line string
		for _, l := range strings.Split(buf.String(), "\n") {
			if strings.HasPrefix(l, "| `"+p.Name+"` |") {
				line = l
			}
		}
		if line == "" {
			t.Fatalf("no line for %s:\n%s", p.Name, buf.String())
		}
		for _, b := range p.Bounds {
			side := map[bool]string{true: "below", false: "above"}[b.Below]
			want := b.Row + " (from " + side + "; fails at " + b.Fails + ")"
			if b.Physical != "" {
				physical++
				limit := map[bool]string{true: "at least", false: "at most"}[b.Below]
				want = b.Physical + " (physical, from " + side + ": " + limit + " " + b.Fails + ")"
				if strings.Contains(line, "; fails at "+b.Fails+")") {
					t.Errorf("%s: the physical bound %s is printed as a row that fails there: %s", p.Name, b.Fails, line)
				}
			}
			if !strings.Contains(line, want) {
				t.Errorf("%s: line lacks %q:\n%s", p.Name, want, line)
			}
		}
		for _, r := range p.Rows() {
			if r == "" || !strings.Contains(r, ": ") {
				t.Errorf("%s: fitted on %q, not a row", p.Name, r)
			}
		}
	}
	if physical == 0 {
		t.Error("no physical bound: paced_read_latency has one (a PCIe read's latency)")
	}
}

// docs/fidelity.md's table of fitted and guessed parameters is the one
// `validate --cross` prints first, line for line ("validate --cross prints
// this table first"): a guessed parameter's bounds, allows and refit
// columns are "—".
func TestMutProvenanceTableIsTheDocs(t *testing.T) {
	def := params.DefaultConfig()
	var buf bytes.Buffer
	writeProvenance(&buf, &def)
	doc, err := os.ReadFile("../../docs/fidelity.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2+len(ParamProvenances) {
		t.Fatalf("%d lines for %d parameters:\n%s", len(lines), len(ParamProvenances), buf.String())
	}
	for _, l := range lines {
		if !strings.Contains(string(doc), "\n"+l+"\n") {
			t.Errorf("docs/fidelity.md lacks the line\n%s", l)
		}
	}
	guessed := 0
	for _, p := range ParamProvenances {
		if p.Kind == Guessed {
			guessed++
			if want := "| — | — | — |"; !strings.Contains(buf.String(), "| `"+p.Name+"` | "+def.Canonical(p.Name)+" | guessed "+want) {
				t.Errorf("%s: the guessed parameter's columns are not %q:\n%s", p.Name, want, buf.String())
			}
		}
	}
	if guessed == 0 {
		t.Error("no guessed parameter")
	}
}
