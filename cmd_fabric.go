package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
)

func fabricCommand() *cli.Command {
	return &cli.Command{
		Name:  "fabric",
		Usage: "route a scenario's fabric and describe it: size, links, roots, deadlock check, path balance",
		UsageText: "ccsweep fabric NAME|FILE.toml [--routing minhop|updn|ftree|dor] [--json] [--lfts FILE] [--ibsim FILE]\n" +
			"   ccsweep fabric NAME|FILE.toml --read-lfts opensm-lfts.dump [--json]\n" +
			"   ccsweep fabric --scenario NAME|FILE.toml [...]",
		Description: "The path balance counts the routes crossing each directed link out of a switch (to a\n" +
			"switch or a host) when every host port sends to every other host port on its base LID\n" +
			"(ports of one adapter excepted): max, mean and p99 over all of them, and max and mean over\n" +
			"the switch-to-switch links alone. --lfts writes the forwarding tables in OpenSM's\n" +
			"opensm-lfts.dump format (LIDs and GUIDs numbered by ccsweep; see model/lftdump.go).\n" +
			"--ibsim writes the fabric as an ibsim net file, for OpenSM run on ibsim\n" +
			"(.ci/opensm-oracle.sh routes it with OpenSM's engines; see docs/fabrics.md).",
		Flags: []cli.Flag{
			scenarioFlag(),
			&cli.StringFlag{Name: "routing", Usage: "routing algorithm instead of the scenario's: " + strings.Join(model.RoutingAlgorithms, ", ")},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.StringFlag{Name: "lfts", Usage: "write the forwarding tables to FILE in OpenSM's opensm-lfts.dump format"},
			&cli.StringFlag{Name: "ibsim", Usage: "write the fabric to FILE as an ibsim net file"},
			&cli.StringFlag{Name: "read-lfts", Usage: "route by the forwarding tables of FILE (an opensm-lfts.dump, ibroute or dump_lfts.sh output) instead of a routing engine"},
		},
		OnUsageError: commandUsageError,
		Action:       fabricAction,
	}
}

// fabricJSON is fabric --json's output.
type fabricJSON struct {
	Scenario         string           `json:"scenario"`
	Hosts            int              `json:"hosts"`
	Switches         int              `json:"switches"`
	Links            []fabricLinkJSON `json:"links"`
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
}

type fabricLinkJSON struct {
	Gbps        float64 `json:"gbps"`
	HostLinks   int     `json:"host_links"`
	SwitchLinks int     `json:"switch_links"`
}

func fabricAction(c *cli.Context) error {
	name, ok := scenarioArg(c)
	if !ok {
		return usagef("fabric takes one scenario: a built-in name (%s) or a scenario file NAME.toml", strings.Join(model.ScenarioNames(), ", "))
	}
	var sc *model.Scenario
	var ins []ioPath
	if grids.IsScenarioFile(name) {
		var files []string
		var err error
		if sc, files, err = grids.LoadScenarioFiles(name); err != nil {
			var ge *grids.Error
			if errors.As(err, &ge) {
				return err // one line per problem, as sim prints them
			}
			return usagef("%v", err)
		}
		ins = scenarioInputs(files)
	} else if sc = model.LookupScenario(name); sc == nil {
		return usagef("unknown scenario %q (known: %s, or a scenario file NAME.toml)", name, strings.Join(model.ScenarioNames(), ", "))
	}
	routing := c.String("routing")
	if c.IsSet("routing") && !slices.Contains(model.RoutingAlgorithms, routing) {
		return usagef("--routing: want one of %s, not %q", strings.Join(model.RoutingAlgorithms, ", "), routing)
	}
	ins = append(ins, ioPath{"--read-lfts", c.String("read-lfts")})
	if err := checkOutputs([]ioPath{{"--lfts", c.String("lfts")}, {"--ibsim", c.String("ibsim")}}, ins); err != nil {
		return err
	}
	var info *model.FabricInfo
	var err error
	if path := c.String("read-lfts"); path != "" {
		if c.IsSet("routing") {
			return usagef("--routing and --read-lfts: give one; the tables read are the routing")
		}
		info, err = inspectLFTs(c, sc, path)
	} else {
		info, err = model.InspectScenario(sc, sc.Config(), routing)
	}
	if err != nil {
		return usagef("%v", err)
	}
	if path := c.String("lfts"); path != "" {
		if err := writeOutput(c.Context, path, c.App.Writer, info.WriteLFTs); err != nil {
			return err
		}
	}
	if path := c.String("ibsim"); path != "" {
		if err := writeOutput(c.Context, path, c.App.Writer, info.Topology().WriteIBSimNet); err != nil {
			return err
		}
	}
	if c.Bool("json") {
		return writeFabricJSON(c.App.Writer, name, info)
	}
	writeFabricText(c.App.Writer, name, info)
	return nil
}

// inspectLFTs describes sc's fabric routed by the tables in the file at
// path, printing the reader's warnings on stderr.
func inspectLFTs(c *cli.Context, sc *model.Scenario, path string) (*model.FabricInfo, error) {
	cfg := sc.Config()
	t, err := sc.Build(&cfg)
	if err != nil {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	info, warn, err := model.InspectLFTs(t, path, fh, cfg.VLs)
	for _, w := range warn {
		fmt.Fprintln(c.App.ErrWriter, "ccsweep: warning:", w)
	}
	return info, err
}

func writeFabricJSON(w io.Writer, name string, info *model.FabricInfo) error {
	b := info.Balance
	out := fabricJSON{Scenario: name, Hosts: info.Hosts, Switches: info.Switches, Levels: info.Levels,
		Routing: info.Routing, LMC: info.LMC, Roots: info.Roots, VLsNeeded: info.VLsNeeded, VLs: info.VLs,
		DeadlockFree: info.Deadlock == "", Deadlock: info.Deadlock,
		BalancedLinks: b.Links, MaxRoutes: b.Max, MeanRoutes: b.Mean, P99Routes: b.P99,
		SwitchLinks: b.SwitchLinks, MaxSwitchRoutes: b.SwitchMax, MeanSwitchRoutes: b.SwitchMean,
		Links: []fabricLinkJSON{}}
	if out.Roots == nil {
		out.Roots = []string{}
	}
	for _, l := range info.Links {
		out.Links = append(out.Links, fabricLinkJSON{Gbps: l.Gbps, HostLinks: l.HostLinks, SwitchLinks: l.SwitchLinks})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// maxListedRoots is how many roots the text output names.
const maxListedRoots = 8

func writeFabricText(w io.Writer, name string, info *model.FabricInfo) {
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
}
