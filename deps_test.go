package main

import (
	"go/doc/comment"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// allowedImports lists, for each package of the module, the module's
// packages its non-test files may import: engine <- model <- sweep -> store;
// grids parses into plain values; report reads the store. Every package must
// be listed, as in the standard library's go/build/deps_test.go, and every
// package's doc comment states its rule in an "Imports" section
// (TestPackageDocsStateImportRules), so that go doc reads as the design.
var allowedImports = map[string][]string{
	".":                {"engine", "grids", "model", "model/fabric", "model/fidelity", "model/params", "model/workload", "report", "report/rank", "store", "store/atomicfile", "sweep", "sweep/adaptive", "sweep/slurm"},
	"engine":           {},
	"model":            {"engine", "model/fabric", "model/params", "model/workload"},
	"model/fabric":     {},
	"model/params":     {"engine", "model/fabric"},
	"model/workload":   {"engine", "model/fabric", "model/params"},
	"model/fidelity":   {"engine", "model", "model/params", "model/workload"},
	"grids":            {"engine", "grids/param", "grids/point", "model", "model/fabric", "model/params", "model/workload"},
	"grids/param":      {},
	"grids/point":      {"grids/param"},
	"store":            {"grids/param", "grids/point", "store/atomicfile"},
	"store/atomicfile": {},
	"sweep":            {"engine", "grids", "model", "model/params", "model/workload", "store"},
	"sweep/adaptive":   {"engine", "grids", "model", "store", "sweep"}, // imported only by sweep/slurm and the command
	"sweep/slurm":      {"grids", "model", "store", "store/atomicfile", "sweep", "sweep/adaptive"},
	"report":           {"engine", "grids", "model", "model/params", "model/workload", "report/rank", "store", "store/atomicfile"},
	"report/rank":      {"grids", "model", "model/params", "store"},
}

const module = "github.com/ccsweep/ccsweep"

// modulePackages returns the directories below the module root that hold
// non-test Go files, as slash paths ("." for the root).
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dir := filepath.ToSlash(filepath.Dir(path))
			pkgs[dir] = append(pkgs[dir], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

func TestPackageImportsGoOneWay(t *testing.T) {
	pkgs := modulePackages(t)
	for pkg := range pkgs {
		if _, ok := allowedImports[pkg]; !ok {
			t.Errorf("package %s is not in allowedImports: add it with the module packages it may import", pkg)
		}
	}
	for pkg, allowed := range allowedImports {
		t.Run(pkg, func(t *testing.T) {
			files := pkgs[pkg]
			if len(files) == 0 {
				t.Fatalf("%s: listed in allowedImports but has no Go files", pkg)
			}
			got := map[string]bool{}
			for _, f := range files {
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
					if dep, ok := strings.CutPrefix(path, module+"/"); ok {
						got[dep] = true
					}
				}
			}
			var bad []string
			for dep := range got {
				if !slices.Contains(allowed, dep) {
					bad = append(bad, dep)
				}
			}
			sort.Strings(bad)
			if len(bad) > 0 {
				t.Errorf("%s imports %v; it may import only %v", pkg, bad, allowed)
			}
		})
	}
}

// TestPackageDocsStateImportRules checks that each package's doc comment has
// an "# Imports" section that names every module package allowedImports lets
// it import and says what it must never import, so that a rule changed in
// the table is changed in the documentation too.
func TestPackageDocsStateImportRules(t *testing.T) {
	for pkg, files := range modulePackages(t) {
		allowed, ok := allowedImports[pkg]
		if !ok {
			continue // TestPackageImportsGoOneWay reports it
		}
		t.Run(pkg, func(t *testing.T) {
			section := importsSection(t, files)
			if section == "" {
				t.Fatalf("%s: the package doc comment has no \"# Imports\" section stating its import rule", pkg)
			}
			if !strings.Contains(section, "never") {
				t.Errorf("%s: the Imports section does not say what the package must never import:\n%s", pkg, section)
			}
			for _, dep := range allowed {
				if !regexp.MustCompile(`(^|[^\w/])` + regexp.QuoteMeta(dep) + `([^\w/]|$)`).MatchString(section) {
					t.Errorf("%s may import %s, but its Imports section does not name it:\n%s", pkg, dep, section)
				}
			}
		})
	}
}

// importsSection returns the text of the "# Imports" section of the package
// doc comment found in files, up to the next heading; "" if there is none.
func importsSection(t *testing.T, files []string) string {
	t.Helper()
	for _, f := range files {
		file, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if file.Doc == nil {
			continue
		}
		var p comment.Parser
		var text []string
		in := false
		for _, block := range p.Parse(file.Doc.Text()).Content {
			if h, ok := block.(*comment.Heading); ok {
				in = headingText(h) == "Imports"
				continue
			}
			if para, ok := block.(*comment.Paragraph); ok && in {
				for _, x := range para.Text {
					if p, ok := x.(comment.Plain); ok {
						text = append(text, string(p))
					}
				}
			}
		}
		return strings.Join(text, " ")
	}
	return ""
}

// headingText returns the plain text of a doc comment heading.
func headingText(h *comment.Heading) string {
	var b strings.Builder
	for _, x := range h.Text {
		if p, ok := x.(comment.Plain); ok {
			b.WriteString(string(p))
		}
	}
	return b.String()
}

// TestNoBuildOutputsTracked keeps binaries and large files out of the
// repository: an early build of ccsweep once sat at its root.
func TestNoBuildOutputsTracked(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Skip("not a git checkout:", err)
	}
	const maxSize = 1 << 20
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		fi, err := os.Lstat(f)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		if fi.Size() > maxSize {
			t.Errorf("%s is tracked and %d bytes; keep files over 1 MB out of the repository", f, fi.Size())
		}
		if fi.Mode().Perm()&0o111 != 0 && !isScript(t, f) {
			t.Errorf("%s is tracked and executable but not a script: a build output?", f)
		}
	}
}

// isScript reports whether an executable file starts with "#!".
func isScript(t *testing.T, path string) bool {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 2)
	n, _ := f.Read(head)
	return n == 2 && string(head) == "#!"
}
