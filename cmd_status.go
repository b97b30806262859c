package main

import "github.com/urfave/cli/v2"

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:         "status",
		Usage:        "(not built yet)",
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			return usagef("ccsweep status is not built yet")
		},
	}
}
