package main

import "github.com/urfave/cli/v2"

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:         "report",
		Usage:        "(not built yet)",
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			return usagef("ccsweep report is not built yet")
		},
	}
}
