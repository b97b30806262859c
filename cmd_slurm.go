package main

import "github.com/urfave/cli/v2"

func slurmCommand() *cli.Command {
	return &cli.Command{
		Name:         "slurm",
		Usage:        "(not built yet)",
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			return usagef("ccsweep slurm is not built yet")
		},
	}
}
