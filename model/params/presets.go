package params

import (
	"fmt"
	"slices"
	"strings"
)

// DefaultPreset is the preset whose values DefaultConfig has: the
// reference testbed's Table I. Setting it changes nothing, so it adds
// nothing to a point's identity either (grids.Point.ID).
const DefaultPreset = "table1"

// A Preset is a named set of IB CC parameter values that a deployed
// fabric manager, or a published testbed, uses. docs/presets.md gives the
// source of every value.
type Preset struct {
	// Name is the value of the preset parameter that selects it.
	Name string
	// Doc says in a line what the preset is.
	Doc string
	// Values are the fields the source defines, as name and canonical
	// value. The preset sets every one of presetFields: those its source
	// leaves undefined take DefaultConfig's value, so that applying a
	// preset gives the same fields whatever was applied before.
	Values []PresetValue
}

// PresetValue is one parameter value of a Preset and where it comes from.
type PresetValue struct {
	Name, Value string
	// Source cites the document, version and place that gives the value.
	Source string
}

// presetFields are the parameters a preset sets: IB CC's switch and
// adapter parameters and the CCT. Each has a bit in Config.explicit.
var presetFields = []string{
	"threshold", "marking_rate", "packet_size", "victim_mask",
	"ccti_increase", "ccti_limit", "ccti_min", "ccti_timer", "cc_level",
	"cct", "cct_denominator", "cct_max_delay",
}

// Sources of the presets' values; docs/presets.md quotes each place.
const (
	srcTable1 = "the reference testbed's Table I (SPEC §3; docs/model.md, IB CC parameters)"
	srcCCT106 = "the testbed's CCT, cct[i] = 7·i²/106² µs (SPEC §2; reference/002.md §2)"
	srcCCMgr  = "Mellanox OFED for Linux User Manual Rev 2.2-1.0.1, §8.9.4.1 Congestion Control Manager Options File, Tables 26-27 (also Rev 2.3-1.0.1 §3.2.2.8.1)"
	srcOPAXML = "Omni-Path FM opafm.xml as shipped: github.com/cornelisnetworks/opa-fm Esm/ib/src/linux/startup/opafm_src.xml, <CongestionControl> (commit acde834)"
	srcOPACCT = "Omni-Path FM CCT construction: github.com/cornelisnetworks/opa-fm Esm/ib/src/smi/sm/stl_cca.c, build_cca_congestion_control_table (commit acde834)"
	srcOPABas = "Omni-Path FM compiled-in default Basis (sl_based) 0, QP based, used as opafm.xml sets none: Esm/ib/src/config/fm_xml.c (commit acde834)"
)

// presets are the known presets, the default first.
var presets = []Preset{
	{
		Name: "table1",
		Doc:  "the reference testbed's IB CC settings (the paper's Table I and its CCT)",
		Values: []PresetValue{
			{"threshold", "15", srcTable1},
			{"marking_rate", "1", srcTable1},
			{"packet_size", "8", srcTable1},
			{"ccti_increase", "1", srcTable1},
			{"ccti_limit", "127", srcTable1},
			{"ccti_min", "0", srcTable1},
			{"ccti_timer", "150us", srcTable1},
			{"cct", "quadratic", srcCCT106},
			{"cct_denominator", "106", srcCCT106},
		},
	},
	{
		Name: "ccmgr",
		Doc:  "Mellanox OFED's Congestion Control Manager defaults; its CCTI timer and CCT depend on the fabric's size and are not documented, so Table I's stay",
		Values: []PresetValue{
			{"threshold", "15", srcCCMgr + ": threshold, Default 0xf"},
			{"marking_rate", "10", srcCCMgr + ": marking_rate, Default 0xa"},
			{"packet_size", "8", srcCCMgr + ": packet_size, Default 0x200 bytes, 8 credits of 64 bytes"},
			{"cc_level", "qp", srcCCMgr + ": port_control, Default 0 (QP based)"},
			{"ccti_increase", "1", srcCCMgr + ": ccti_increase, Default 1"},
			{"ccti_min", "0", srcCCMgr + ": ccti_min, Default 0"},
		},
	},
	{
		Name: "opa",
		Doc:  "Intel (now Cornelis) Omni-Path Fabric Manager's congestion control as opafm.xml ships it, with its linear CCT",
		Values: []PresetValue{
			{"threshold", "8", srcOPAXML + ": Switch/Threshold 8"},
			{"packet_size", "0", srcOPAXML + ": Switch/PacketSize 0 (64-byte units)"},
			{"marking_rate", "0", srcOPAXML + ": Switch/MarkingRate 0"},
			{"victim_mask", "all", srcOPAXML + ": Switch/VictimMarkingEnable 1, which stl_cca.c sets on every port"},
			{"ccti_increase", "5", srcOPAXML + ": Fi/Increase 5"},
			{"ccti_timer", "10.24us", srcOPAXML + ": Fi/Timer 10, in 1.024 us units"},
			{"ccti_min", "0", srcOPAXML + ": Fi/Min 0"},
			{"ccti_limit", "127", srcOPAXML + ": Fi/Limit 127"},
			{"cc_level", "qp", srcOPABas},
			{"cct", "linear", srcOPACCT + ": entry i = i/Limit of the largest"},
			{"cct_max_delay", "8.3us", srcOPAXML + ": Fi/DesiredMaxDelay 8300 ns"},
		},
	},
}

// Presets returns the known presets, DefaultPreset first. The slice is
// shared: do not modify it.
func Presets() []Preset { return presets }

// PresetNames returns the presets' names, DefaultPreset first.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return names
}

// PresetFields returns the names of the parameters every preset sets.
func PresetFields() []string { return slices.Clone(presetFields) }

// presetField is one field a preset sets, with its parsed value.
type presetField struct {
	param *Param
	val   any
}

// presetSettings holds each preset's value of every one of presetFields,
// by preset name; init fills it.
var presetSettings map[string][]presetField

func init() {
	for i, name := range presetFields {
		paramByName[name].presetBit = 1 << i
	}
	def := DefaultConfig()
	presetSettings = make(map[string][]presetField, len(presets))
	for _, pr := range presets {
		var fields []presetField
		for _, name := range presetFields {
			p := paramByName[name]
			text := def.Canonical(name)
			for _, v := range pr.Values {
				if v.Name == name {
					text = v.Value
				}
			}
			val, err := p.Parse(text)
			if err != nil {
				panic(fmt.Sprintf("preset %s: %v", pr.Name, err))
			}
			fields = append(fields, presetField{p, val})
		}
		for _, v := range pr.Values {
			if paramByName[v.Name] == nil || paramByName[v.Name].presetBit == 0 {
				panic(fmt.Sprintf("preset %s: %s is not a preset field", pr.Name, v.Name))
			}
		}
		presetSettings[pr.Name] = fields
	}
}

// applyPreset records preset name in c and sets its values of the preset
// fields that were not set by name: explicit parameters win over a preset
// in whatever order they are set.
func (c *Config) applyPreset(name string) {
	c.CC.Preset = name
	for _, f := range presetSettings[name] {
		if c.explicit&f.param.presetBit == 0 {
			f.param.set(c, f.val)
		}
	}
}

// presetParam is the preset parameter: an enum of the preset names whose
// setting applies the preset.
func presetParam() *Param {
	return &Param{Name: "preset", Kind: KindEnum, Choices: PresetNames(),
		Doc: "named IB CC settings: " + strings.Join(PresetNames(), ", ") +
			" (see docs/presets.md); parameters set by name override it",
		get: func(c *Config) any { return c.CC.Preset },
		set: func(c *Config, v any) { c.applyPreset(v.(string)) }}
}
