package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
	"github.com/ccsweep/ccsweep/report"
	"github.com/ccsweep/ccsweep/store"
	"github.com/ccsweep/ccsweep/sweep"
)

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "count the done, failed and missing points of a sharded run or of one database",
		UsageText: "ccsweep status DIR [--grid-file FILE] [--tasks N]\n" +
			"   ccsweep status DB [--grid-file FILE [--shard I/N]]\n\n" +
			"DIR is an output directory of ccsweep slurm (or one laid out alike: grid.toml, shards/shard-I.db,\n" +
			"results.db): one line per shard, the merged database and overall. For a database, the points of the\n" +
			"grid file (or of its shard) it holds; without --grid-file, what it holds of each grid. Only reads.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "grid-file", Usage: "the grid file to count against (default for DIR: DIR/grid.toml)"},
			&cli.IntFlag{Name: "tasks", Usage: "the number of shards of DIR", DefaultText: "as ccsweep slurm set it up"},
			&cli.StringFlag{Name: "shard", Usage: "with DB and --grid-file: count only shard I/N of the grid"},
		},
		OnUsageError: commandUsageError,
		Action:       statusAction,
	}
}

func statusAction(c *cli.Context) error {
	path := c.Args().First()
	if c.IsSet("db") {
		// --db names a database, as in every command: never a directory.
		if c.NArg() != 0 {
			return usagef("status takes one directory or database, got --db and %d arguments", c.NArg())
		}
		path = c.String("db")
		if fi, err := os.Stat(path); err == nil && fi.IsDir() {
			return usagef("--db %s is a directory, not a database (for a sharded run's directory: ccsweep status %s)", path, path)
		}
	} else if c.NArg() != 1 {
		return usagef("status takes one directory or database, got %d arguments", c.NArg())
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("%s: no such directory or database", path)
	case err != nil:
		return usagef("%s: %v", path, err)
	case fi.IsDir():
		if c.IsSet("shard") {
			return usagef("--shard goes with a database, not the directory %s", path)
		}
		return statusDir(c, path)
	}
	if c.IsSet("tasks") {
		return usagef("--tasks goes with a directory, not the database %s (use --shard I/N)", path)
	}
	return statusDB(c, path)
}

// statusDB prints what one database holds of a grid, or of each grid.
func statusDB(c *cli.Context, path string) error {
	ctx := c.Context
	var g *grids.Grid
	if c.String("grid-file") != "" {
		var err error
		if g, err = loadGrid(c.String("grid-file")); err != nil {
			return err
		}
	} else if c.IsSet("shard") {
		return usagef("--shard needs the grid: give --grid-file FILE")
	}
	shard, err := sweep.ParseShardFlag(c.String("shard"))
	if err != nil {
		return usageError{err}
	}
	db, err := store.OpenReadOnly(path)
	if err != nil {
		return err // run maps store's errors to exit statuses
	}
	defer db.Close()
	out := c.App.Writer
	if g != nil {
		plan, err := sweep.NewPlan(g, shard)
		if err != nil {
			return usageError{err}
		}
		t, err := plan.Tally(ctx, db)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "grid %s (id %s, model %s), shard %s, in %s: %d points: %d done, %d failed, %d missing\n",
			g.Name, grids.ShortID(plan.GridID), model.Version, shard, path, t.Points, t.Done, t.Failed, t.Missing)
		return nil
	}
	gs, err := db.Grids(ctx)
	if err != nil {
		return err
	}
	if len(gs) == 0 {
		fmt.Fprintf(out, "%s holds no grid\n", path)
		return nil
	}
	for _, gr := range gs {
		done, failed, err := report.RecordCounts(ctx, db, gr)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "grid %s (id %s, model %s) in %s: %d points done, %d failed (give --grid-file FILE to count the missing)\n",
			gr.Name, gr.ID[:min(12, len(gr.ID))], gr.ModelVersion, path, done, failed)
	}
	return nil
}
