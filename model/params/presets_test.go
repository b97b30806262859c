package params_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/model/params"
)

// presetDocumented are the values each preset must give, typed here from
// the source documents (docs/presets.md quotes them), not from presets.go.
// Fields a source does not define are the model's defaults (the testbed's).
var presetDocumented = map[string]map[string]string{
	// The reference testbed: SPEC §3's table (Threshold 15, Marking_Rate 1,
	// Packet_Size 8, CCTI_Increase 1, CCTI_Limit 127, CCTI_Min 0,
	// CCTI_Timer 150 µs) and SPEC §2's CCT 7·i²/106² µs.
	"table1": {
		"threshold": "15", "marking_rate": "1", "packet_size": "8", "victim_mask": "host",
		"ccti_increase": "1", "ccti_limit": "127", "ccti_min": "0", "ccti_timer": "150us", "cc_level": "qp",
		"cct": "quadratic", "cct_denominator": "106", "cct_max_delay": "8.3us",
	},
	// Mellanox OFED for Linux User Manual Rev 2.2-1.0.1 §8.9.4.1, Table 26
	// (switch): threshold Default 0xf, marking_rate Default 0xa,
	// packet_size Default 0x200 [bytes] = 512/64 = 8 credits; Table 27
	// (CA): port_control Default 0 (QP based), ccti_increase Default 1,
	// ccti_min Default 0; ccti_timer and cct Default 0, "the CCT
	// calculation is based on the number of nodes": not given, so the
	// testbed's stay, as do ccti_limit and the victim mask (not listed).
	"ccmgr": {
		"threshold": "15", "marking_rate": "10", "packet_size": "8", "victim_mask": "host",
		"ccti_increase": "1", "ccti_limit": "127", "ccti_min": "0", "ccti_timer": "150us", "cc_level": "qp",
		"cct": "quadratic", "cct_denominator": "106", "cct_max_delay": "8.3us",
	},
	// cornelisnetworks/opa-fm, Esm/ib/src/linux/startup/opafm_src.xml
	// <CongestionControl>: Switch Threshold 8, PacketSize 0, MarkingRate 0,
	// VictimMarkingEnable 1 (stl_cca.c sets it on every port: "all"); Fi
	// Increase 5, Timer 10 (x 1.024 us = 10.24 us), Min 0, Limit 127,
	// DesiredMaxDelay 8300 ns, reached by the linear CCT at Limit
	// (stl_cca.c: multiplier i·max/Limit); Basis not set, fm_xml.c's
	// default sl_based 0 is QP based.
	"opa": {
		"threshold": "8", "marking_rate": "0", "packet_size": "0", "victim_mask": "all",
		"ccti_increase": "5", "ccti_limit": "127", "ccti_min": "0", "ccti_timer": "10.24us", "cc_level": "qp",
		"cct": "linear", "cct_denominator": "106", "cct_max_delay": "8.3us",
	},
}

func TestPresetsGiveTheirDocumentedValues(t *testing.T) {
	if got := params.PresetNames(); strings.Join(got, ",") != "table1,ccmgr,opa" {
		t.Fatalf("presets %v, want table1, ccmgr, opa", got)
	}
	for name, want := range presetDocumented {
		t.Run(name, func(t *testing.T) {
			if len(want) != len(params.PresetFields()) {
				t.Fatalf("the test lists %d fields, presets set %d: %v", len(want), len(params.PresetFields()), params.PresetFields())
			}
			c := params.DefaultConfig()
			if err := c.Set("preset", name); err != nil {
				t.Fatal(err)
			}
			for field, v := range want {
				if got := c.Canonical(field); got != v {
					t.Errorf("%s = %s, want %s", field, got, v)
				}
			}
			if c.Canonical("preset") != name {
				t.Errorf("preset reads back as %q", c.Canonical("preset"))
			}
			if err := c.Validate(); err != nil {
				t.Errorf("the preset's config is invalid: %v", err)
			}
		})
	}
}

// TestEveryPresetValueCitesASource: docs/presets.md is built from the same
// citations; a value without one would be an invented number.
func TestEveryPresetValueCitesASource(t *testing.T) {
	for _, p := range params.Presets() {
		for _, v := range p.Values {
			if len(v.Source) < 20 {
				t.Errorf("%s: %s = %s has no source", p.Name, v.Name, v.Value)
			}
			if documented := presetDocumented[p.Name][v.Name]; documented != v.Value {
				t.Errorf("%s: %s = %s, the document says %s", p.Name, v.Name, v.Value, documented)
			}
		}
	}
}

// TestDefaultPresetChangesNothing: the default config is Table I, so
// selecting table1 leaves every parameter as it was (which is why the
// default preset adds nothing to a point's identity).
func TestDefaultPresetChangesNothing(t *testing.T) {
	def := params.DefaultConfig()
	if def.Canonical("preset") != params.DefaultPreset || params.DefaultPreset != "table1" {
		t.Fatalf("default preset %q", def.Canonical("preset"))
	}
	c := params.DefaultConfig()
	if err := c.Set("preset", "table1"); err != nil {
		t.Fatal(err)
	}
	for _, name := range params.ParamNames() {
		if c.Canonical(name) != def.Canonical(name) {
			t.Errorf("%s: %s after preset table1, default %s", name, c.Canonical(name), def.Canonical(name))
		}
	}
}

// TestParamsSetByNameOverrideAPresetInEitherOrder: grids apply a point's
// parameters in name order (ccti_increase before preset before threshold),
// so the preset must not overwrite a field set by name before it.
func TestParamsSetByNameOverrideAPresetInEitherOrder(t *testing.T) {
	orders := map[string][][2]string{
		"preset first": {{"preset", "opa"}, {"ccti_increase", "2"}, {"cct", "quadratic"}},
		"preset last":  {{"ccti_increase", "2"}, {"cct", "quadratic"}, {"preset", "opa"}},
	}
	for name, sets := range orders {
		t.Run(name, func(t *testing.T) {
			c := params.DefaultConfig()
			for _, kv := range sets {
				if err := c.Set(kv[0], kv[1]); err != nil {
					t.Fatal(err)
				}
			}
			want := map[string]string{"ccti_increase": "2", "cct": "quadratic", // set by name
				"threshold": "8", "ccti_timer": "10.24us", "victim_mask": "all", "preset": "opa"} // opa's
			for field, v := range want {
				if got := c.Canonical(field); got != v {
					t.Errorf("%s = %s, want %s", field, got, v)
				}
			}
		})
	}
}

// TestALaterPresetReplacesAnEarlierOne: a preset sets every preset field,
// so nothing of an earlier one survives.
func TestALaterPresetReplacesAnEarlierOne(t *testing.T) {
	c := params.DefaultConfig()
	for _, p := range []string{"opa", "ccmgr"} {
		if err := c.Set("preset", p); err != nil {
			t.Fatal(err)
		}
	}
	for field, v := range presetDocumented["ccmgr"] {
		if got := c.Canonical(field); got != v {
			t.Errorf("%s = %s after opa then ccmgr, want ccmgr's %s", field, got, v)
		}
	}
}

func TestBadPresetAndCCTValuesNameTheKey(t *testing.T) {
	cases := []struct{ name, value, reason string }{
		{"preset", "mellanox", "want one of table1, ccmgr, opa"},
		{"cct", "cubic", "want quadratic, linear, or table:"},
		{"cct", "table:", "at least one entry"},
		{"cct", "table:1us,0", `entry 1 "0": below entry 0 (1us)`},
		{"cct", "table:0,5", `entry 1 "5": not a duration`},
		{"cct", "table:0,2s", `entry 1 "2s": longer than 1s`},
		{"cct", "table:" + strings.Repeat("1us,", 16384) + "1us", "16385 entries"},
		{"cct_max_delay", "2s", "out of range"},
	}
	for _, tc := range cases {
		c := params.DefaultConfig()
		err := c.Set(tc.name, tc.value)
		var pe *params.ParamError
		if !errors.As(err, &pe) || pe.Name != tc.name || !strings.Contains(pe.Reason, tc.reason) {
			t.Errorf("%s = %.40s: error %v, want a ParamError on %s saying %q", tc.name, tc.value, err, tc.name, tc.reason)
		}
	}
	// Spellings a table normalizes.
	c := params.DefaultConfig()
	if err := c.Set("cct", " table: 0, 1us ,2500ns,2.5us"); err != nil {
		t.Fatal(err)
	}
	if got := c.Canonical("cct"); got != "table:0s,1us,2.5us,2.5us" {
		t.Errorf("canonical %q", got)
	}
}
