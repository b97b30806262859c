package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxCommandLines is the most lines a command file may have: a command
// parses its flags, calls a package and prints (docs/guarantees.md,
// "One spelling for one meaning").
const maxCommandLines = 150

// commandLinesExempt names the command files still over the limit, each
// with why; an entry must go once its file is thin.
var commandLinesExempt = map[string]string{}

func TestCommandFilesAreThin(t *testing.T) {
	files, err := filepath.Glob("cmd_*.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seen++
		n := bytes.Count(src, []byte("\n"))
		why, exempt := commandLinesExempt[f]
		switch {
		case n > maxCommandLines && !exempt:
			t.Errorf("%s has %d lines, more than %d: move its logic into the package that owns the idea", f, n, maxCommandLines)
		case n <= maxCommandLines && exempt:
			t.Errorf("%s has %d lines, within the limit of %d: remove it from commandLinesExempt (%s)", f, n, maxCommandLines, why)
		}
	}
	if seen < 10 {
		t.Fatalf("found %d command files; want the command files of the root package", seen)
	}
}
