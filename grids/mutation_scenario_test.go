package grids_test

import (
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/grids"
)

// TestGridChecksSamplesAtTheLongestPhaseAndShortestSample checks what a
// grid refuses at load for its scenario (grids' checkScenarios): a run
// keeps at most 10 M samples (model.MaxSamples; docs/sweeps.md, "over 10 M
// samples"), checked at the longest phase and the shortest sample the
// sub-grid sets, fixed or swept, and a victim_mask port the topology does
// not have, swept or fixed. testbed-s1 has 5 flows and 5 phases, so a run
// keeps about 25 × phase / sample samples: 5 M at 1 s and 5 us (accepted),
// 15 M at 3 s and 5 us, 12.5 M at 1 s and 2 us (refused, at the line that
// sets the sample, sweep.sample when it is swept).
func TestGridChecksSamplesAtTheLongestPhaseAndShortestSample(t *testing.T) {
	const head = "name = \"g\"\nscenario = \"testbed-s1\"\n"
	for _, tt := range []struct {
		body string
		bad  string // "" when accepted, else the line and words of the problem
	}{
		{"phase = \"1s\"\nsample = \"5us\"\n", ""},
		{"phase = \"3s\"\nsample = \"5us\"\n", "g.toml:4: sample: 5us: 5 flows sampled every 5us for 15s keep"},
		{"sample = \"5us\"\n[sweep]\nphase = [\"100ms\", \"1s\"]\n", ""},
		{"sample = \"5us\"\n[sweep]\nphase = [\"3s\", \"1s\"]\n", "g.toml:3: sample: 5us: 5 flows sampled every 5us for 15s"},
		{"phase = \"1s\"\n[sweep]\nsample = [\"5us\", \"10us\"]\n", ""},
		{"phase = \"1s\"\n[sweep]\nsample = [\"5us\", \"2us\", \"10us\"]\n", "g.toml:5: sweep.sample: 2us: 5 flows sampled every 2us for 5s keep 12500000 samples"},
		{"phase = \"1s\"\n[sweep]\nmarking_rate = [1, 2]\nsample = [\"5us\", \"2us\"]\n", "g.toml:6: sweep.sample: 2us:"},
		{"[sweep]\nmarking_rate = [1, 2]\nvictim_mask = [\"host\", \"S9:1\"]\n", "g.toml:5: sweep.victim_mask: S9:1: "},
		{"victim_mask = \"S9:1\"\n[sweep]\nmarking_rate = [1, 2]\n", "g.toml:3: victim_mask: S9:1: "},
		{"[sweep]\nmarking_rate = [1, 2]\nvictim_mask = [\"host\", \"none\"]\n", ""},
		// Phases all shorter than the default 1 s are checked at their own
		// length: 5 flows every 1us for 5 × 10ms keep 250 000 samples.
		{"phase = \"10ms\"\nsample = \"1us\"\n", ""},
		{"sample = \"1us\"\n[sweep]\nphase = [\"10ms\", \"20ms\"]\n", ""},
		{"sample = \"1us\"\n[sweep]\nphase = [\"10ms\", \"3s\"]\n", "g.toml:3: sample: 1us: 5 flows sampled every 1us for 15s"},
	} {
		_, err := grids.Parse("g.toml", []byte(head+tt.body))
		switch {
		case tt.bad == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.body, err)
		case tt.bad != "" && (err == nil || !strings.Contains(err.Error(), tt.bad)):
			t.Errorf("%s: error %v; want one containing %q", tt.body, err, tt.bad)
		}
	}
}

// TestWhereOfAnUnknownScenarioIsStillChecked checks that a grid naming a
// scenario ccsweep does not have gets its problems listed, its where
// expression compiled against the model's defaults, not a crash: the
// unknown scenario and the where's unknown name are both reported.
func TestWhereOfAnUnknownScenarioIsStillChecked(t *testing.T) {
	const src = "name = \"g\"\nscenario = \"no-such-scenario\"\nwhere = \"marking_rate > 1 && nosuchparam\"\n[sweep]\nmarking_rate = [1, 2]\n"
	_, err := grids.Parse("g.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "no-such-scenario") || !strings.Contains(err.Error(), "g.toml:3: where") {
		t.Errorf("error %v; want the unknown scenario and the where's unknown name at line 3", err)
	}
}
