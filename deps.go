// Blank imports that pin the chosen libraries in go.mod until the packages that use them land.
package main

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/go-echarts/go-echarts/v2/charts"
	_ "github.com/schollz/progressbar/v3"
	_ "github.com/urfave/cli/v2"
	_ "golang.org/x/sync/errgroup"
	_ "modernc.org/sqlite"
)

