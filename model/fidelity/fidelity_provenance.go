package fidelity

import (
	"fmt"
	"slices"
	"strings"
)

// Where each row of ccsweep validate comes from, and where each parameter
// that no published physical quantity gives comes from: the data behind
// validate --cross and --sensitivity.

// RowGroup is a published figure, table or text that rows of the check
// come from.
type RowGroup struct {
	// Name names the group in reports, e.g. "fig. 11 (victim)".
	Name string
	// Kind says how precise the published numbers are: "table" (numbers
	// the hardware paper states per phase or per flow: SPEC §3, its
	// scenario-2 table), "figure" (a sentence about a figure that was not
	// available, or a number another paper read off one: claim 6) or
	// "text" (a number a paper states in passing).
	Kind string
	// Sources are the FidelityRow.Source values of its rows.
	Sources []string
}

// RowGroups are the groups of the check's rows, in the order of the rows.
var RowGroups = []RowGroup{
	{"SPEC §3 table, CC off", "table", []string{"SPEC §3, CC off"}},
	{"SPEC §3 table, CC on", "table", []string{"SPEC §3, CC on"}},
	{"fig. 11 (victim)", "figure", []string{"claim 1", "claim 2"}},
	{"fig. 12 (contributors)", "figure", []string{"claim 3"}},
	{"fig. 14 (Var)", "figure", []string{"claim 4"}},
	{"figs. 11, 12, 14 (chosen setting)", "figure", []string{"claim 5"}},
	{"[002] OMNeT++ validation", "figure", []string{"claim 6"}},
	{"[000] scenario 2 table", "table", []string{"scenario 2"}},
}

// groupOf returns the group and kind of a row's source.
func groupOf(source string) (name, kind string) {
	for _, g := range RowGroups {
		for _, s := range g.Sources {
			if s == source {
				return g.Name, g.Kind
			}
		}
	}
	return source, "unknown"
}

// Provenance kinds of a parameter that no published physical quantity
// gives.
const (
	// Fitted: set so that rows of the check pass.
	Fitted = "fitted"
	// Guessed: set from an order of magnitude or plausibility, not tuned
	// on any row.
	Guessed = "guessed"
)

// ParamProvenance says where the default of a parameter comes from when no
// published physical quantity gives it.
type ParamProvenance struct {
	// Name is the parameter (see Params).
	Name string
	// Kind is Fitted or Guessed.
	Kind string
	// Bounds are the rows that bound a fitted value, from below and from
	// above, as scans of the value at 300 ms and 1 s phases found them
	// (docs/fidelity.md); empty for a guess.
	Bounds []ParamBound
	// Allows is the interval of values the bounding rows leave, e.g.
	// "12 to 24"; empty for a guess.
	Allows string
	// Cross are the values validate --cross refits over: the default and
	// values around it, each in Config.Set's spelling. Empty for a guess.
	Cross []string
	// Why says what the value rests on.
	Why string
}

// ParamBound is a row that bounds a fitted value from one side: it passes
// at the default and fails at Fails. With Physical set it is instead a
// published physical quantity that the value cannot lie beyond.
type ParamBound struct {
	// Row is the row, "Source: Item prefix" as in FidelityRow.
	Row string
	// Below is true for a bound from below (the row fails at smaller
	// values), false for one from above.
	Below bool
	// Fails is a value beyond the bound, in Config.Set's spelling, at
	// which the row fails: at 300 ms phases (and 1 s where docs/fidelity.md
	// says so) and, unless FullPlane, in the tests' scaled-down check
	// (100 ms phases, four points of the plane).
	Fails string
	// FullPlane marks a bound that only the full plane shows (claims 4
	// and 5 compare Var over the long timers with the short ones), which
	// the scaled-down check cannot judge.
	FullPlane bool
	// Physical, when not empty, makes the bound a published physical
	// quantity rather than a row: it cites the source and what its number
	// measures. Row is then empty and Fails is the quantity itself, in
	// Config.Set's spelling: the hardware cannot take less (Below) or more
	// than it, so no check is run there. A part of a round trip bounds the
	// round trip from below; a whole that contains it, from above.
	Physical string
}

// Source names where b comes from: the source of its row (Row up to the
// first ": "), or the citation of a physical quantity.
func (b ParamBound) Source() string {
	if b.Physical != "" {
		return b.Physical
	}
	source, _, _ := strings.Cut(b.Row, ": ")
	return source
}

// String describes b as validate --cross prints it.
func (b ParamBound) String() string {
	side := "above"
	if b.Below {
		side = "below"
	}
	if b.Physical != "" {
		limit := "at most"
		if b.Below {
			limit = "at least"
		}
		return fmt.Sprintf("%s (physical, from %s: %s %s)", b.Physical, side, limit, b.Fails)
	}
	return fmt.Sprintf("%s (from %s; fails at %s)", b.Row, side, b.Fails)
}

// Rows returns the rows that bound p, each once, in the order of Bounds;
// physical quantities are not rows.
func (p *ParamProvenance) Rows() []string {
	var rows []string
	for _, b := range p.Bounds {
		if b.Physical == "" && !slices.Contains(rows, b.Row) {
			rows = append(rows, b.Row)
		}
	}
	return rows
}

// pcieShortRead is the published physical quantity that bounds
// paced_read_latency from below: the read round trip of a set-aside QP
// contains at least one PCIe read of host memory, request to first
// completion. The number is derived (an analysis of link, protocol and
// interface logic, link width not given in the text found) for reads
// between a CPU and a PCIe 1.x device, not measured on the testbed's hosts
// (Sun Fire X2200 M2: Opteron, nForce Professional, ConnectX DDR in PCIe
// 1.1 x8), whose reads also cross HyperTransport and DRAM. docs/fidelity.md
// gives the search that found it.
const pcieShortRead = "PCIe short-packet read latency 240-273 ns (HyperTransport 147-168 ns), derived in a HyperTransport Consortium white paper by B. Holden, 2006, as reported at interconnects.blogspot.com/2006/11/white-paper-ht-beats-pcie-in-latency.html"

// ParamProvenances lists every parameter of the testbed's model that is
// fitted or guessed, fitted first. Every other parameter the testbed's runs
// use is given by a published physical quantity (SPEC §3, Table I, the CCT
// of reference/002.md) or is a mechanism choice (becn_return,
// ccti_timer_start, marking_mode: on or off, not a number).
var ParamProvenances = []ParamProvenance{
	{Name: "ack_req_packets", Kind: Fitted,
		Bounds: []ParamBound{
			{Row: "claim 1: victim, CCTI_Timer 20", Below: true, Fails: "8"},
			{Row: "claim 1: victim, CCTI_Timer 100", Below: true, Fails: "12"},
			{Row: "claim 4: Var at low timers", Below: true, Fails: "12", FullPlane: true},
			{Row: "SPEC §3, CC on: F1–F4", Below: false, Fails: "32"},
			{Row: "SPEC §3, CC on: F1–F5", Below: false, Fails: "32"},
			{Row: "claim 5: threshold 15", Below: false, Fails: "32", FullPlane: true},
		},
		Allows: "13 to 31 (300 ms phases: 12 fails claims 1 and 4, 16 and 24 pass every row, 32 fails the CC-on table's last two phases and claim 5)",
		Cross:  []string{"8", "16", "32"},
		Why:    "the mlx4 driver asks for an ACK at least every 2^8 packets; the adapter's own value is not published; two ACKs per 64 KiB message put claim 1's short-timer edge where the paper does (fig. 11, from below), and one ACK per message leaves the victim throttled in the CC-on table's last two phases (SPEC §3, a table, from above)"},
	{Name: "paced_read_latency", Kind: Fitted,
		Bounds: []ParamBound{
			{Row: "claim 6: F2 + F3", Below: true, Fails: "1.25us"},
			{Physical: pcieShortRead, Below: true, Fails: "240ns"},
			{Row: "SPEC §3, CC on: F1–F5", Below: false, Fails: "4us"},
			{Row: "claim 4: Var at low timers", Below: false, Fails: "3us", FullPlane: true},
			{Row: "claim 5: threshold 15", Below: false, Fails: "4us", FullPlane: true},
			{Row: "claim 6: F2–F5", Below: false, Fails: "5us"},
		},
		Allows: "physically at least 0.24 µs (a PCIe read's own latency); the rows leave just above 2 to 2.9 µs at 300 ms phases (model ib-6: 1.5 µs fails claim 6's F2 + F3 with 12.81, 2 µs too at its edge with 12.51, 2.5 µs passes every row, 3 µs fails claim 4, 4 µs also claim 5 and the CC-on table's last phase); at 1 s phases (ib-5) 2 µs is at claim 6's edge (12.50)",
		Cross:  []string{"1.25us", "2.5us", "5us"},
		Why:    "the order of a PCIe 1.1 read round trip, but no read latency of the testbed's hosts (Sun Fire X2200 M2, PCIe 1.1 x8) is published or was found; it matters only for QPs set aside (IRD beyond a packet's own time). From above three sources bound it (the CC-on table's last phase, figure 14's Var, claim 6's fifth phase); from below, a published PCIe read latency (0.24 µs, derived for PCIe 1.x; every read the adapter makes contains one) rules out smaller values but lies ten times below the value: between it and 2 µs only claim 6 bounds it (two contributors keep a small penalty), a reading of a figure"},
	{Name: "hca_buffer_credits", Kind: Guessed,
		Why: "SPEC §3: adapter buffers are smaller than the switches' 64 KiB; 16 KiB is a guess"},
	{Name: "switch_buffer_credits", Kind: Guessed,
		Why: "SPEC §3: on the order of 1 000 credits (64 KiB) per port; the exact size is not published"},
	{Name: "prop_delay", Kind: Guessed,
		Why: "a few metres of copper; cable lengths are not published"},
	{Name: "fc_delay", Kind: Guessed,
		Why: "a credit update's turnaround; not published"},
}

// LookupProvenance returns the provenance of parameter name, or nil if a
// published quantity gives it.
func LookupProvenance(name string) *ParamProvenance {
	for i := range ParamProvenances {
		if ParamProvenances[i].Name == name {
			return &ParamProvenances[i]
		}
	}
	return nil
}
