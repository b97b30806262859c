package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// allowedImports lists, for each package, the ccsweep packages its non-test
// files may import: engine <- model <- sweep -> store; grids parses into
// plain values; report reads the store. (The standard library's
// go/build/deps_test.go keeps its own layers the same way.)
var allowedImports = map[string][]string{
	"engine": {},
	"model":  {"engine"},
	"grids":  {"engine", "model"},
	"store":  {},
	"sweep":  {"engine", "grids", "model", "store"},
	"report": {"engine", "grids", "model", "store"},
}

func TestPackageImportsGoOneWay(t *testing.T) {
	const module = "github.com/ccsweep/ccsweep/"
	for pkg, allowed := range allowedImports {
		files, err := filepath.Glob(filepath.Join(pkg, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Logf("%s: not written yet", pkg)
			continue
		}
		got := map[string]bool{}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range file.Imports {
				path := strings.Trim(imp.Path.Value, `"`)
				if strings.HasPrefix(path, module) {
					got[strings.TrimPrefix(path, module)] = true
				}
			}
		}
		var bad []string
		for dep := range got {
			ok := false
			for _, a := range allowed {
				ok = ok || dep == a
			}
			if !ok {
				bad = append(bad, dep)
			}
		}
		sort.Strings(bad)
		if len(bad) > 0 {
			t.Errorf("%s imports %v; it may import only %v", pkg, bad, allowed)
		}
	}
}
