package main

import "github.com/urfave/cli/v2"

func mergeCommand() *cli.Command {
	return &cli.Command{
		Name:         "merge",
		Usage:        "(not built yet)",
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			return usagef("ccsweep merge is not built yet")
		},
	}
}
