package params

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/ccsweep/ccsweep/engine"
)

// TestMutDefaultConfigIsTheTestbed checks DefaultConfig's documented
// values: the testbed's physics of its comment (SPEC §3: 4x DDR host
// links, 16 Gbit/s; 4x QDR switch link, 32; 13 Gbit/s of payload; MTU
// 2048; 64 KiB messages; 100 ns switch latency; 1024 credits of switch
// buffer and 16 KiB, 256 credits, at the HCA; 20 ns of copper), the
// packet overhead of HeaderBytes' comment (LRH 8 + BTH 12 + ICRC 4 + VCRC
// 2 = 26 bytes), and the defaults of docs/fidelity.md's table of guessed
// and fitted parameters (fc_delay 50ns, ack_req_packets 16,
// paced_read_latency 2.5us).
// Kills params.go's `2500 * engine.Nanosecond` (paced_read_latency),
// `20 * engine.Nanosecond` (prop_delay) and `50 * engine.Nanosecond`
// (fc_delay) with `*` turned into `/`.
func TestMutDefaultConfigIsTheTestbed(t *testing.T) {
	c := DefaultConfig()
	for name, want := range map[string]string{
		"host_link_gbps":        "16",
		"switch_link_gbps":      "32",
		"host_io_gbps":          "13",
		"mtu":                   "2048",
		"message_size":          "65536",
		"switch_latency":        "100ns",
		"switch_buffer_credits": "1024",
		"hca_buffer_credits":    "256",
		"prop_delay":            "20ns",
		"header_bytes":          "26",
		"fc_delay":              "50ns",
		"ack_req_packets":       "16",
		"paced_read_latency":    "2.5us",
	} {
		if got := c.Canonical(name); got != want {
			t.Errorf("default %s = %s, want %s", name, got, want)
		}
	}
}

// TestMutNumericParamsAcceptTheirEnds checks every int and duration
// parameter's range is inclusive, as its message "out of range MIN..MAX"
// says: MIN and MAX parse, the next value beyond either (1, or a
// picosecond) does not. (TestMutFloatParamsAcceptTheirEnds does the
// floats.)
// Kills params.go's `float64(t) > p.Max` to `>=` for durations.
func TestMutNumericParamsAcceptTheirEnds(t *testing.T) {
	kinds := map[ParamKind]int{}
	for _, p := range params {
		var lo, hi, below, above any
		switch p.Kind {
		case KindInt:
			lo, hi, below, above = int(p.Min), int(p.Max), int(p.Min)-1, int(p.Max)+1
		case KindDuration:
			l, h := engine.Time(p.Min), engine.Time(p.Max)
			lo, hi, below, above = l, h, l-1, h+1
		default:
			continue
		}
		kinds[p.Kind]++
		for _, v := range []any{lo, hi} {
			if _, err := p.Parse(v); err != nil {
				t.Errorf("%s = %v: %v", p.Name, v, err)
			}
		}
		for _, v := range []any{below, above} {
			if _, err := p.Parse(v); err == nil {
				t.Errorf("%s = %v accepted, outside %v..%v", p.Name, v, lo, hi)
			}
		}
	}
	if kinds[KindInt] == 0 || kinds[KindDuration] == 0 {
		t.Fatalf("parameters checked by kind: %v", kinds)
	}
}

// TestMutBareNumberDurations checks a duration given as a bare number (as
// TOML may give one): 0 of any number type is 0 (no unit is needed for
// nothing), anything else asks for a unit.
// Kills params.go's `x != 0` negated in `x != int64(0) && x != 0 && x !=
// 0.0` (an int 0 refused, an int 5 taken as 0).
func TestMutBareNumberDurations(t *testing.T) {
	p := LookupParam("prop_delay")
	for _, v := range []any{0, int64(0), 0.0} {
		if got, err := p.Parse(v); err != nil || got != engine.Time(0) {
			t.Errorf("prop_delay = %#v: %v, %v; want 0", v, got, err)
		}
	}
	for _, v := range []any{5, int64(7), 1.5, -1} {
		if _, err := p.Parse(v); err == nil || !strings.Contains(err.Error(), "needs a unit") {
			t.Errorf("prop_delay = %#v: error %v, want one asking for a unit", v, err)
		}
	}
}

// TestMutVLArb checks the VL arbitration table: "" gives each of the vls
// data VLs one entry of weight 255 (in 64-byte units), in VL order; a table
// given keeps its entries (weights in bytes) and its spelling, spaces
// dropped, as vl_arb's canonical value.
// Kills params.go's `v < vls` to `<=` (one VL too many in the default
// table) and vlArbValue's `s == ""` negated (every table spelled "").
func TestMutVLArb(t *testing.T) {
	for vls := 1; vls <= 4; vls++ {
		table, err := ParseVLArb("", vls)
		if err != nil || len(table) != vls {
			t.Fatalf("default table for %d VLs: %v, %v", vls, table, err)
		}
		for v, e := range table {
			if e != (VLArbEntry{VL: uint8(v), Weight: 255 * 64}) {
				t.Errorf("default table for %d VLs, entry %d: %+v", vls, v, e)
			}
		}
	}
	table, err := ParseVLArb("1:192,0:64", 2)
	if err != nil || len(table) != 2 || table[0] != (VLArbEntry{1, 192 * 64}) || table[1] != (VLArbEntry{0, 64 * 64}) {
		t.Errorf("1:192,0:64: %v, %v", table, err)
	}
	c := DefaultConfig()
	if err := c.Set("vl_arb", " 0:64, 1:192"); err != nil || c.VLArb != "0:64,1:192" {
		t.Errorf("vl_arb \" 0:64, 1:192\": %q, %v; want \"0:64,1:192\"", c.VLArb, err)
	}
	if err := c.Set("vl_arb", ""); err != nil || c.VLArb != "" {
		t.Errorf("vl_arb \"\": %q, %v", c.VLArb, err)
	}
}

// TestMutValidateAtTheEdges checks Validate's relations at equality, where
// the rule's words decide: a buffer of exactly one MTU packet (2048 + 26
// bytes: 33 credits) is not "smaller than one MTU packet", one credit less
// is; a sample interval equal to the phase is not "longer than the phase".
// Kills params.go's `c.SwitchBufferCredits < maxPkt` and
// `c.HCABufferCredits < maxPkt` to `<=`, and `c.Sample > c.Phase` to `>=`.
func TestMutValidateAtTheEdges(t *testing.T) {
	for _, c := range []struct {
		set  func(*Config)
		want string // the ParamError's name; "" for valid
	}{
		{func(c *Config) { c.SwitchBufferCredits = 33 }, ""},
		{func(c *Config) { c.SwitchBufferCredits = 32 }, "switch_buffer_credits"},
		{func(c *Config) { c.HCABufferCredits = 33 }, ""},
		{func(c *Config) { c.HCABufferCredits = 32 }, "hca_buffer_credits"},
		{func(c *Config) { c.Sample, c.Phase = engine.Millisecond, engine.Millisecond }, ""},
		{func(c *Config) { c.Sample, c.Phase = engine.Millisecond+1, engine.Millisecond }, "sample"},
	} {
		cfg := DefaultConfig()
		c.set(&cfg)
		err := cfg.Validate()
		var pe *ParamError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("switch %d, HCA %d credits, sample %v, phase %v: %v", cfg.SwitchBufferCredits, cfg.HCABufferCredits, cfg.Sample, cfg.Phase, err)
		case c.want != "" && (!errors.As(err, &pe) || pe.Name != c.want):
			t.Errorf("switch %d, HCA %d credits, sample %v, phase %v: error %v, want one naming %s",
				cfg.SwitchBufferCredits, cfg.HCABufferCredits, cfg.Sample, cfg.Phase, err, c.want)
		}
	}
}

// TestMutVLArbEntryBounds checks ParseVLArb's entries at their ends and one
// past: a VL from 0 to vls-1, a weight from 1 to 255 (in 64-byte units);
// anything else, or an entry not VL:WEIGHT, is an error naming the entry.
func TestMutVLArbEntryBounds(t *testing.T) {
	for _, c := range []struct {
		s  string
		ok bool
	}{
		{"0:1", true}, {"2:255", true}, {"0:1,2:255,1:100", true},
		{"3:1", false}, {"-1:1", false}, {"0:0", false}, {"0:256", false},
		{"0", false}, {"a:1", false}, {"0:b", false}, {"0:1,", false},
	} {
		table, err := ParseVLArb(c.s, 3)
		if c.ok != (err == nil) {
			t.Errorf("%q with 3 VLs: %v, %v; want accepted %v", c.s, table, err, c.ok)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "entry ") {
			t.Errorf("%q: error %v does not name the entry", c.s, err)
		}
	}
	if table, _ := ParseVLArb("2:255", 3); len(table) != 1 || table[0] != (VLArbEntry{2, 255 * 64}) {
		t.Errorf("2:255: %v", table)
	}
}

// TestMutExtraValues checks a scenario parameter's value (Extra): its
// default until set, then the value set (a second Set replaces it), the
// extras listed sorted by name, and a copy of a Config not sharing them
// (Config.extra: "never shared between Configs").
func TestMutExtraValues(t *testing.T) {
	a := &Param{Name: "b.load", Kind: KindFloat, Min: 0, Max: 1}
	Extra(a, 0.5)
	b := &Param{Name: "a.size", Kind: KindInt, Min: 0, Max: 100}
	Extra(b, 8)
	c := DefaultConfig()
	if a.Get(&c) != 0.5 || b.Get(&c) != 8 || len(c.Extras()) != 0 {
		t.Fatalf("defaults: %v, %v, extras %v", a.Get(&c), b.Get(&c), c.Extras())
	}
	a.Set(&c, 0.25)
	b.Set(&c, 3)
	a.Set(&c, 0.75)
	if a.Get(&c) != 0.75 || b.Get(&c) != 3 {
		t.Errorf("set: %v, %v; want 0.75, 3", a.Get(&c), b.Get(&c))
	}
	if ex := c.Extras(); len(ex) != 2 || ex[0] != (ExtraValue{"a.size", 3}) || ex[1] != (ExtraValue{"b.load", 0.75}) {
		t.Errorf("extras %v, want a.size 3, b.load 0.75", ex)
	}
	d := c
	b.Set(&d, 9)
	if b.Get(&c) != 3 || b.Get(&d) != 9 {
		t.Errorf("a copy shares its extras: %v, %v", b.Get(&c), b.Get(&d))
	}
}

// TestMutFirstPortAndEqualCCTIBounds checks two edges found by the
// measurement sample (after its figure was recorded): a victim_mask port
// list counts ports from 1, so S1:1 is a port and S1:0 is not; ccti_min
// may equal ccti_limit (Validate refuses only "above ccti_limit").
// Kills params.go's victim_mask `n < 1` to `<=` and `CCTIMin > CCTILimit`
// to `>=`.
func TestMutFirstPortAndEqualCCTIBounds(t *testing.T) {
	if v, err := victimMaskValue("S1:1"); err != nil || v != "S1:1" {
		t.Errorf("victim_mask S1:1: %q, %v", v, err)
	}
	if _, err := victimMaskValue("S1:0"); err == nil {
		t.Error("victim_mask S1:0 accepted")
	}
	c := DefaultConfig()
	c.CC.CCTIMin, c.CC.CCTILimit = 50, 50
	if err := c.Validate(); err != nil {
		t.Errorf("ccti_min = ccti_limit = 50: %v", err)
	}
}

// TestMutFloatParamsAcceptTheirEnds checks every float parameter's range
// is inclusive, as its message "out of range MIN..MAX" says: MIN and MAX
// parse, the next float beyond either does not.
// Kills go's `f > p.Max` turned into `>=` for floats.
func TestMutFloatParamsAcceptTheirEnds(t *testing.T) {
	n := 0
	for _, p := range coreParams {
		if p.Kind != KindFloat || math.IsInf(p.Max, 0) || math.IsInf(p.Min, 0) {
			continue
		}
		n++
		for _, v := range []float64{p.Min, p.Max} {
			if _, err := p.Parse(v); err != nil {
				t.Errorf("%s = %v: %v", p.Name, v, err)
			}
		}
		for _, v := range []float64{math.Nextafter(p.Min, math.Inf(-1)), math.Nextafter(p.Max, math.Inf(1))} {
			if _, err := p.Parse(v); err == nil {
				t.Errorf("%s = %v accepted, outside %v..%v", p.Name, v, p.Min, p.Max)
			}
		}
	}
	if n == 0 {
		t.Fatal("no float parameter with finite ends")
	}
}

// TestMutSantosRMinBelowRMax checks santos.r_min's relation to r_max: a
// minimum rate must be below the maximum, so r_min = r_max is refused and
// a hair below is accepted; when r_max is left at 0 the refusal names the
// hosts' injection rate it defaults to (13 Gbit/s on the testbed), and
// santos.r_max when it was set.
func TestMutSantosRMinBelowRMax(t *testing.T) {
	for _, c := range []struct {
		rMin, rMax float64
		want       string // "" for accepted
	}{
		{5, 5, "not below santos.r_max (5 Gbit/s)"},
		{4.999, 5, ""},
		{13, 0, "not below the hosts' injection rate, santos.r_max's default (13 Gbit/s)"},
		{12.999, 0, ""},
	} {
		cfg := DefaultConfig()
		cfg.CC.Scheme = SchemeSantos
		cfg.Santos.RMinGbps, cfg.Santos.RMaxGbps = c.rMin, c.rMax
		err := cfg.Santos.validate(&cfg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("r_min %g, r_max %g: %v, want accepted", c.rMin, c.rMax, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("r_min %g, r_max %g: error %v, want %q", c.rMin, c.rMax, err, c.want)
		}
	}
}
