package main

import (
	"fmt"
	"net"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:      "serve",
		Usage:     "browse a results database in a web browser, live while a sweep writes it",
		UsageText: "ccsweep serve DB [--addr 127.0.0.1:8080] [--assets DIR]",
		Description: "Serves a read-only page to pick a grid, a metric and two axes, fix the other axes' values,\n" +
			"and click a point for its time series and parameters. Binds to loopback unless --addr says otherwise.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:8080", Usage: "address to listen on"},
			assetsFlag(),
		},
		OnUsageError: commandUsageError,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("serve takes one database, got %d arguments", c.NArg())
			}
			if _, _, err := net.SplitHostPort(c.String("addr")); err != nil {
				return usagef("--addr %s: %v", c.String("addr"), err)
			}
			if w := exposureWarning(c.String("addr")); w != "" {
				fmt.Fprintln(c.App.ErrWriter, "ccsweep: warning: "+w)
			}
			assets, err := loadAssets(c.String("assets"))
			if err != nil {
				return err
			}
			db, err := store.OpenReadOnly(c.Args().First())
			if err != nil {
				return err
			}
			defer db.Close()
			srv := report.NewServer(db, report.ServerOptions{Assets: assets, Version: version})
			err = srv.ListenAndServe(c.Context, c.String("addr"), func(a net.Addr) {
				fmt.Fprintf(c.App.ErrWriter, "serving %s at http://%s/ (Ctrl-C to stop)\n", c.Args().First(), a)
			})
			if err != nil {
				return fmt.Errorf("serve: %w", err)
			}
			// Stopped by a signal: say so and exit 128+n, as every command does.
			return c.Context.Err()
		},
	}
}

// exposureWarning returns a warning when addr (host:port) is not a loopback
// address: the results then become visible to whoever can reach this
// machine. It returns "" for loopback addresses and "localhost".
func exposureWarning(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || report.LoopbackHost(host) {
		return ""
	}
	where := host
	if host == "" || (net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified()) {
		where = "every network interface"
	}
	return fmt.Sprintf("--addr %s listens on %s: the results become visible to anyone on the network who can reach it", addr, where)
}
