package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fidelity"
	"github.com/ccsweep/ccsweep/model/params"
)

func TestValidateBadInputExitsTwoAndPrintsNothing(t *testing.T) {
	cases := map[string][]string{
		"argument":         {"validate", "extra"},
		"phase no unit":    {"validate", "--phase", "5"},
		"phase zero":       {"validate", "--phase", "0s"},
		"jobs":             {"validate", "-j", "0"},
		"cc is validate's": {"validate", "--set", "cc=off"},
		"phase twice":      {"validate", "--set", "phase=1s"},
		"unknown key":      {"validate", "--set", "nope=1"},
		"bad value":        {"validate", "--set", "becn_return=maybe"},
		"not key=value":    {"validate", "--set", "becn_return"},
		"bad relation":     {"validate", "--set", "ccti_min=200"},
		"cross and sens":   {"validate", "--cross", "--sensitivity"},
		"fit alone":        {"validate", "--fit", "paced_read_latency=1us"},
		"param alone":      {"validate", "--param", "prop_delay"},
		"fit unknown":      {"validate", "--cross", "--fit", "nope=1"},
		"fit no values":    {"validate", "--cross", "--fit", "paced_read_latency"},
		"fit bad value":    {"validate", "--cross", "--fit", "paced_read_latency=2us,fast"},
		"param unknown":    {"validate", "--sensitivity", "--param", "nope"},
		"param a word":     {"validate", "--sensitivity", "--param", "becn_return"},
		// Another scheme's parameter does nothing in validate's runs (cc
		// off and ib); a short phase keeps a run short if it is not refused.
		"santos param":  {"validate", "--phase", "10ms", "--set", "santos.m=3"},
		"nicrate param": {"validate", "--phase", "10ms", "--set", "nicrate.rates=4"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := ccsweep(t, args...)
			if code != 2 || out != "" || strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ccsweep: ") {
				t.Errorf("exit %d, stdout %q, stderr %q: want exit 2, one line on stderr, nothing on stdout", code, out, stderr)
			}
		})
	}
}

// validate prints one table row per check and a summary, and its exit
// status says whether every row passed. At 20 ms phases, without the paced
// read (paced_read_latency=0s), claim 6 (two contributors reach only about
// 11 of H5's 13 Gbit/s) must fail (12.78); with the ib-1 transport (a CNP
// per FECN as well) claim 6 passes at 20 ms (12.08) and claim 1's
// short-timer band must fail.
func TestValidatePrintsTheTableAndItsVerdict(t *testing.T) {
	for _, c := range []struct {
		name     string
		args     []string
		mustFail string
	}{
		{"defaults", nil, ""},
		{"no paced read", []string{"--set", "paced_read_latency=0s"}, "| claim 6 | figure | F2 + F3"},
		{"ib-1 transport", []string{"--set", "becn_return=cnp", "--set", "paced_read_latency=0s"}, "| claim 1 | figure |"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, stderr, code := ccsweep(t, append([]string{"validate", "--phase", "20ms", "-j", "2", "--quiet"}, c.args...)...)
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) < 25 || lines[0] != "| source | kind | compared | model | published | measure | verdict |" {
				t.Fatalf("exit %d, output:\n%s%s", code, out, stderr)
			}
			rows, failed := 0, 0
			for _, l := range lines[2:] {
				if !strings.HasPrefix(l, "| ") {
					continue
				}
				rows++
				if strings.HasSuffix(l, "| **FAIL** |") {
					failed++
					if c.mustFail != "" && strings.HasPrefix(l, c.mustFail) {
						c.mustFail = ""
					}
				} else if !strings.HasSuffix(l, "| pass |") {
					t.Errorf("row without a verdict: %s", l)
				}
			}
			summary := fmt.Sprintf("%d of %d rows pass (testbed-s1 and testbed-s2, phase 20ms, model %s", rows-failed, rows, model.Version)
			if rows != 22 || !strings.Contains(out, summary) {
				t.Errorf("%d rows; output:\n%s", rows, out)
			}
			if c.mustFail != "" {
				t.Errorf("no failing row starts with %q:\n%s", c.mustFail, out)
			}
			switch {
			case failed == 0 && (code != 0 || stderr != ""):
				t.Errorf("every row passed but exit %d, stderr %q", code, stderr)
			case failed > 0 && (code != 1 || !strings.Contains(stderr, fmt.Sprintf("validate: %d of %d rows fail", failed, rows))):
				t.Errorf("%d rows failed but exit %d, stderr %q", failed, code, stderr)
			}
		})
	}
}

// validate --cross prints the fitted and guessed parameters, then each
// group's in-sample and held-out verdicts. Refitted over a grid holding only
// a wrong read latency (0s: no paced reads), claim 6's group, which passes
// in sample, must fail held out, in bold, and the exit status must say so.
func TestValidateCrossPrintsBothVerdicts(t *testing.T) {
	out, stderr, code := ccsweep(t, "validate", "--cross", "--fit", "paced_read_latency=0s", "--phase", "20ms", "-j", "2", "--quiet")
	def := params.DefaultConfig()
	for _, p := range fidelity.ParamProvenances {
		if !strings.Contains(out, fmt.Sprintf("| `%s` | %s | %s |", p.Name, def.Canonical(p.Name), p.Kind)) {
			t.Errorf("no provenance row for %s", p.Name)
		}
	}
	groups := 0
	for _, l := range strings.Split(out, "\n") {
		for _, g := range fidelity.RowGroups {
			if strings.HasPrefix(l, "| "+g.Name+" | "+g.Kind+" | ") {
				groups++
				claim6 := g.Name == "[002] OMNeT++ validation"
				if claim6 && (!strings.Contains(l, " | 2 | pass | ") || !strings.Contains(l, "paced_read_latency=0s | **FAIL** (claim 6")) {
					t.Errorf("claim 6's group: %s", l)
				}
			}
		}
	}
	if groups != len(fidelity.RowGroups) {
		t.Errorf("%d group rows, want %d:\n%s", groups, len(fidelity.RowGroups), out)
	}
	if code != 1 || !strings.Contains(stderr, "validate --cross: ") || !strings.Contains(out, "| paced_read_latency=0s | ") {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, stderr, out)
	}
}
