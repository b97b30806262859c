package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model"
)

// ccsweep runs the command line in-process and returns stdout, stderr and the
// exit status.
func ccsweep(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"ccsweep"}, args...), &out, &errb)
	return out.String(), errb.String(), code
}

func TestSimCSVIsLongFormWithExactHeader(t *testing.T) {
	out, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s1", "--phase", "10ms", "--sample", "1ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if lines[0] != "time_s,flow,throughput_gbps" {
		t.Fatalf("header %q", lines[0])
	}
	// 5 phases of 10 ms sampled every 1 ms, 5 flows.
	if got, want := len(lines)-1, 50*5; got != want {
		t.Fatalf("%d rows, want %d", got, want)
	}
	if lines[1] != "0.001,F1,12.976128" && !strings.HasPrefix(lines[1], "0.001,F1,") {
		t.Fatalf("first row %q", lines[1])
	}
	last := strings.Split(lines[len(lines)-1], ",")
	if last[0] != "0.05" || last[1] != "F5" {
		t.Fatalf("last row %q, want time 0.05 for F5", lines[len(lines)-1])
	}
}

func TestSimOutputIsDeterministic(t *testing.T) {
	args := []string{"sim", "--scenario", "testbed-s1", "--phase", "5ms", "--cc", "on", "--set", "marking_mode=random", "--seed", "3"}
	a, _, _ := ccsweep(t, args...)
	b, _, _ := ccsweep(t, args...)
	if a != b || a == "" {
		t.Fatal("the same flags gave different output")
	}
}

func TestSimJSONHasParamsMetricsAndSeries(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.json")
	_, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s2", "--phase", "5ms", "--format", "json", "--out", path, "--set", "ccti_timer=300us")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc simJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Params["ccti_timer"] != "300us" || doc.Params["cc"] != "off" || doc.Scenario != "testbed-s2" {
		t.Errorf("params %v", doc.Params)
	}
	if len(doc.Flows) != 3 || len(doc.Flows[0].Gbps) != 15 {
		t.Fatalf("flows %d, samples %d", len(doc.Flows), len(doc.Flows[0].Gbps))
	}
	if doc.Metrics["contributors_gbps"] == nil || *doc.Metrics["contributors_gbps"] < 10 {
		t.Errorf("contributors_gbps %v", doc.Metrics["contributors_gbps"])
	}
	if doc.Metrics["victim_gbps"] != nil {
		t.Errorf("testbed-s2 has no victim, got victim_gbps %v", *doc.Metrics["victim_gbps"])
	}
}

func TestSimBadInputExitsTwoWithOneLine(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "never.csv")
	cases := map[string]struct {
		args []string
		want string
	}{
		"unknown scenario": {[]string{"--scenario", "nope"}, `unknown scenario "nope"`},
		"unknown key":      {[]string{"--scenario", "testbed-s1", "--set", "colour=red"}, `unknown parameter "colour"`},
		"out of range":     {[]string{"--scenario", "testbed-s1", "--set", "threshold=16"}, "threshold = 16: out of range"},
		"no unit":          {[]string{"--scenario", "testbed-s1", "--phase", "200"}, "phase = 200"},
		"malformed set":    {[]string{"--scenario", "testbed-s1", "--set", "threshold"}, "want key=value"},
		"bad cc":           {[]string{"--scenario", "testbed-s1", "--cc", "maybe"}, "--cc"},
		"bad format":       {[]string{"--scenario", "testbed-s1", "--format", "xml"}, "--format"},
		"unknown flag":     {[]string{"--scenario", "testbed-s1", "--bogus"}, "bogus"},
		"no scenario":      {[]string{}, "scenario"},
		"inconsistent":     {[]string{"--scenario", "testbed-s1", "--set", "ccti_min=9", "--set", "ccti_limit=3"}, "ccti_min"},
		"bad victim port":  {[]string{"--scenario", "testbed-s1", "--cc", "on", "--set", "victim_mask=S9:1"}, "victim_mask"},
		"set twice":        {[]string{"--scenario", "testbed-s1", "--set", "threshold=3", "--set", "threshold=5"}, "--set threshold=5: threshold is already set by --set threshold=3; give each parameter once"},
		"set beside flag":  {[]string{"--scenario", "testbed-s1", "--phase", "1ms", "--set", "phase=2ms"}, "--set phase=2ms: phase is already set by --phase; give each parameter once"},
		"cc beside flag":   {[]string{"--scenario", "testbed-s1", "--cc", "on", "--set", "cc=off"}, "cc is already set by --cc"},
		"1-byte messages":  {[]string{"--scenario", "testbed-s1", "--set", "message_size=1"}, "this run would take about 2e+11 events (2.4e+10 packets of 1 bytes), over the limit of 1e+10"},
		"over own limit":   {[]string{"--scenario", "testbed-s2", "--phase", "1ms", "--max-events", "1000"}, "over the limit of 1e+03: shorten the phase, send larger messages, set hca_msg_rate to the adapter's message rate, or raise the limit (--max-events)"},
		"negative limit":   {[]string{"--scenario", "testbed-s2", "--max-events", "-1"}, "--max-events -1: want 0 (no limit) or more"},
		"scheme param":     {[]string{"--scenario", "testbed-s1", "--cc", "ib", "--set", "santos.m=2"}, `--set: santos.m is a parameter of cc santos, but the run's cc is ib: select santos with cc = "santos" or leave santos.m out`},
		"drb param for ib": {[]string{"--scenario", "testbed-s1", "--cc", "ib", "--set", "drb.timer=50us"}, `--set: drb.timer is a parameter of cc drb, but the run's cc is ib: select drb with cc = "drb" or leave drb.timer out`},
		"drb timer unit":   {[]string{"--scenario", "testbed-s1", "--cc", "drb", "--set", "drb.timer=50"}, "drb.timer = 50: a duration needs a unit"},
		"surplus rates":    {[]string{"--scenario", "testbed-s1", "--cc", "nicrate", "--phase", "10ms", "--set", "nicrate.rates=1,2,3,4,5,6"}, "nicrate.rates lists 6 rates, but the run has 5 flows"},
		"too many samples": {[]string{"--scenario", "testbed-s1", "--sample", "1us"}, "keep 25000000 samples, more than the 10000000 a run may keep"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			args := append([]string{"sim", "--out", out}, c.args...)
			stdout, stderr, code := ccsweep(t, args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2 (stderr %q)", code, stderr)
			}
			if strings.Count(strings.TrimSpace(stderr), "\n") != 0 || !strings.Contains(stderr, c.want) {
				t.Fatalf("stderr %q: want one line containing %q", stderr, c.want)
			}
			if stdout != "" {
				t.Fatalf("stdout %q, want nothing", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Fatal("an output file was written")
			}
		})
	}
}

func TestVersionNamesModel(t *testing.T) {
	out, _, code := ccsweep(t, "--version")
	if code != 0 || !strings.Contains(out, "model ib-") || !strings.Contains(out, "commit") {
		t.Fatalf("--version: %q (exit %d)", out, code)
	}
}

func TestScenariosListsTheTestbed(t *testing.T) {
	out, _, code := ccsweep(t, "scenarios")
	if code != 0 || !strings.Contains(out, "testbed-s1") || !strings.Contains(out, "testbed-s2") || !strings.Contains(out, "H7->H5") {
		t.Fatalf("scenarios: %q (exit %d)", out, code)
	}
}

// TestSimSetTakesValuesWithCommas: --set values such as a victim_mask port
// list or a VL arbitration table hold commas and must reach the model whole.
func TestSimSetTakesValuesWithCommas(t *testing.T) {
	for _, set := range []string{"victim_mask=S1:4,S2:1", "vl_arb=0:64,1:192"} {
		t.Run(set, func(t *testing.T) {
			args := []string{"sim", "--scenario", "testbed-s1", "--cc", "on", "--phase", "1ms", "--format", "json", "--set", set}
			if strings.HasPrefix(set, "vl_arb") {
				args = append(args, "--set", "vls=2")
			}
			stdout, stderr, code := ccsweep(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			key, val, _ := strings.Cut(set, "=")
			if !strings.Contains(stdout, fmt.Sprintf("%q: %q", key, val)) {
				t.Errorf("the JSON's params lack %s = %s", key, val)
			}
		})
	}
}

// TestTestbedOutputUnchanged: sim's CSV for the built-in testbed scenarios
// is byte for byte what model ib-2 gives (testdata/sim), which ib-3 keeps
// (it changes only generated traffic's counts and file scenarios' lmc) and
// ib-4 keeps (it changes only updn's roots on fabrics without levels; the
// testbed is routed minhop); ib-5 rewrote the CC-on files (paced reads only
// for QPs whose IRD exceeds a packet's own time, and a 2.5 µs read; its
// updn changes do not touch the testbed) and left the CC-off files as
// they were; ib-6 rewrote testbed-s1's CC-on file (a switch output commits
// to the head it chose and waits for its credits: arbitration = "commit")
// and kept the three others (its imported fabrics' host rates, PCIe
// parameters and testbed-hpcc's two-loop rings do not touch them); ib-7
// keeps all four (it changes only ftree's ranking where compute nodes are
// given without roots), and so do ib-8 to ib-10 (minhop's and updn's paths
// where lmc > 0, where switches share a chassis, and where switches have
// different numbers of hosts; the testbed runs minhop at lmc 0 and its
// tables do not change), and so does ib-11 (updn's roots by OpenSM's rule;
// the testbed runs minhop).
// The CC-off files were written by the ccsweep of commit 7ef958b (model
// ib-1, before generated traffic, topologies and routing engines existed),
// which ib-2 leaves unchanged; the CC-on files by the ib-2 transport of
// issue 11 alone, before it was merged with them. A change of the model's
// behaviour must change model.Version, and this test with it; -update
// rewrites the files with the current model (the diff is what changed).
func TestTestbedOutputUnchanged(t *testing.T) {
	if model.Version != "ib-11" {
		t.Fatalf("model %s: regenerate testdata/sim with this model and update this test", model.Version)
	}
	for _, sc := range []string{"testbed-s1", "testbed-s2"} {
		for _, cc := range []string{"on", "off"} {
			t.Run(sc+" cc="+cc, func(t *testing.T) {
				path := filepath.Join("testdata", "sim", sc+"-cc"+cc+".csv")
				out, stderr, code := ccsweep(t, "sim", "--scenario", sc, "--cc", cc, "--phase", "20ms", "--quiet")
				if *update && code == 0 {
					if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if code != 0 || out != string(want) {
					t.Errorf("exit %d, %s; output differs from testdata (%d vs %d bytes)", code, stderr, len(out), len(want))
				}
			})
		}
	}
}

// TestSimReportsRefusedFlows checks that nicrate's refused flows are named
// on stderr and in the JSON, not silently dropped.
func TestSimReportsRefusedFlows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.json")
	_, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s1", "--cc", "nicrate", "--set", "nicrate.rates=13,8,8",
		"--phase", "2ms", "--format", "json", "--out", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "nicrate admission control refused F3: they never started") {
		t.Errorf("stderr %q does not name F3 as refused", stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Metrics map[string]*float64 `json:"metrics"`
		Flows   []struct {
			Name     string  `json:"name"`
			Admitted float64 `json:"admitted_gbps"`
			Refused  bool    `json:"refused"`
		} `json:"flows"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if !doc.Flows[2].Refused || doc.Flows[1].Admitted != 8 || doc.Flows[3].Admitted == 0 || *doc.Metrics["refused_flows"] != 1 {
		t.Errorf("flows %+v, refused_flows %v: want F3 refused (8 + 8 > H5's 13), F2 at 8, F4 admitted", doc.Flows, *doc.Metrics["refused_flows"])
	}
}

// TestSimHelpTagsSchemeParameters: the parameter list names the scheme
// each scheme parameter belongs to.
func TestSimHelpTagsSchemeParameters(t *testing.T) {
	out, _, code := ccsweep(t, "sim", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"santos.m", "[cc santos] multiplicative decrease", "[cc nicrate] rates flows request", "congestion-control scheme: off, ib"} {
		if !strings.Contains(out, want) {
			t.Errorf("sim --help lacks %q", want)
		}
	}
}

// TestSimJSONListsItsSchemesParameters: sim's JSON gives the parameters of
// the scheme it ran and none of another scheme's.
func TestSimJSONListsItsSchemesParameters(t *testing.T) {
	for _, cc := range []string{"ib", "santos"} {
		out, stderr, code := ccsweep(t, "sim", "--scenario", "testbed-s1", "--phase", "1ms", "--cc", cc, "--format", "json", "--quiet")
		if code != 0 {
			t.Fatalf("--cc %s: exit %d: %s", cc, code, stderr)
		}
		var doc struct{ Params map[string]string }
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		_, hasSantos := doc.Params["santos.m"]
		_, hasDRB := doc.Params["drb.timer"]
		if hasSantos != (cc == "santos") || hasDRB || doc.Params["threshold"] == "" {
			t.Errorf("--cc %s lists santos.m %v, drb.timer %v, threshold %q", cc, hasSantos, hasDRB, doc.Params["threshold"])
		}
	}
}
