package grids_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccsweep/ccsweep/engine"
	"github.com/ccsweep/ccsweep/grids"
	"github.com/ccsweep/ccsweep/model"
)

// FuzzParseScenario wants the reader of scenario files never to panic, to
// refuse only with problems that name a line and say what in one line, and
// to return only scenarios that build and run: what it accepts on a fabric
// of at most 64 nodes runs 20 µs (a run may still refuse, with an error,
// for what only building shows, such as a route that does not exist). The
// seeds are the example scenarios; an included file is read from
// examples/fabrics by its base name.
func FuzzParseScenario(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "scenarios", "*.toml"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no example scenarios: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("[topology]\nkind = \"fattree\"\nk = 2\n[[traffic]]\npattern = \"uniform\"\narrival = \"poisson\"\nload = 0.3\n"))
	f.Add([]byte("[topology]\nkind = \"mesh\"\ndims = [2, 3]\n[routing]\nalgorithm = \"dor\"\n[[flow]]\nsrc = \"H1\"\ndst = \"H2\"\n"))
	read := func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join("..", "examples", "fabrics", filepath.Base(name)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, _, err := grids.ParseScenario("fuzz.toml", data, read)
		if err != nil {
			var ge *grids.Error
			if !errors.As(err, &ge) || len(ge.Problems) == 0 {
				t.Fatalf("error %T without problems: %v", err, err)
			}
			for _, p := range ge.Problems {
				if p.Line < 1 || p.Msg == "" || strings.Contains(p.Msg, "\n") {
					t.Fatalf("malformed problem %#v", p)
				}
			}
			return
		}
		cfg := sc.Config()
		top, err := sc.Build(&cfg)
		if err != nil || len(top.Nodes) > 64 {
			return
		}
		cfg.Phase = 20 * engine.Microsecond / engine.Time(max(sc.Phases, 1))
		cfg.Sample = min(cfg.Sample, cfg.Phase)
		if cfg.Validate() != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if r, err := model.RunContext(ctx, sc, cfg, 1); err == nil && r == nil {
			t.Fatal("a run without an error returned no result")
		}
	})
}
