package fabric

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// FabricJSON is the document `ccsweep fabric --json` prints
// (FabricInfo.WriteJSON).
type FabricJSON struct {
	Scenario         string           `json:"scenario"`
	Hosts            int              `json:"hosts"`
	Switches         int              `json:"switches"`
	Links            []FabricLinkJSON `json:"links"`
	Levels           int              `json:"levels"`
	Routing          string           `json:"routing"`
	LMC              int              `json:"lmc"`
	Roots            []string         `json:"roots"`
	VLsNeeded        int              `json:"vls_needed"`
	VLs              int              `json:"vls"`
	DeadlockFree     bool             `json:"deadlock_free"`
	Deadlock         string           `json:"deadlock,omitempty"`
	BalancedLinks    int              `json:"balanced_links"`
	MaxRoutes        int64            `json:"max_routes_per_link"`
	MeanRoutes       float64          `json:"mean_routes_per_link"`
	P99Routes        int64            `json:"p99_routes_per_link"`
	SwitchLinks      int              `json:"switch_links"`
	MaxSwitchRoutes  int64            `json:"max_routes_per_switch_link"`
	MeanSwitchRoutes float64          `json:"mean_routes_per_switch_link"`
	// ComparedWith and the two counts below are set where the tables were
	// compared with a routing engine's (fabric --read-lfts).
	ComparedWith     string `json:"compared_with,omitempty"`
	EntriesCompared  int    `json:"entries_compared,omitempty"`
	EntriesDiffering *int   `json:"entries_differing,omitempty"`
}

// FabricLinkJSON counts a FabricJSON's links of one speed.
type FabricLinkJSON struct {
	Gbps        float64 `json:"gbps"`
	HostLinks   int     `json:"host_links"`
	SwitchLinks int     `json:"switch_links"`
}

// WriteJSON prints info as `ccsweep fabric --json` does, the fabric
// named name, indented by two spaces.
func (info *FabricInfo) WriteJSON(w io.Writer, name string) error {
	b := info.Balance
	out := FabricJSON{Scenario: name, Hosts: info.Hosts, Switches: info.Switches, Levels: info.Levels,
		Routing: info.Routing, LMC: info.LMC, Roots: info.Roots, VLsNeeded: info.VLsNeeded, VLs: info.VLs,
		DeadlockFree: info.Deadlock == "", Deadlock: info.Deadlock,
		BalancedLinks: b.Links, MaxRoutes: b.Max, MeanRoutes: b.Mean, P99Routes: b.P99,
		SwitchLinks: b.SwitchLinks, MaxSwitchRoutes: b.SwitchMax, MeanSwitchRoutes: b.SwitchMean,
		Links: []FabricLinkJSON{}}
	if out.Roots == nil {
		out.Roots = []string{}
	}
	for _, l := range info.Links {
		out.Links = append(out.Links, FabricLinkJSON(l))
	}
	if c := info.Compared; c != nil {
		out.ComparedWith, out.EntriesCompared, out.EntriesDiffering = c.Engine, c.Entries, &c.Differ
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// maxListedRoots is how many roots the text output names.
const maxListedRoots = 8

// WriteText prints info as `ccsweep fabric` does, a line per property of
// the fabric named name.
func (info *FabricInfo) WriteText(w io.Writer, name string) {
	b := info.Balance
	fmt.Fprintf(w, "fabric      %s\n", name)
	fmt.Fprintf(w, "hosts       %d\n", info.Hosts)
	fmt.Fprintf(w, "switches    %d\n", info.Switches)
	for _, l := range info.Links {
		fmt.Fprintf(w, "links       %.6g Gbit/s: %d host, %d switch-switch\n", l.Gbps, l.HostLinks, l.SwitchLinks)
	}
	if info.Levels > 0 {
		fmt.Fprintf(w, "levels      %d\n", info.Levels)
	} else {
		fmt.Fprintf(w, "levels      none (not a generated tree)\n")
	}
	fmt.Fprintf(w, "routing     %s, lmc %d\n", info.Routing, info.LMC)
	if len(info.Roots) > 0 {
		roots := info.Roots
		more := ""
		if len(roots) > maxListedRoots {
			roots, more = roots[:maxListedRoots], fmt.Sprintf(" ... and %d more", len(info.Roots)-maxListedRoots)
		}
		fmt.Fprintf(w, "roots       %d: %s%s\n", len(info.Roots), strings.Join(roots, " "), more)
	}
	fmt.Fprintf(w, "VLs needed  %d (the scenario has %d)\n", info.VLsNeeded, info.VLs)
	if info.Deadlock == "" {
		fmt.Fprintf(w, "deadlock    free on %d VLs\n", info.VLs)
	} else {
		fmt.Fprintf(w, "deadlock    %s\n", info.Deadlock)
	}
	fmt.Fprintf(w, "balance     all-to-all routes per link out of a switch (%d links): max %d, mean %.1f, p99 %d\n", b.Links, b.Max, b.Mean, b.P99)
	fmt.Fprintf(w, "            switch-switch links only (%d): max %d, mean %.1f\n", b.SwitchLinks, b.SwitchMax, b.SwitchMean)
	if c := info.Compared; c != nil {
		what := "every switch's entry for every host LID"
		if c.BaseLIDsOnly {
			what = "every switch's entry for every host's base LID: the LMCs differ"
		}
		same := ""
		if c.Differ == 0 {
			same = ": the same tables"
		}
		fmt.Fprintf(w, "vs %-8s %d of %d entries differ (%s)%s\n", c.Engine, c.Differ, c.Entries, what, same)
	}
}
