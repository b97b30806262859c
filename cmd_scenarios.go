package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/model"
)

func scenariosCommand() *cli.Command {
	return &cli.Command{
		Name:         "scenarios",
		Usage:        "list the built-in scenarios",
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			for _, s := range model.Scenarios() {
				fmt.Fprintf(c.App.Writer, "%-12s %d phases  %s\n", s.Name, s.Phases, s.Description)
				for _, f := range s.Flows {
					fmt.Fprintf(c.App.Writer, "    %-3s %s->%s  %-11s joins at phase %d\n", f.Name, f.Src, f.Dst, f.Role, f.StartPhase)
				}
			}
			return nil
		},
	}
}
