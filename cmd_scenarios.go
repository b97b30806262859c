package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/model/workload"
)

// maxListedFlows is how many greedy flows a scenario's listing shows.
const maxListedFlows = 8

// sourceCount says which hosts send a traffic.
func sourceCount(t workload.TrafficSpec) string {
	if len(t.Sources) == 0 {
		return "every host"
	}
	return fmt.Sprintf("%d hosts", len(t.Sources))
}

func scenariosCommand() *cli.Command {
	return &cli.Command{
		Name:         "scenarios",
		Usage:        "list the built-in scenarios",
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			for _, s := range workload.Scenarios() {
				fmt.Fprintf(c.App.Writer, "%-12s %d phases  %s\n", s.Name, s.Phases, s.Description)
				for i, f := range s.Flows {
					if i == maxListedFlows && len(s.Flows) > maxListedFlows+1 {
						fmt.Fprintf(c.App.Writer, "    ... and %d more flows\n", len(s.Flows)-i)
						break
					}
					fmt.Fprintf(c.App.Writer, "    %-3s %s->%s  %-11s joins at phase %d\n", f.Name, f.Src, f.Dst, f.Role, f.StartPhase)
				}
				for _, t := range s.Traffic {
					fmt.Fprintf(c.App.Writer, "    %s: %s traffic, %s arrivals, from %s\n", t.Name, t.Pattern, t.Arrival, sourceCount(t))
				}
			}
			return nil
		},
	}
}
