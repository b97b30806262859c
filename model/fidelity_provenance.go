package model

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
	// Rows are the rows a fitted value was chosen on, each "Source: Item
	// prefix" as in FidelityRow; empty for a guess.
	Rows []string
	// Cross are the values validate --cross refits over: the default and
	// values around it, each in Config.Set's spelling. Empty for a guess.
	Cross []string
	// Why says what the value rests on.
	Why string
}

// ParamProvenances lists every parameter of the testbed's model that is
// fitted or guessed, fitted first. Every other parameter the testbed's runs
// use is given by a published physical quantity (SPEC §3, Table I, the CCT
// of reference/002.md) or is a mechanism choice (becn_return,
// ccti_timer_start, marking_mode: on or off, not a number).
var ParamProvenances = []ParamProvenance{
	{Name: "ack_req_packets", Kind: Fitted,
		Rows:  []string{"claim 1: victim, CCTI_Timer 20", "claim 1: victim, CCTI_Timer 100"},
		Cross: []string{"8", "16", "32"},
		Why:   "the mlx4 driver asks for an ACK at least every 2^8 packets; the adapter's own value is not published; two ACKs per 64 KiB message put claim 1's short-timer edge where the paper does"},
	{Name: "paced_read_latency", Kind: Fitted,
		Rows:  []string{"claim 6: F2 + F3", "claim 6: F2–F5", "SPEC §3, CC on: F1–F5"},
		Cross: []string{"1.25us", "2.5us", "5us"},
		Why:   "the order of a PCIe 1.1 read round trip; no figure for the testbed's hosts is published; it matters only for QPs set aside (IRD beyond a packet's own time): claim 6 needs at least about 2.1 µs (2 µs gives 12.50, at the edge of 10–12.5), the victim of CC on F1–F5 (and at 5 µs claim 6's fifth phase) at most about 3.9 µs; 2.5 µs lies inside (12.22)"},
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
