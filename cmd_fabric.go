package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/model/fabric"
	"github.com/ccsweep/ccsweep/model/workload"
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
			"(.ci/opensm-oracle.sh routes it with OpenSM's engines; see docs/fabrics.md).\n" +
			"--read-lfts also counts the entries in which the tables read differ from the\n" +
			"scenario's routing engine (the line \"vs ENGINE\"; in JSON compared_with,\n" +
			"entries_compared and entries_differing).",
		Flags: []cli.Flag{
			scenarioFlag(),
			&cli.StringFlag{Name: "routing", Usage: "routing algorithm instead of the scenario's: " + strings.Join(fabric.RoutingAlgorithms, ", ")},
			&cli.BoolFlag{Name: "json", Usage: "print JSON"},
			&cli.StringFlag{Name: "lfts", Usage: "write the forwarding tables to FILE in OpenSM's opensm-lfts.dump format"},
			&cli.StringFlag{Name: "ibsim", Usage: "write the fabric to FILE as an ibsim net file"},
			&cli.StringFlag{Name: "read-lfts", Usage: "route by the forwarding tables of FILE (an opensm-lfts.dump, ibroute or dump_lfts.sh output) instead of a routing engine"},
		},
		OnUsageError: commandUsageError,
		Action:       fabricAction,
	}
}

func fabricAction(c *cli.Context) error {
	name, ok := scenarioArg(c)
	if !ok {
		return usagef("fabric takes one scenario: a built-in name (%s) or a scenario file NAME.toml", strings.Join(workload.ScenarioNames(), ", "))
	}
	sc, files, err := loadScenario(name, "")
	if err != nil {
		return err
	}
	ins := scenarioInputs(files)
	routing := c.String("routing")
	if c.IsSet("routing") && !slices.Contains(fabric.RoutingAlgorithms, routing) {
		return usagef("--routing: want one of %s, not %q", strings.Join(fabric.RoutingAlgorithms, ", "), routing)
	}
	ins = append(ins, ioPath{"--read-lfts", c.String("read-lfts")})
	if err := checkOutputs([]ioPath{{"--lfts", c.String("lfts")}, {"--ibsim", c.String("ibsim")}}, ins); err != nil {
		return err
	}
	var info *fabric.FabricInfo
	if path := c.String("read-lfts"); path != "" {
		if c.IsSet("routing") {
			return usagef("--routing and --read-lfts: give one; the tables read are the routing")
		}
		info, err = inspectLFTs(c, sc, path)
		if err == nil {
			compareWithEngine(c, sc, info)
		}
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
		return info.WriteJSON(c.App.Writer, name)
	}
	info.WriteText(c.App.Writer, name)
	return nil
}

// compareWithEngine sets info.Compared to how far the tables read are from
// those of sc's routing engine, where sc names one (not tables of its own);
// a routing that fails is a warning on stderr.
func compareWithEngine(c *cli.Context, sc *workload.Scenario, info *fabric.FabricInfo) {
	cfg := sc.Config()
	if _, text := sc.LFTsFile(&cfg); text != nil {
		return
	}
	engine, err := model.InspectScenario(sc, cfg, "")
	if err == nil {
		err = info.CompareTables(engine)
	}
	if err != nil {
		fmt.Fprintf(c.App.ErrWriter, "ccsweep: warning: the tables are not compared with the scenario's routing %s: %v\n", sc.RoutingFor(&cfg), err)
	}
}

// inspectLFTs describes sc's fabric routed by the tables in the file at
// path, printing the reader's warnings on stderr.
func inspectLFTs(c *cli.Context, sc *workload.Scenario, path string) (*fabric.FabricInfo, error) {
	cfg := sc.Config()
	t, err := sc.Build(&cfg)
	if err != nil {
		return nil, err
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, grids.PlainPathError("--read-lfts "+path, err)
	}
	defer fh.Close()
	info, warn, err := fabric.InspectLFTs(t, path, fh, cfg.VLs)
	for _, w := range warn {
		fmt.Fprintln(c.App.ErrWriter, "ccsweep: warning:", w)
	}
	return info, err
}
