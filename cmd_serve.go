package main

import "github.com/urfave/cli/v2"

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:         "serve",
		Usage:        "(not built yet)",
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			return usagef("ccsweep serve is not built yet")
		},
	}
}
