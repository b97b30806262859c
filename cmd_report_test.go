package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const reportGrid = `
name     = "rep"
scenario = "testbed-s1"
cc       = "on"
phase    = "4ms"
sample   = "1ms"

[sweep]
ccti_timer   = ["100us", "200us"]
marking_rate = [0, 4]
`

func TestRunWritesReportUnlessTold(t *testing.T) {
	grid := writeGrid(t, reportGrid)
	dir := filepath.Dir(grid)
	out, stderr, code := ccsweep(t, "run", grid, "-j", "2", "--quiet")
	if code != 0 || !strings.Contains(out, "report: "+filepath.Join(dir, "rep.html")) {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	html, err := os.ReadFile(filepath.Join(dir, "rep.html"))
	// The shipped chart scripts, inlined: the page draws offline.
	if err != nil || !strings.Contains(string(html), `version="5.6.0"`) || strings.Contains(string(html), `src="https://cdn.jsdelivr.net`) {
		t.Fatalf("report does not inline the shipped echarts 5.6.0: %v, %d bytes", err, len(html))
	}

	custom := filepath.Join(dir, "custom.html")
	if out, stderr, code = ccsweep(t, grid, "--report", custom, "--quiet"); code != 0 {
		t.Fatalf("--report: exit %d\n%s\n%s", code, out, stderr)
	}
	if _, err := os.Stat(custom); err != nil {
		t.Fatal(err)
	}

	os.Remove(filepath.Join(dir, "rep.html"))
	if out, _, code = ccsweep(t, grid, "--no-report", "--quiet"); code != 0 || strings.Contains(out, "report:") {
		t.Fatalf("--no-report: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "rep.html")); err == nil {
		t.Fatal("--no-report wrote a report")
	}

	// ccsweep report: default output next to the database, -o, and stdout.
	db := filepath.Join(dir, "rep.db")
	if _, stderr, code = ccsweep(t, "report", db); code != 0 || !strings.Contains(stderr, "rep.html") {
		t.Fatalf("report: exit %d\n%s", code, stderr)
	}
	page, _, code := ccsweep(t, "report", db, "-o", "-")
	if code != 0 || !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, `id="g0-s0-victim_gbps-3d"`) {
		t.Fatalf("report -o -: exit %d, %.200s", code, page)
	}
	// --assets cdn: the scripts from the CDN, a page 1.7 MB smaller.
	cdn, _, code := ccsweep(t, "report", db, "-o", "-", "--assets", "cdn")
	if code != 0 || !strings.Contains(cdn, `src="https://cdn.jsdelivr.net/npm/echarts@5.6.0/dist/echarts.min.js" integrity="sha384-`) ||
		len(page)-len(cdn) < 1_600_000 {
		t.Fatalf("report --assets cdn: exit %d, %d bytes against %d inlined", code, len(cdn), len(page))
	}
}

func TestReportBadInputExitsTwo(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "x.db")
	os.WriteFile(notDB, []byte(strings.Repeat("junk", 100)), 0o644)
	for _, args := range [][]string{
		{"report"},
		{"report", filepath.Join(dir, "missing.db")},
		{"report", notDB},
		{"report", notDB, "--assets", dir}, // no scripts in dir
		{"serve", filepath.Join(dir, "missing.db")},
		{"serve", notDB, "--addr", "nonsense"},
		{"serve", notDB, "--assets", dir},
		{"slurm", filepath.Join("examples", "quick.toml"), "--tasks", "2", "--dir", filepath.Join(dir, "out"), "--assets", "cdn"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, stderr, code := ccsweep(t, args...)
			if code != 2 || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
				t.Errorf("%v: exit %d, stderr %q; want 2 and one line", args, code, stderr)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
