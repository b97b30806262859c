package params

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/model/fabric"
)

// Config holds every parameter of a run. DefaultConfig gives the reference
// testbed's physics (SPEC §3); Set changes one parameter by name.
type Config struct {
	// Phase is the scenario's time unit: flows join one phase apart.
	Phase engine.Time
	// Sample is the throughput sampling interval.
	Sample engine.Time

	// HostLinkGbps is the data rate (after 8b/10b) of host links: 4x DDR is 16.
	HostLinkGbps float64
	// SwitchLinkGbps is the data rate of switch-to-switch links: 4x QDR is 32.
	SwitchLinkGbps float64
	// HostIOGbps is an HCA's effective I/O (PCIe) bandwidth for payload, which
	// caps what it injects and, separately, what it absorbs.
	HostIOGbps float64
	// PCIeGen and PCIeLanes are the hosts' PCIe generation (1-5) and
	// width; both 0: not given. Given, they set every host's payload rate
	// (PCIePayloadGbps at PCIeMaxPayload) instead of HostIOGbps; with
	// neither and HostIOGbps 0, a host moves what its link carries
	// (hostio.go).
	PCIeGen, PCIeLanes int
	// PCIeMaxPayload is the PCIe max payload size in bytes (128-4096).
	PCIeMaxPayload int
	// HCAMsgRate caps the messages an HCA starts, in millions per second
	// over all its flows: an adapter's message rate, which bounds small
	// messages where bandwidth does not. 0 means no cap (the testbed's 64 KiB
	// messages never approach one).
	HCAMsgRate float64
	// PropDelay is every link's propagation delay.
	PropDelay engine.Time
	// SwitchLatency is the time from a packet's header arriving at a switch to
	// the packet being ready to forward (virtual cut-through).
	SwitchLatency engine.Time
	// FCDelay is the time from buffer space being freed to the credit update
	// leaving for the upstream port.
	FCDelay engine.Time
	// SwitchBufferCredits is the input buffer of each switch port, per VL, in
	// 64-byte credits.
	SwitchBufferCredits int
	// HCABufferCredits is the input buffer of each HCA port, per VL, in credits.
	HCABufferCredits int
	// MTU is the largest packet payload in bytes (256, 512, 1024, 2048 or 4096).
	MTU int
	// MessageSize is the size in bytes of the messages flows send; each is
	// split into ceil(MessageSize/MTU) packets.
	MessageSize int
	// HeaderBytes is each packet's overhead on the wire (LRH 8, BTH 12, ICRC 4,
	// VCRC 2).
	HeaderBytes int
	// VLs is the number of data virtual lanes (1-15). Flows use VL = SL mod VLs.
	VLs int
	// VLArb is the VL arbitration table of switch outputs: comma-separated
	// VL:WEIGHT entries, served in turn, each for WEIGHT 64-byte units (1-255)
	// before the next; "" gives every data VL weight 255.
	VLArb string
	// Arbitration is how a switch output chooses among its inputs within a
	// VL: "commit", the default since ib-6 (the first input round-robin
	// with a packet; the output then waits for that head's credits) or
	// "fit", ib-5's (the first input round-robin whose VoQ head fits in the
	// credits the output holds, so a one-credit packet passes heads that
	// wait for more); arbiter.go.
	Arbitration string
	// CC is the congestion-control configuration.
	CC CCConfig
	// Transport holds what the RC transport and the adapters add to IB CC
	// (transport.go).
	Transport TransportConfig
	// Santos holds the santos scheme's parameters (santos.go); they only
	// matter when CC.Scheme is "santos".
	Santos SantosConfig
	// NICRate holds the nicrate scheme's parameters (nicrate.go); they only
	// matter when CC.Scheme is "nicrate".
	NICRate NICRateConfig
	// DRB holds the drb scheme's parameters (drb.go); they only matter
	// when CC.Scheme is "drb".
	DRB DRBConfig

	// extra holds the values of a file scenario's own parameters
	// (workload.Scenario.Param, Extra), sorted by name; never shared
	// between Configs.
	extra []ExtraValue
	// explicit has the bit (Param.presetBit) of every preset field set by
	// name (Set, workload.Scenario.Set, a scenario's defaults): a preset
	// leaves those fields alone (presets.go).
	explicit uint16
}

// TransportConfig holds the reliable-connection transport and adapter
// behaviour IB CC depends on. DefaultTransport gives the testbed's; docs/model.md
// ("What the hardware adds") gives the evidence for each default.
type TransportConfig struct {
	// BECNReturn is how a destination returns BECNs: "ack" (in the RC
	// acknowledgements the requester asks for; all FECNs a QP receives
	// between two of its ACKs are answered by one BECN) or "cnp" (a
	// congestion notification packet for every FECN-marked packet, at once).
	BECNReturn string
	// AckReqPackets is how often the requester asks for an ACK: on every
	// message's last packet and on every AckReqPackets-th packet of a
	// message; 0 means on the last packet only.
	AckReqPackets int
	// CCTITimerStart is when each adapter's free-running CCTI timer first
	// expires: "random" (a point of its first period drawn from the run's
	// seed, so the timers of different adapters tick out of step) or "zero"
	// (every timer one period after time 0, all in step).
	CCTITimerStart string
	// PacedRead says which paced QPs (those with a non-zero IRD) fetch
	// their payloads one at a time: "aside" (model ib-5) only a QP whose
	// IRD is longer than its packet's own time on the link or through the
	// send DMA, which the adapter sets aside until its IRD has passed
	// instead of reading its next payload ahead; a QP with a shorter IRD
	// keeps its read one packet ahead and waits its IRD only. "all" (models
	// ib-2 to ib-4): every paced QP. A QP that fetches one payload at a
	// time sends its packets max(IRD, PacedReadLatency) apart beyond their
	// own time.
	PacedRead string
	// PacedReadLatency is the host read round trip of a payload fetched
	// one at a time (PacedRead). 0 lets paced QPs stream like unpaced ones.
	PacedReadLatency engine.Time
}

// DefaultTransport returns the testbed's transport and adapter behaviour:
// BECNs in ACKs requested every 16 packets (two per 64 KiB message),
// timers out of step, and a 2.5 µs read round trip for a paced QP whose
// IRD is longer than its packet's own time.
func DefaultTransport() TransportConfig {
	return TransportConfig{
		BECNReturn:       "ack",
		AckReqPackets:    16,
		CCTITimerStart:   "random",
		PacedRead:        PacedReadAside,
		PacedReadLatency: 2500 * engine.Nanosecond,
	}
}

// PacedRead values (TransportConfig.PacedRead).
const (
	PacedReadAside = "aside"
	PacedReadAll   = "all"
)

// CCConfig holds the congestion-control scheme and the IB CC parameters
// (SPEC §2).
type CCConfig struct {
	// Scheme is the congestion-control scheme (schemes.go): "off", "ib"
	// (IB CC), "santos", "nicrate" or "drb". The IB fields below matter for
	// the schemes that run IB CC's switch marking and BECNs (IBMarking).
	Scheme string
	// Threshold is the switch marking threshold, 0 (never) to 15 (most aggressive).
	Threshold int
	// MarkingRate is the mean number of eligible packets sent between marked
	// ones; 0 marks every eligible packet.
	MarkingRate int
	// PacketSize is the smallest packet, in credits, eligible for marking.
	PacketSize int
	// CCTIIncrease is added to a CCTI for every BECN.
	CCTIIncrease int
	// CCTILimit caps the CCTI.
	CCTILimit int
	// CCTIMin is the floor the CCTI timer lowers the CCTI to.
	CCTIMin int
	// CCTITimer is the period of the CCTI timer of each port-SL.
	CCTITimer engine.Time
	// VictimMask names the switch ports that enter the congestion state as
	// victims (no credits) too: "host" (host-facing ports), "all", "none", or
	// a comma-separated list of SWITCH:PORT (ports count from 1).
	VictimMask string
	// Level is "qp" (a CCTI per flow) or "sl" (a CCTI per port-SL).
	Level string
	// FillMode says how buffer fill is compared with the threshold: "voq"
	// (each VoQ's fill), "port" (the sum of the VoQs heading to the output
	// port) or "port_avg" (that sum divided by the number of contributing
	// inputs).
	FillMode string
	// MarkingMode is "counter" (exactly one of every MarkingRate+1 eligible
	// packets) or "random" (each eligible packet with probability
	// 1/(MarkingRate+1)).
	MarkingMode string
	// CCT is the shape of the congestion control table (cct.go):
	// "quadratic" (cct[i] = 7·i²/CCTDenominator² µs), "linear" (cct[i] =
	// CCTMaxDelay·i/CCTILimit) or "table:D0,D1,..." (the entries given;
	// beyond the last, the last again).
	CCT string
	// CCTDenominator is the quadratic CCT's denominator.
	CCTDenominator int
	// CCTMaxDelay is the linear CCT's entry at index CCTILimit.
	CCTMaxDelay engine.Time
	// Preset names the preset (presets.go) the IB CC fields above started
	// from; fields set by name override it.
	Preset string
}

// DefaultConfig returns the reference testbed's configuration with CC off.
//
// The physics come from the testbed's description (SPEC §3): host links 4x
// DDR (16 Gbit/s data), the switch link 4x QDR (32 Gbit/s), PCIe 1.1 x8 hosts
// (16 Gbit/s after 8b/10b, about 13 Gbit/s of payload after TLP and DLLP
// overhead, which is what one flow reaches), MTU 2048, 64 KiB messages,
// 100 ns switch latency, 64 KiB (1024 credits) of switch input buffer per port
// and 16 KiB at the HCA, a few metres of copper (20 ns).
func DefaultConfig() Config {
	return Config{
		Phase:               engine.Second,
		Sample:              engine.Millisecond,
		HostLinkGbps:        16,
		SwitchLinkGbps:      32,
		HostIOGbps:          13,
		PCIeMaxPayload:      256,
		PropDelay:           20 * engine.Nanosecond,
		SwitchLatency:       100 * engine.Nanosecond,
		FCDelay:             50 * engine.Nanosecond,
		SwitchBufferCredits: 1024,
		HCABufferCredits:    256,
		MTU:                 2048,
		MessageSize:         64 << 10,
		HeaderBytes:         26,
		VLs:                 1,
		Arbitration:         ArbitrationCommit,
		CC:                  DefaultCC(),
		Transport:           DefaultTransport(),
		Santos:              DefaultSantos(),
		NICRate:             DefaultNICRate(),
		DRB:                 DefaultDRB(),
	}
}

// DefaultCC returns the CC parameter set of the published testbed (SPEC §3),
// with scheme off.
func DefaultCC() CCConfig {
	return CCConfig{
		Scheme:         SchemeOff,
		Threshold:      15,
		MarkingRate:    1,
		PacketSize:     8,
		CCTIIncrease:   1,
		CCTILimit:      127,
		CCTIMin:        0,
		CCTITimer:      150 * engine.Microsecond,
		VictimMask:     "host",
		Level:          "qp",
		FillMode:       "port",
		MarkingMode:    "random",
		CCT:            "quadratic",
		CCTDenominator: 106,
		CCTMaxDelay:    8300 * engine.Nanosecond,
		Preset:         DefaultPreset,
	}
}

// ParamKind is the type of a parameter's value.
type ParamKind int

// Parameter kinds.
const (
	KindInt      ParamKind = iota // a whole number
	KindFloat                     // a real number
	KindDuration                  // a time with a unit, e.g. "150us"
	KindEnum                      // one of a fixed set of words
	KindBool                      // on/off
	KindString                    // free text checked by the parameter
)

// Param describes one parameter that `ccsweep sim --set` and grid files
// accept.
type Param struct {
	Name string
	Kind ParamKind
	// Min and Max bound numeric values (durations in picoseconds).
	Min, Max float64
	// Choices lists an enum's words.
	Choices []string
	// Unit names the unit of numeric values ("Gbit/s", "credits", "bytes").
	Unit string
	Doc  string
	// Scheme is the congestion-control scheme the parameter belongs to (a
	// value of CC.Scheme), or "" for a parameter of every run. A scheme's
	// parameters are named SCHEME.NAME and only act where it is selected.
	Scheme string
	// Check validates and normalizes a KindString's value.
	Check func(string) (string, error)

	get func(*Config) any
	set func(*Config, any)
	// presetBit is the parameter's bit in Config.explicit if presets set
	// it (presetFields), else 0.
	presetBit uint16
	// aliases maps other spellings of a KindEnum's words (and "on"/"off"
	// for TOML's true/false) to the canonical word.
	aliases map[string]string
}

// params is every parameter: the model's own, then each scheme's.
var params = slices.Concat(coreParams, schemeParams)

var coreParams = []*Param{
	durParam("phase", "scenario time unit: flows join one phase apart", engine.Millisecond, 3600*engine.Second,
		func(c *Config) *engine.Time { return &c.Phase }),
	durParam("sample", "throughput sampling interval", engine.Microsecond, 3600*engine.Second,
		func(c *Config) *engine.Time { return &c.Sample }),
	floatParam("host_link_gbps", "Gbit/s", "data rate of host links (4x SDR 8, DDR 16, QDR 32)", 0.1, 1000,
		func(c *Config) *float64 { return &c.HostLinkGbps }),
	floatParam("switch_link_gbps", "Gbit/s", "data rate of switch-to-switch links", 0.1, 1000,
		func(c *Config) *float64 { return &c.SwitchLinkGbps }),
	floatParam("host_io_gbps", "Gbit/s", "HCA I/O bandwidth for payload, each direction; 0: the host's link rate (an imported fabric's default); pcie_gen and pcie_lanes replace it", 0, 1000,
		func(c *Config) *float64 { return &c.HostIOGbps }),
	intParam("pcie_gen", "", "hosts' PCIe generation, 1-5 (with pcie_lanes: their payload rate from PCIe instead of host_io_gbps); 0: not given", 0, 5,
		func(c *Config) *int { return &c.PCIeGen }),
	intParam("pcie_lanes", "lanes", "hosts' PCIe width: 1, 2, 4, 8, 12, 16 or 32 lanes (with pcie_gen); 0: not given", 0, 32,
		func(c *Config) *int { return &c.PCIeLanes }),
	intParam("pcie_max_payload", "bytes", "PCIe max payload size of the hosts' TLPs: 128-4096 (with pcie_gen and pcie_lanes)", 128, 4096,
		func(c *Config) *int { return &c.PCIeMaxPayload }),
	floatParam("hca_msg_rate", "M/s", "messages an HCA can start per microsecond (its message rate in millions per second); 0: no cap", 0, 10000,
		func(c *Config) *float64 { return &c.HCAMsgRate }),
	durParam("prop_delay", "link propagation delay", 0, engine.Millisecond,
		func(c *Config) *engine.Time { return &c.PropDelay }),
	durParam("switch_latency", "switch header-in to forward latency", 0, engine.Millisecond,
		func(c *Config) *engine.Time { return &c.SwitchLatency }),
	durParam("fc_delay", "delay before freed buffer space is reported upstream", 0, engine.Millisecond,
		func(c *Config) *engine.Time { return &c.FCDelay }),
	intParam("switch_buffer_credits", "credits", "switch input buffer per port per VL (64-byte credits)", 1, 1<<20,
		func(c *Config) *int { return &c.SwitchBufferCredits }),
	intParam("hca_buffer_credits", "credits", "HCA input buffer per VL (64-byte credits)", 1, 1<<20,
		func(c *Config) *int { return &c.HCABufferCredits }),
	intParam("mtu", "bytes", "largest packet payload: 256, 512, 1024, 2048 or 4096", 256, 4096,
		func(c *Config) *int { return &c.MTU }),
	intParam("message_size", "bytes", "size of the messages flows send", 1, 1<<30,
		func(c *Config) *int { return &c.MessageSize }),
	intParam("header_bytes", "bytes", "per-packet header and CRC bytes on the wire", 0, 256,
		func(c *Config) *int { return &c.HeaderBytes }),
	intParam("vls", "", "number of data virtual lanes", 1, 15,
		func(c *Config) *int { return &c.VLs }),
	stringParam("vl_arb", "VL arbitration table of switch outputs, e.g. 0:64,1:192 (VL:weight in 64-byte units); empty: equal weights",
		vlArbValue, func(c *Config) *string { return &c.VLArb }),
	enumParam("arbitration", "how a switch output picks its next input on a VL: fit (the first round-robin whose head fits the credits it holds; a small packet passes larger ones waiting for credits) or commit (the first round-robin with a packet, then it waits for that head's credits)", []string{ArbitrationFit, ArbitrationCommit},
		func(c *Config) *string { return &c.Arbitration }),

	schemeParam(),
	intParam("threshold", "", "switch marking threshold: 0 never marks, 15 is most aggressive", 0, 15,
		func(c *Config) *int { return &c.CC.Threshold }),
	intParam("marking_rate", "packets", "mean eligible packets sent between marked ones (0 marks all)", 0, 65535,
		func(c *Config) *int { return &c.CC.MarkingRate }),
	intParam("packet_size", "credits", "smallest packet eligible for marking, in 64-byte credits", 0, 255,
		func(c *Config) *int { return &c.CC.PacketSize }),
	intParam("ccti_increase", "", "CCTI added per BECN", 0, 255,
		func(c *Config) *int { return &c.CC.CCTIIncrease }),
	intParam("ccti_limit", "", "largest CCTI", 0, 16383,
		func(c *Config) *int { return &c.CC.CCTILimit }),
	intParam("ccti_min", "", "smallest CCTI the timer lowers to", 0, 16383,
		func(c *Config) *int { return &c.CC.CCTIMin }),
	durParam("ccti_timer", "period of the CCTI timer (IB counts 1.024 us units)", engine.Microsecond, 65535*1024*engine.Nanosecond,
		func(c *Config) *engine.Time { return &c.CC.CCTITimer }),
	stringParam("victim_mask", "switch ports that also mark as victims: host, all, none, or S1:4,S2:1 (on = host, off = none)",
		victimMaskValue, func(c *Config) *string { return &c.CC.VictimMask }),
	enumParam("cc_level", "a CCTI per flow (qp) or per port-SL (sl)", []string{"qp", "sl"},
		func(c *Config) *string { return &c.CC.Level }),
	enumParam("fill_mode", "how buffer fill meets the threshold", []string{"voq", "port", "port_avg"},
		func(c *Config) *string { return &c.CC.FillMode }),
	enumParam("marking_mode", "deterministic counter or random marking", []string{"counter", "random"},
		func(c *Config) *string { return &c.CC.MarkingMode }),
	stringParam("cct", "CCT shape: quadratic (7*i^2/cct_denominator^2 us), linear (cct_max_delay*i/ccti_limit), or table:D0,D1,... (the entries; the last repeats)",
		cctValue, func(c *Config) *string { return &c.CC.CCT }),
	intParam("cct_denominator", "", "quadratic CCT's d in cct[i] = 7*i^2/d^2 us (106 testbed, 95 vendor default)", 1, 100000,
		func(c *Config) *int { return &c.CC.CCTDenominator }),
	durParam("cct_max_delay", "linear CCT's entry at index ccti_limit", 0, engine.Second,
		func(c *Config) *engine.Time { return &c.CC.CCTMaxDelay }),
	presetParam(),

	// What the RC transport and the adapters add to IB CC (transport.go).
	enumParam("becn_return", "how destinations return BECNs: in the RC ACKs the requester asks for, one per ACK (ack), or a CNP per FECN (cnp)", []string{"ack", "cnp"},
		func(c *Config) *string { return &c.Transport.BECNReturn }),
	intParam("ack_req_packets", "packets", "the requester asks for an ACK every this many packets of a message and on its last (0: last only)", 0, 1<<20,
		func(c *Config) *int { return &c.Transport.AckReqPackets }),
	enumParam("ccti_timer_start", "first expiry of each adapter's CCTI timer: random within its period (timers out of step) or zero (all in step)", []string{"random", "zero"},
		func(c *Config) *string { return &c.Transport.CCTITimerStart }),
	enumParam("paced_read", "which paced QPs fetch one payload at a time, their packets max(IRD, paced_read_latency) apart beyond their own time: aside (only those whose IRD exceeds their packet's own time; the others read ahead and wait their IRD) or all (every paced QP; models ib-2 to ib-4)", []string{PacedReadAside, PacedReadAll},
		func(c *Config) *string { return &c.Transport.PacedRead }),
	durParam("paced_read_latency", "host read round trip of a payload a paced QP fetches one at a time (paced_read; 0: none)", 0, engine.Millisecond,
		func(c *Config) *engine.Time { return &c.Transport.PacedReadLatency }),
}

var paramByName = func() map[string]*Param {
	m := make(map[string]*Param, len(params))
	for _, p := range params {
		m[p.Name] = p
	}
	return m
}()

// Params returns every parameter, in documentation order. The slice is
// shared: do not modify it.
func Params() []*Param { return params }

// LookupParam returns the parameter called name, or nil.
func LookupParam(name string) *Param { return paramByName[name] }

// ErrUnknownParam is wrapped by errors for names that are not parameters.
var ErrUnknownParam = errors.New("unknown parameter")

// ParamError reports a value a parameter does not accept.
type ParamError struct {
	Name   string
	Value  any
	Reason string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s = %v: %s", e.Name, e.Value, e.Reason)
}

// Set parses v (a string such as "150us" or "on", an int64, a float64, a
// bool, or an engine.Time) as the value of parameter name and stores it in c.
// It returns an error wrapping ErrUnknownParam or a *ParamError.
func (c *Config) Set(name string, v any) error {
	p := paramByName[name]
	if p == nil {
		return fmt.Errorf("%w %q (known: %s)", ErrUnknownParam, name, strings.Join(ParamNames(), ", "))
	}
	val, err := p.Parse(v)
	if err != nil {
		return err
	}
	p.Set(c, val)
	return nil
}

// Set sets p to v, a value Parse returned, in c, marking a preset field
// as set by name.
func (p *Param) Set(c *Config, v any) {
	p.set(c, v)
	c.explicit |= p.presetBit
}

// Get returns p's value in c.
func (p *Param) Get(c *Config) any { return p.get(c) }

// Get returns the value of parameter name in c, or nil if there is none.
func (c *Config) Get(name string) any {
	if p := paramByName[name]; p != nil {
		return p.get(c)
	}
	return nil
}

// Canonical returns the value of parameter name in c in the one spelling used
// for identities and exports: integers in decimal, floats in shortest form,
// durations as engine.Time.String, enums and bools as words.
func (c *Config) Canonical(name string) string {
	p := paramByName[name]
	if p == nil {
		return ""
	}
	return p.Format(p.get(c))
}

// ParamNames returns the sorted parameter names.
func ParamNames() []string {
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	sort.Strings(names)
	return names
}

// Format spells a value of p the canonical way.
func (p *Param) Format(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case engine.Time:
		return x.String()
	case bool:
		if x {
			return "on"
		}
		return "off"
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// Parse converts v to p's value type (int, float64, engine.Time, string or
// bool) and checks its range.
func (p *Param) Parse(v any) (any, error) {
	bad := func(reason string) error { return &ParamError{Name: p.Name, Value: v, Reason: reason} }
	switch p.Kind {
	case KindInt:
		n, ok := toNumber(v)
		if !ok || n != math.Trunc(n) {
			return nil, bad("not a whole number")
		}
		if n < p.Min || n > p.Max {
			return nil, bad(fmt.Sprintf("out of range %g..%g", p.Min, p.Max))
		}
		return int(n), nil
	case KindFloat:
		f, ok := toNumber(v)
		if !ok {
			return nil, bad("not a number")
		}
		if math.IsNaN(f) || f < p.Min || f > p.Max {
			return nil, bad(fmt.Sprintf("out of range %g..%g %s", p.Min, p.Max, p.Unit))
		}
		return f, nil
	case KindDuration:
		var t engine.Time
		switch x := v.(type) {
		case engine.Time:
			t = x
		case string:
			d, err := engine.ParseTime(x)
			switch {
			case errors.Is(err, engine.ErrNegativeTime):
				return nil, bad("negative: a duration is 0 or more")
			case errors.Is(err, engine.ErrTimeTooLong):
				return nil, bad(fmt.Sprintf("out of range %v..%v", engine.Time(p.Min), engine.Time(p.Max)))
			case errors.Is(err, engine.ErrNoUnit):
				return nil, bad("a duration needs a unit, e.g. \"150us\"")
			case err != nil:
				return nil, bad("not a duration with a unit, e.g. 150us, 1ms, 1s")
			}
			t = d
		case int64, int, float64:
			if x != int64(0) && x != 0 && x != 0.0 {
				return nil, bad("a duration needs a unit, e.g. \"150us\"")
			}
			t = 0
		default:
			return nil, bad("not a duration with a unit, e.g. 150us, 1ms, 1s")
		}
		if float64(t) < p.Min || float64(t) > p.Max {
			return nil, bad(fmt.Sprintf("out of range %v..%v", engine.Time(p.Min), engine.Time(p.Max)))
		}
		return t, nil
	case KindEnum:
		s, ok := v.(string)
		if b, isBool := v.(bool); isBool && p.aliases != nil {
			s, ok = map[bool]string{true: "on", false: "off"}[b], true
		}
		if !ok {
			return nil, bad("want one of " + strings.Join(p.Choices, ", "))
		}
		if a, isAlias := p.aliases[strings.ToLower(s)]; isAlias {
			return a, nil
		}
		for _, c := range p.Choices {
			if s == c {
				return s, nil
			}
		}
		return nil, bad("want one of " + strings.Join(p.Choices, ", "))
	case KindString:
		var str string
		switch x := v.(type) {
		case string:
			str = x
		case bool: // on/off words, as TOML may give them
			str = map[bool]string{true: "on", false: "off"}[x]
		default:
			return nil, bad("want text")
		}
		out, err := p.Check(str)
		if err != nil {
			return nil, bad(err.Error())
		}
		return out, nil
	case KindBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			switch strings.ToLower(x) {
			case "on", "true", "1", "yes":
				return true, nil
			case "off", "false", "0", "no":
				return false, nil
			}
		case int64:
			if x == 0 || x == 1 {
				return x == 1, nil
			}
		}
		return nil, bad("want on or off")
	}
	return nil, bad("unsupported kind")
}

// toNumber reads a number given as an int, int64, float64 or string.
func toNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

func intParam(name, unit, doc string, min, max float64, field func(*Config) *int) *Param {
	return &Param{Name: name, Kind: KindInt, Min: min, Max: max, Unit: unit, Doc: doc,
		get: func(c *Config) any { return *field(c) },
		set: func(c *Config, v any) { *field(c) = v.(int) }}
}

func floatParam(name, unit, doc string, min, max float64, field func(*Config) *float64) *Param {
	return &Param{Name: name, Kind: KindFloat, Min: min, Max: max, Unit: unit, Doc: doc,
		get: func(c *Config) any { return *field(c) },
		set: func(c *Config, v any) { *field(c) = v.(float64) }}
}

func durParam(name, doc string, min, max engine.Time, field func(*Config) *engine.Time) *Param {
	return &Param{Name: name, Kind: KindDuration, Min: float64(min), Max: float64(max), Unit: "time", Doc: doc,
		get: func(c *Config) any { return *field(c) },
		set: func(c *Config, v any) { *field(c) = v.(engine.Time) }}
}

func enumParam(name, doc string, choices []string, field func(*Config) *string) *Param {
	return &Param{Name: name, Kind: KindEnum, Choices: choices, Doc: doc,
		get: func(c *Config) any { return *field(c) },
		set: func(c *Config, v any) { *field(c) = v.(string) }}
}

func stringParam(name, doc string, check func(string) (string, error), field func(*Config) *string) *Param {
	return &Param{Name: name, Kind: KindString, Doc: doc, Check: check,
		get: func(c *Config) any { return *field(c) },
		set: func(c *Config, v any) { *field(c) = v.(string) }}
}

// victimMaskValue normalizes a victim_mask value; port lists are checked
// against the scenario's topology when the run is built.
func victimMaskValue(s string) (string, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	switch strings.ToLower(s) {
	case "host", "on", "true":
		return "host", nil
	case "none", "off", "false":
		return "none", nil
	case "all":
		return "all", nil
	}
	for _, item := range strings.Split(s, ",") {
		name, num, ok := strings.Cut(item, ":")
		if n, err := strconv.Atoi(num); !ok || name == "" || err != nil || n < 1 {
			return "", fmt.Errorf("want host, all, none, or a list like S1:4,S2:1")
		}
	}
	return s, nil
}

// vlArbValue normalizes a VL arbitration table; VLs beyond vls are caught by
// Validate.
func vlArbValue(s string) (string, error) {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "")
	if s == "" {
		return "", nil
	}
	if _, err := ParseVLArb(s, fabric.MaxVLs); err != nil {
		return "", err
	}
	return s, nil
}

// VLArbEntry is one entry of a VL arbitration table.
type VLArbEntry struct {
	VL     uint8
	Weight int32 // bytes the VL may send before the next entry's turn
}

// ParseVLArb reads a table of VL:WEIGHT entries for vls data VLs; "" gives
// each VL weight 255.
func ParseVLArb(s string, vls int) ([]VLArbEntry, error) {
	var table []VLArbEntry
	if s == "" {
		for v := 0; v < vls; v++ {
			table = append(table, VLArbEntry{VL: uint8(v), Weight: 255 * 64})
		}
		return table, nil
	}
	for _, item := range strings.Split(s, ",") {
		a, b, ok := strings.Cut(item, ":")
		vl, err1 := strconv.Atoi(a)
		w, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || vl < 0 || vl >= vls || w < 1 || w > 255 {
			return nil, fmt.Errorf("entry %q: want VL:WEIGHT with VL below %d and weight 1-255", item, vls)
		}
		table = append(table, VLArbEntry{VL: uint8(vl), Weight: int32(w) * 64})
	}
	return table, nil
}

func boolParam(name, doc string, field func(*Config) *bool) *Param {
	return &Param{Name: name, Kind: KindBool, Doc: doc,
		get: func(c *Config) any { return *field(c) },
		set: func(c *Config, v any) { *field(c) = v.(bool) }}
}

// Validate checks relations between parameters that no single range covers.
func (c *Config) Validate() error {
	switch c.MTU {
	case 256, 512, 1024, 2048, 4096:
	default:
		return &ParamError{Name: "mtu", Value: c.MTU, Reason: "want 256, 512, 1024, 2048 or 4096"}
	}
	maxPkt := Credits(c.MTU + c.HeaderBytes)
	if c.SwitchBufferCredits < maxPkt {
		return &ParamError{Name: "switch_buffer_credits", Value: c.SwitchBufferCredits,
			Reason: fmt.Sprintf("smaller than one MTU packet (%d credits)", maxPkt)}
	}
	if c.HCABufferCredits < maxPkt {
		return &ParamError{Name: "hca_buffer_credits", Value: c.HCABufferCredits,
			Reason: fmt.Sprintf("smaller than one MTU packet (%d credits)", maxPkt)}
	}
	if c.Sample > c.Phase {
		return &ParamError{Name: "sample", Value: c.Sample, Reason: fmt.Sprintf("longer than the phase (%v)", c.Phase)}
	}
	if _, err := ParseVLArb(c.VLArb, c.VLs); err != nil {
		return &ParamError{Name: "vl_arb", Value: c.VLArb, Reason: err.Error()}
	}
	if err := c.validatePCIe(); err != nil {
		return err
	}
	if err := c.validateScheme(); err != nil {
		return err
	}
	if c.CC.CCTIMin > c.CC.CCTILimit {
		return &ParamError{Name: "ccti_min", Value: c.CC.CCTIMin,
			Reason: fmt.Sprintf("above ccti_limit (%d)", c.CC.CCTILimit)}
	}
	return nil
}

// Credits returns the number of 64-byte credits that bytes occupy.
func Credits(bytes int) int { return (bytes + 63) / 64 }
