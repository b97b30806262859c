package params_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/params"
)

func TestSetParsesAndChecksEveryKind(t *testing.T) {
	cases := []struct {
		name string
		val  any
		ok   bool
		want string
	}{
		{"ccti_timer", "300us", true, "300us"},
		{"ccti_timer", engine.Time(2 * engine.Millisecond), true, "2ms"},
		{"ccti_timer", "300", false, ""},
		{"ccti_timer", int64(300), false, ""},
		{"phase", "200ms", true, "200ms"},
		{"threshold", "15", true, "15"},
		{"threshold", int64(0), true, "0"},
		{"threshold", "16", false, ""},
		{"threshold", "-1", false, ""},
		{"threshold", "1.5", false, ""},
		{"marking_rate", int64(64), true, "64"},
		{"host_io_gbps", "12.5", true, "12.5"},
		{"host_io_gbps", int64(13), true, "13"},
		{"host_io_gbps", "0", true, "0"}, // 0: the host's link rate (hostio.go)
		{"host_io_gbps", "-1", false, ""},
		{"host_io_gbps", "fast", false, ""},
		{"cc", "on", true, "on"},
		{"cc", true, true, "on"},
		{"cc", "maybe", false, ""},
		{"cc_level", "sl", true, "sl"},
		{"cc_level", "port", false, ""},
		{"victim_mask", "off", true, "none"},
		{"victim_mask", "S2:2, S1:4", true, "S2:2,S1:4"},
		{"victim_mask", "S2", false, ""},
		{"mtu", int64(4096), true, "4096"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s=%v", c.name, c.val), func(t *testing.T) {
			cfg := params.DefaultConfig()
			err := cfg.Set(c.name, c.val)
			if c.ok != (err == nil) {
				t.Fatalf("Set(%s, %#v) error = %v, want ok=%v", c.name, c.val, err, c.ok)
			}
			if !c.ok {
				var pe *params.ParamError
				if !errors.As(err, &pe) || pe.Name != c.name {
					t.Errorf("Set(%s, %#v) error %v is not a ParamError naming the key", c.name, c.val, err)
				}
				return
			}
			if got := cfg.Canonical(c.name); got != c.want {
				t.Errorf("Set(%s, %#v): canonical %q, want %q", c.name, c.val, got, c.want)
			}
		})
	}
	cfg := params.DefaultConfig()
	if err := cfg.Set("no_such_knob", "1"); !errors.Is(err, params.ErrUnknownParam) {
		t.Errorf("unknown key: error %v", err)
	}
}

func TestValidateCatchesInconsistentParameters(t *testing.T) {
	bad := map[string]map[string]any{
		"mtu 3000":        {"mtu": int64(3000)},
		"buffer < packet": {"switch_buffer_credits": int64(32), "mtu": int64(2048)},
		"sample > phase":  {"sample": "2s", "phase": "1s"},
		"min above limit": {"ccti_min": int64(100), "ccti_limit": int64(50)},
	}
	for name, set := range bad {
		cfg := params.DefaultConfig()
		for k, v := range set {
			if err := cfg.Set(k, v); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if err := cfg.Validate(); err == nil {
			t.Errorf("%s: Validate accepted it", name)
		}
	}
	def := params.DefaultConfig()
	if err := def.Validate(); err != nil {
		t.Errorf("default config: %v", err)
	}
}

func TestEveryParamRoundTripsItsCanonicalSpelling(t *testing.T) {
	def := params.DefaultConfig()
	for _, p := range params.Params() {
		cfg := params.DefaultConfig()
		if err := cfg.Set(p.Name, def.Canonical(p.Name)); err != nil {
			t.Errorf("%s: canonical %q does not parse: %v", p.Name, def.Canonical(p.Name), err)
		}
		if cfg.Canonical(p.Name) != def.Canonical(p.Name) {
			t.Errorf("%s: %q became %q", p.Name, def.Canonical(p.Name), cfg.Canonical(p.Name))
		}
	}
}

func TestBareZeroDurationIsRangeChecked(t *testing.T) {
	cfg := params.DefaultConfig()
	if err := cfg.Set("ccti_timer", int64(0)); err == nil {
		t.Error("ccti_timer = 0 accepted below its 1us minimum")
	}
	if err := cfg.Set("prop_delay", int64(0)); err != nil {
		t.Errorf("prop_delay = 0: %v", err)
	}
}
