package main

//go:generate go test -run ^TestReferenceIsCurrent$ -update .

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cpuguy83/go-md2man/v2/md2man"
)

// The command reference (docs/reference.md) and the man page
// (docs/ccsweep.1) are generated from the command definitions: each
// command's section is its `ccsweep help CMD` page. `go generate .` (or
// `go test -run TestReferenceIsCurrent -update .`) rewrites them.
const (
	referencePath = "docs/reference.md"
	manPath       = "docs/ccsweep.1"
)

// helpPages returns `ccsweep --help` and each command's help, by command
// name ("" for ccsweep's own), in the order ccsweep lists them.
func helpPages(t *testing.T) (names []string, pages map[string]string) {
	t.Helper()
	pages = map[string]string{}
	out, stderr, code := ccsweep(t, "--help")
	if code != 0 {
		t.Fatalf("ccsweep --help: exit %d %s", code, stderr)
	}
	names, pages[""] = []string{""}, out
	for _, cmd := range newApp(io.Discard, io.Discard).Commands {
		out, stderr, code := ccsweep(t, "help", cmd.Name)
		if code != 0 {
			t.Fatalf("ccsweep help %s: exit %d %s", cmd.Name, code, stderr)
		}
		names, pages[cmd.Name] = append(names, cmd.Name), out
	}
	return names, pages
}

// referenceMarkdown is docs/reference.md.
func referenceMarkdown(names []string, pages map[string]string) string {
	var b strings.Builder
	b.WriteString("# Command reference\n\n" +
		"<!-- Generated from the command definitions by `go generate .` (cmd_reference_test.go); do not edit. -->\n\n" +
		"Each section is what `ccsweep help COMMAND` (or `ccsweep COMMAND --help`) prints. The same text\n" +
		"is the man page [ccsweep.1](ccsweep.1) (`man ./docs/ccsweep.1`). Exit statuses are defined in\n" +
		"[guarantees.md](guarantees.md#exit-statuses).\n\n")
	for _, name := range names {
		b.WriteString("- [ccsweep " + name + "](#ccsweep" + strings.TrimSpace("-"+name) + ")\n")
	}
	for _, name := range names {
		b.WriteString("\n## ccsweep " + name + "\n\n```\n" + strings.TrimRight(pages[name], "\n") + "\n```\n")
	}
	return strings.ReplaceAll(b.String(), "## ccsweep \n", "## ccsweep\n")
}

// manPage is docs/ccsweep.1: the same pages as roff, through go-md2man.
func manPage(names []string, pages map[string]string) []byte {
	var b strings.Builder
	b.WriteString("% CCSWEEP 1\n\n# NAME\n\nccsweep - simulate InfiniBand congestion control and sweep its parameters\n\n" +
		"# SYNOPSIS\n\n**ccsweep** *COMMAND* [*OPTIONS*] [*ARGUMENTS*...]\n\n**ccsweep** *GRID.toml* [*OPTIONS*]\n\n" +
		"# DESCRIPTION\n\n```\n" + strings.TrimRight(pages[""], "\n") + "\n```\n\n# COMMANDS\n")
	for _, name := range names[1:] {
		b.WriteString("\n## " + name + "\n\n```\n" + strings.TrimRight(pages[name], "\n") + "\n```\n")
	}
	b.WriteString("\n# EXIT STATUS\n\n0 done; 1 a run failed, or a row of **ccsweep validate** did; 2 bad input; " +
		"3 a sweep ended with points undone (run it again); 128+n stopped by signal n. " +
		"Each command's section lists those that apply to it.\n\n" +
		"# SEE ALSO\n\nThe documentation in docs/ of the ccsweep source: reference.md (this text), sweeps.md, " +
		"scenarios.md, reports.md, clusters.md, schema.md, guarantees.md.\n")
	return md2man.Render([]byte(b.String()))
}

// TestReferenceIsCurrent fails when docs/reference.md or docs/ccsweep.1
// differ from what the command definitions generate: a command, flag or
// help text changed without `go generate .`.
func TestReferenceIsCurrent(t *testing.T) {
	names, pages := helpPages(t)
	want := map[string][]byte{referencePath: []byte(referenceMarkdown(names, pages)), manPath: manPage(names, pages)}
	for path, b := range want {
		if *update {
			if err := os.WriteFile(filepath.FromSlash(path), b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(filepath.FromSlash(path))
		if err != nil {
			t.Fatalf("%v (run go generate .)", err)
		}
		if !bytes.Equal(got, b) {
			t.Errorf("%s is stale: the command definitions changed; run go generate . and commit it", path)
		}
	}
	// The reference holds every command's help whole.
	for _, name := range names {
		if !strings.Contains(string(want[referencePath]), "\n```\n"+strings.TrimRight(pages[name], "\n")+"\n```\n") {
			t.Errorf("the reference lacks ccsweep %s's help", name)
		}
	}
}
